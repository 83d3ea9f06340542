import SeedTestSupport
import Testing

/// The bench's guard (`scripts/bench_record.py`) and the performance tables of README.md and
/// Documentation/performance.md (`scripts/bench_tables.py`), which are generated from the runs
/// recorded in bench/runs/: their Python unit tests, on small recorded runs, and the committed
/// tables against what the committed runs give.
@Suite("The bench's record, its regression guard and the generated performance tables")
struct BenchRecordTests {
    @Test("the Python unit tests of the bench's record, guard and tables pass")
    func pythonUnitTests() throws {
        let result = try ChildProcess.run("/usr/bin/env", ["python3", "-m", "unittest", "discover", "-s", "scripts/tests"],
                                          in: Repository.root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("OK"), "\(result.stderr)")
    }

    @Test("README's and the performance guide's tables are what the recorded runs give")
    func tablesAreGenerated() throws {
        let check = try ChildProcess.run("/usr/bin/env", ["python3", Repository.path("scripts/bench_tables.py"), "--check"])
        #expect(check.status == 0, "run python3 scripts/bench_tables.py:\n\(check.stdout)\(check.stderr)")
    }
}
