import Foundation
import Testing

/// The real data sets (`../shared/data` beside the repository): large public feeds and dumps
/// that are not committed. CI has them, so there a missing data set is a failure; elsewhere a
/// test that needs one is skipped, saying what is missing.
public enum RealData {
    /// The folder holding the data sets.
    public static let root: String = root(besideRepository: Repository.root)

    /// `shared/data` beside the checkout at `repository`, as a path without `..` whose links
    /// are left as they are (`standardizedFileURL` follows them on Linux): a `../shared` that is
    /// a link to the data is found through it, as a folder is.
    public static func root(besideRepository repository: String) -> String {
        URL(fileURLWithPath: repository).deletingLastPathComponent().appendingPathComponent("shared/data").path
    }

    /// `relative` (a data set's folder or file) inside ``root``.
    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// Whether a missing data set fails the test instead of skipping it: under `CI=true`.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Those of `relatives` (paths inside ``root``) that do not exist.
    public static func missing(_ relatives: [String]) -> [String] {
        relatives.filter { !FileManager.default.fileExists(atPath: path($0)) }
    }
}

/// Runs a test or suite only where the real data it reads is present: skipped with a message
/// naming what is missing, or failed with it under `CI=true`.
///
/// ```swift
/// @Suite("OSM real data", .realData("osm-liechtenstein-2013/liechtenstein-2013-08-03.osm"))
/// ```
public struct RealDataTrait: TestTrait, SuiteTrait {
    /// The files and folders, inside ``RealData/root``, the tests read.
    public let needs: [String]

    public var isRecursive: Bool { true }

    public func prepare(for test: Test) async throws {
        let missing = RealData.missing(needs)
        guard !missing.isEmpty else { return }
        let message = "the real data \(missing.joined(separator: ", ")) is missing from \(RealData.root)"
        if RealData.isRequired {
            throw RealData.Missing(message: message + " (CI=true: the real-data tests must run)")
        }
        try Test.cancel(Comment(rawValue: message))
    }
}

extension RealData {
    /// Real data a test needs and CI does not have.
    public struct Missing: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}

extension Trait where Self == RealDataTrait {
    /// Needs `paths` (inside ``RealData/root``): see ``RealDataTrait``.
    public static func realData(_ paths: String...) -> Self { RealDataTrait(needs: paths) }
}
