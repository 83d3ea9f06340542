import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

/// A build of the minimal feed with `changes`, its notices read back (the canonical rules' tests).
struct Checked {
    var built: Bool
    var notices: [[String: Any]]

    /// The notices of `code`, each as (line, field, value, severity).
    func found(_ code: String) -> [(line: Int?, field: String?, value: String?, severity: String?)] {
        notices.filter { $0["code"] as? String == code }.map {
            ($0["line"] as? Int, $0["field"] as? String, $0["value"] as? String, $0["severity"] as? String)
        }
    }

    init(_ changes: [String: String?], strict: Bool = false) throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, changes)
        try self.init(input: folder.file("feed"), in: folder, strict: strict)
    }

    /// A build of `input` (a folder, a zip archive), its files in `folder`.
    init(input: String, in folder: TemporaryFolder, strict: Bool = false) throws {
        var options = BuildOptions(inputs: [input], output: folder.file("seed.sqlite"), strict: strict)
        options.notices = folder.file("notices.json")
        options.today = "2026-06-01"
        do { _ = try SeedBuilder(options: options).build(); built = true } catch { built = false }
        let data = try #require(FileManager.default.contents(atPath: folder.file("notices.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        notices = report["notices"] as? [[String: Any]] ?? []
    }
}
