import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing

@testable import SeedKit

/// The index stage's memory: SQLite's sorter keeps each sorted run in memory up to the page
/// cache's size, so indexes are built with the small finishing cache, not the loading one.
@Suite("Index stage")
struct IndexStageTests {
    @Test("indexes are built with the 4 MiB finishing cache and two sorter threads, not the 16 MiB loading cache")
    func finishingCache() throws {
        let folder = TemporaryFolder()
        let schemaPath = NotesSchema.write(into: folder, columns: ["{ name: text }"])
        folder.write("in/notes.txt", "text\nhello\n")
        let output = folder.file("out.sqlite")
        let database = try SeedDatabase(outputPath: output)
        defer { database.discard() }
        let state = BuildState(
            options: BuildOptions(inputs: [folder.file("in")], output: output),
            schema: try Schema.load(path: schemaPath),
            feeds: try InputFeeds(paths: [folder.file("in")]), issues: IssueLog(), database: database, previous: nil,
            progress: nil)
        #expect(try state.connection.scalar("PRAGMA cache_size") == .integer(-Int64(SeedDatabase.loadingCacheKiB)))
        try IndexStage().run(state)
        #expect(try state.connection.scalar("PRAGMA cache_size") == .integer(-4096))
        #expect(try state.connection.scalar("PRAGMA threads") == .integer(2))
    }
}
