import Foundation
import SeedTestSupport
@testable import SeedKit

/// What building one real input gives, as the golden record keeps it.
struct RealOutcome: Codable, Equatable, Sendable {
    /// The command, for the record's reader (not compared).
    var command: String
    /// Whether the build wrote a seed.
    var builds: Bool
    /// A failed build's error code (`invalid-input`, `schema`, `internal`, ...).
    var failure: String?
    /// The notices of severity ERROR, by code.
    var errors: [String: Int]
    /// The notices of severity WARNING, by code.
    var warnings: [String: Int]
    /// Rows per table, the tables with rows only.
    var rows: [String: Int]
    /// The seed's content digest.
    var digest: String?

    init(command: String, builds: Bool = false, failure: String? = nil, errors: [String: Int] = [:], warnings: [String: Int] = [:],
         rows: [String: Int] = [:], digest: String? = nil) {
        (self.command, self.builds, self.failure, self.errors, self.warnings, self.rows, self.digest) =
            (command, builds, failure, errors, warnings, rows, digest)
    }

    // Empty maps are left out of the file, so that an outcome reads in a few lines.
    private enum CodingKeys: String, CodingKey { case command, builds, failure, errors, warnings, rows, digest }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(command: try c.decode(String.self, forKey: .command), builds: try c.decode(Bool.self, forKey: .builds),
                  failure: try c.decodeIfPresent(String.self, forKey: .failure),
                  errors: try c.decodeIfPresent([String: Int].self, forKey: .errors) ?? [:],
                  warnings: try c.decodeIfPresent([String: Int].self, forKey: .warnings) ?? [:],
                  rows: try c.decodeIfPresent([String: Int].self, forKey: .rows) ?? [:],
                  digest: try c.decodeIfPresent(String.self, forKey: .digest))
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(command, forKey: .command)
        try c.encode(builds, forKey: .builds)
        try c.encodeIfPresent(failure, forKey: .failure)
        for (key, map) in [(CodingKeys.errors, errors), (.warnings, warnings), (.rows, rows)] where !map.isEmpty {
            try c.encode(map, forKey: key)
        }
        try c.encodeIfPresent(digest, forKey: .digest)
    }

    /// How `recorded` and this outcome differ, a line each; empty when they are the same.
    func differences(from recorded: RealOutcome) -> [String] {
        var lines: [String] = []
        func compare(_ field: String, _ old: String?, _ new: String?) {
            if old != new { lines.append("\(field): \(old ?? "none") -> \(new ?? "none")") }
        }
        func compare(_ field: String, _ old: [String: Int], _ new: [String: Int]) {
            for key in Set(old.keys).union(new.keys).sorted() where old[key] != new[key] {
                compare("\(field).\(key)", old[key].map(String.init), new[key].map(String.init))
            }
        }
        compare("builds", String(recorded.builds), String(builds))
        compare("failure", recorded.failure, failure)
        compare("errors", recorded.errors, errors)
        compare("warnings", recorded.warnings, warnings)
        compare("rows", recorded.rows, rows)
        compare("digest", recorded.digest, digest)
        return lines
    }
}

/// The golden record, `Tests/RealData/outcomes.json`: what every real input gave when it was
/// last recorded. `make test` builds each input again and fails on any difference; a change that
/// alters an outcome records it (`make outcomes`) in the same commit, so that the diff shows it.
enum GoldenRecord {
    static let path = Repository.path("Tests/RealData/outcomes.json")

    /// Whether this run records outcomes instead of comparing them (`make outcomes`).
    static var isRecording: Bool { ProcessInfo.processInfo.environment["SEEDGEN_RECORD_OUTCOMES"] == "1" }

    static func read() throws -> [String: RealOutcome] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        return try JSONDecoder().decode([String: RealOutcome].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private static let lock = NSLock()

    /// Writes `outcome` as `name`'s in the record, keeping the others (test cases record in parallel).
    static func record(_ outcome: RealOutcome, as name: String) throws {
        try lock.withLock {
            var outcomes = try read()
            outcomes[name] = outcome
            try write(outcomes)
        }
    }

    /// Removes the outcomes of inputs that are no longer in ``RealInputs/all``.
    static func prune() throws {
        try lock.withLock {
            let names = Set(RealInputs.all.map(\.name))
            try write(try read().filter { names.contains($0.key) })
        }
    }

    private static func write(_ outcomes: [String: RealOutcome]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(outcomes)
        data.append(0x0A)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

extension RealInput {
    /// Builds the input as a user would, in `folder`, and says what it gave.
    func build(in folder: TemporaryFolder) throws -> RealOutcome {
        var previous: String?
        for (index, day) in previousChain.enumerated() {
            let seed = folder.file("previous-\(index).sqlite")
            var options = BuildOptions(inputs: [Self.resolved(day)], output: seed, lenient: lenient)
            options.previous = previous
            _ = try SeedBuilder(options: options).build()
            previous = seed
        }
        var options = BuildOptions(inputs: paths.map(Self.resolved), output: folder.file("seed.sqlite"), lenient: lenient)
        options.feeds = feeds.map { "\($0.name)=\(Self.resolved($0.path))" }
        options.previous = previous
        options.notices = folder.file("notices.json")
        options.today = RealInput.today
        switch schema {
        case .recognised: break
        case .file(let file): options.schemaPath = Repository.path(file)
        case .drafted:
            do {
                // The draft names its inputs (how to build it): as the record shows them, so that the
                // schema, whose digest is in the seed, is the same wherever the checkout is.
                var text = try SchemaDraft.draft(inputs: paths.map(Self.resolved)).text
                for path in paths { text = text.replacingOccurrences(of: Self.resolved(path), with: Self.shown(path)) }
                options.schemaPath = folder.write("draft.yaml", text)
            } catch {
                return RealOutcome(command: command, failure: "draft")
            }
        }
        var outcome = RealOutcome(command: command)
        do {
            let summary = try SeedBuilder(options: options).build()
            outcome.builds = true
            outcome.digest = summary.contentDigest
            for table in summary.tables where table.rows > 0 { outcome.rows[table.name] = table.rows }
        } catch {
            outcome.failure = error.code.name
        }
        // A build that stops before reading (a schema error) writes no notices.
        guard let data = FileManager.default.contents(atPath: options.notices!) else { return outcome }
        let report = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        for notice in report?["notices"] as? [[String: Any]] ?? [] {
            guard let code = notice["code"] as? String else { continue }
            if notice["severity"] as? String == "ERROR" { outcome.errors[code, default: 0] += 1 } else { outcome.warnings[code, default: 0] += 1 }
        }
        return outcome
    }
}
