import Foundation
import SeedTestSupport
import Testing
@testable import SeedKit

/// The golden record (`Tests/RealData/outcomes.json`): every data set of `../shared/data` and
/// every fixture, built as users build them, gives what it gave when it was recorded: whether it
/// builds with no flags, its errors and warnings by code, its rows per table, its content digest.
/// A change that alters an outcome records it with `make outcomes`, in the same commit.
@Suite("The golden record of real inputs", .realData("gtfs-cairns-2014", "gtfs-world", "gtfs-daily-renfe-ld", "osm-liechtenstein-2013",
                                                   "stackexchange-ai-2017", "xml-transit", "xml-transit-2"))
struct RealDataOutcomeTests {
    @Test("each real input builds as recorded", arguments: RealInputs.selected)
    func outcome(of input: RealInput) throws {
        let folder = TemporaryFolder()
        let actual = try input.build(in: folder)
        // The planner's tables the build computed in Swift are the rows their recipes' SQL gives.
        if actual.builds, (actual.rows["trip_patterns"] ?? 0) > 0 {
            let (checked, differences) = try PlannerRecipeCheck.compare(folder.file("seed.sqlite"))
            #expect(checked == PlannerRecipeCheck.tables && differences.isEmpty, "\(input.name): \(differences)")
        }
        if GoldenRecord.isRecording { return try GoldenRecord.record(actual, as: input.name) }
        guard let recorded = try GoldenRecord.read()[input.name] else {
            Issue.record("\(input.name) is not in Tests/RealData/outcomes.json: record it with `make outcomes`")
            return
        }
        let differences = actual.differences(from: recorded)
        #expect(differences.isEmpty, """
            \(input.name) (\(input.command)) gives another outcome than recorded:
              \(differences.joined(separator: "\n  "))
            If the change is meant, record it with `make outcomes` and commit Tests/RealData/outcomes.json with it.
            """)
    }

    @Test("the record covers every data set of ../shared/data and every fixture, and nothing else")
    func coverage() throws {
        let read = Set(RealInputs.all.flatMap(\.dataPaths))
        let uncovered = RealInputs.dataSets().filter { set in !read.contains { $0 == set || $0.hasPrefix(set + "/") } }
        #expect(uncovered.isEmpty, "not in the golden record (add them to RealInputs): \(uncovered)")
        if GoldenRecord.isRecording { return try GoldenRecord.prune() }
        let names = Set(RealInputs.all.map(\.name)), recorded = Set(try GoldenRecord.read().keys)
        #expect(recorded.subtracting(names).isEmpty, "recorded, but no longer an input: \(recorded.subtracting(names).sorted())")
        #expect(names.subtracting(recorded).isEmpty, "an input, but not recorded: \(names.subtracting(recorded).sorted())")
    }

    @Test("a changed outcome is caught, naming what changed", .enabled(if: !GoldenRecord.isRecording))
    func changedOutcomeIsCaught() throws {
        let input = try #require(RealInputs.all.first { $0.name == "examples/cairns" })
        let actual = try input.build(in: TemporaryFolder())
        let recorded = try #require(try GoldenRecord.read()[input.name])
        try #require(actual.differences(from: recorded).isEmpty, "the record of examples/cairns is current")
        // One stop more, a warning, a new digest: what a change to the builder might do.
        var changed = recorded
        changed.rows["stops", default: 0] += 1
        changed.warnings["unknown_column"] = 1
        changed.digest = String(repeating: "0", count: 64)
        #expect(actual.differences(from: changed) == [
            "warnings.unknown_column: 1 -> none",
            "rows.stops: \(recorded.rows["stops"]! + 1) -> \(recorded.rows["stops"]!)",
            "digest: \(changed.digest!) -> \(recorded.digest!)",
        ])
    }
}
