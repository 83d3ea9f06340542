import Foundation
import SeedSQLite
import SeedSystem

/// The seed file being built. Rows go into a scratch file next to the output, opened
/// without journal or syncs (it is thrown away on failure); the finished database is
/// compacted with `VACUUM INTO` into a second file, flushed, and renamed over the output
/// only when complete, so an existing output is never half-replaced.
package final class SeedDatabase {
    /// `PRAGMA application_id` of every seed: "SEED".
    package static let applicationID: Int32 = 0x5345_4544

    let outputPath: String
    /// Where the rows are loaded.
    private let scratch: ScratchFile
    /// Where `VACUUM INTO` writes the finished seed, renamed over the output at the end.
    private let finished: ScratchFile
    /// The scratch database; nil while a writer thread has it (`withWriteQueue`) and once
    /// the build is completed or discarded.
    private(set) var connection: Connection?

    init(outputPath: String) throws(BuildError) {
        self.outputPath = outputPath
        let url = URL(fileURLWithPath: outputPath)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BuildError.output(path: outputPath, message: "the folder \(folder) does not exist")
        }
        scratch = ScratchFile(folder: folder, name: url.lastPathComponent, kind: "build")
        finished = ScratchFile(folder: folder, name: url.lastPathComponent, kind: "final")
        do {
            let connection = try Connection(path: scratch.path, mode: .create)
            try connection.execute(
                """
                PRAGMA page_size = 4096;
                PRAGMA journal_mode = OFF;
                PRAGMA synchronous = OFF;
                PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA temp_store = FILE;
                PRAGMA cache_size = -\(Self.loadingCacheKiB);
                PRAGMA temp.cache_size = -\(Self.temporaryCacheKiB);
                PRAGMA threads = 1;
                PRAGMA analysis_limit = 1000;
                PRAGMA foreign_keys = OFF;
                PRAGMA application_id = \(Self.applicationID);
                """)
            self.connection = connection
        } catch {
            throw BuildError.output(
                path: outputPath, message: "cannot create the scratch database: \(error)", cause: error)
        }
    }

    /// Lends the connection to a writer thread while `body` loads the rows: meanwhile every
    /// use of the database is a job on the queue (`WriteQueue.sync`, `submit`). The
    /// connection is back once the thread has ended, whether `body` returned or threw.
    func withWriteQueue<Result>(_ body: (WriteQueue) throws -> Result) rethrows -> Result {
        guard let connection = connection.take() else {
            preconditionFailure("the scratch database is closed or lent already")
        }
        let queue = WriteQueue(connection: consume connection)
        defer { self.connection = queue.stop() }
        return try body(queue)
    }

    /// The page cache while rows stream in (KiB): the b-trees being appended to and the
    /// reference lookups stay in memory. 8 MiB loads the 3M feed and the 10M-node PBF in the
    /// same CPU time as 16 MiB did, at 9 and 8 MB less peak memory.
    static let loadingCacheKiB = 8192
    /// The page cache of the temporary database (pending references, checked keys, copies):
    /// its tables are read and written in key order, so a small cache serves them, and a
    /// region's many files do not grow it.
    static let temporaryCacheKiB = 1024
    /// The page cache for indexing, ANALYZE and VACUUM (KiB): they read and write each
    /// b-tree in order, so a big cache only adds to the peak memory, not to the speed.
    static let finishingCacheKiB = 4096

    /// The page cache while `VACUUM INTO` copies the scratch file (KiB; the copy's cache takes
    /// the same size): it reads and writes each b-tree in order, beside the digest and the
    /// checks. The 30M stop_times build peaked at 68.0 and 68.8 MB with `finishingCacheKiB`, at
    /// 61.1 and 64.5 MB with this, in the same time.
    static let vacuumCacheKiB = 512

    /// Helper threads of SQLite's sorter while indexes are built (`PRAGMA threads`): it sorts
    /// one run of keys while the next is read. Creating the 3M feed's departures index takes
    /// 1.2 s with two, 1.45 s with one (+4 MB of memory).
    static let finishingSorterThreads = 2

    /// Shrinks the page cache to `finishingCacheKiB` before the derived tables are computed:
    /// their queries read the loaded tables in order, and SQLite's sorter keeps a run in memory
    /// up to the cache's size. The 3M feed's `trip_patterns` (a window over 116,342 trips' stop
    /// lists) peaked at 79.8 MB with the loading cache, above the index stage's 63 to 70 MB.
    func beginDeriving() throws(SQLiteError) {
        try connection?.execute("PRAGMA cache_size = -\(Self.finishingCacheKiB)")
    }

    /// Shrinks the page cache once every row is loaded and checked (see `finishingCacheKiB`),
    /// giving back the pages it held, and lets the index sorter use `finishingSorterThreads`.
    /// The sorter keeps each sorted run in memory up to the cache's size, so with the loading
    /// cache the 3M feed's departures index held two 16 MiB runs (a peak of 100 MB, not 70).
    func beginFinishing() throws(SQLiteError) {
        try connection?.execute(
            "PRAGMA cache_size = -\(Self.finishingCacheKiB); PRAGMA threads = \(Self.finishingSorterThreads)")
    }

    /// Writes the versions: `PRAGMA user_version` and the metadata tables; `extra` entries of
    /// `seedgen_metadata` follow the standard ones (`--previous`: see `StableIDs`).
    func writeMetadata(
        schema: Schema, seedVersion: String, inputs: [InputRecord], extra: [(key: String, value: String)] = []
    ) throws(SQLiteError) {
        guard let connection else { return }
        try connection.execute(
            """
            PRAGMA user_version = \(schema.schemaVersion);
            CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE seedgen_inputs (name TEXT PRIMARY KEY, sha256 TEXT NOT NULL, bytes INTEGER NOT NULL, rows \
            INTEGER NOT NULL, rejected INTEGER NOT NULL);
            """)
        let metadata = try connection.prepare("INSERT INTO seedgen_metadata (key, value) VALUES (?, ?)")
        for (key, value) in [
            ("schema_name", schema.name), ("schema_version", String(schema.schemaVersion)),
            ("seed_version", seedVersion), ("tool_version", toolVersion), ("schema_sha256", schema.sha256)
        ] + extra {
            try metadata.run([.text(key), .text(value)])
        }
        let input = try connection.prepare(
            "INSERT INTO seedgen_inputs (name, sha256, bytes, rows, rejected) VALUES (?, ?, ?, ?, ?)")
        for record in inputs.sorted(by: { $0.name < $1.name }) {
            try input.run([
                .text(record.name), .text(record.sha256), .integer(record.bytes), .integer(Int64(record.rows)),
                .integer(Int64(record.rejected))
            ])
        }
    }

    /// ANALYZE, then the jobs that only read the scratch file, on both cores: `VACUUM INTO`
    /// compacts it into the final file on this thread while `digest` reads it through a
    /// connection of its own on another, and each of `readers` on a thread and connection of
    /// its own; `whileDigesting` then reads the final file (the digest takes longer than the
    /// copy). `record` writes the digest into the final file (after the copy: no scratch row
    /// waits for it); returns it, with each reader's timing and outcome.
    /// `publish()` then puts the final file in place.
    func compact<Digest: Sendable>(
        digest: @escaping @Sendable (String) throws(SQLiteError) -> Digest,
        record: (Digest, Connection) throws(SQLiteError) -> Void,
        readers: [ReadingJob] = [], whileDigesting: (String) -> Void, timer: PhaseTimer, phase: (String) -> Void
    ) throws(BuildError) -> (digest: Digest, readers: [(timing: StageTiming, outcome: Result<Void, any Error>)]) {
        guard let connection else { preconditionFailure("the scratch database is closed or lent") }
        do {
            phase("analyzing")
            try connection.execute("ANALYZE")
            timer.mark("analyze")
            // The build's exclusive lock goes with the next read: the digest's connection may read too.
            try connection.execute("PRAGMA locking_mode = NORMAL; SELECT count(*) FROM sqlite_schema")
            phase(readers.isEmpty ? "content digest and vacuuming" : "content digest, vacuuming and checks")
            let reader = BackgroundJob { [path = scratch.path] () throws(SQLiteError) in try digest(path) }
            let running = readers.map { ReadingJob.Running($0, path: scratch.path) }
            let copied = Result { () throws(SQLiteError) in
                try connection.execute(
                    """
                    PRAGMA cache_size = -\(Self.vacuumCacheKiB); PRAGMA shrink_memory; \
                    VACUUM INTO \(quotedLiteral(finished.path))
                    """)
            }
            if case .success = copied { whileDigesting(finished.path) }
            // The digest's thread has ended before either failure is thrown; the copy's (a full
            // disk) is the one to tell first.
            let digested = Result { () throws(SQLiteError) in try reader.wait() }
            let read = running.map { job in Result { () throws(SQLiteError) in try job.wait() } }
            try copied.get()
            let value = try digested.get()
            timer.mark("content digest beside vacuum into")
            let final = try Connection(path: finished.path, mode: .readWrite)
            try final.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try record(value, final)
            return (value, try read.map { result throws(SQLiteError) in try result.get() })
        } catch {
            throw BuildError.output(path: outputPath, message: "cannot finish the database: \(error)", cause: error)
        }
    }

    /// After `compact`: flushes the final file and renames it over the output.
    func publish(timer: PhaseTimer) throws(BuildError) {
        connection = nil
        scratch.remove()
        do { try FileSystem.syncFile(finished.path) } catch {
            throw BuildError.output(
                path: outputPath, message: "cannot flush \(finished.path) to disk: \(error.reason)", cause: error)
        }
        timer.mark("fsync")
        do { try finished.moveIntoPlace(at: outputPath) } catch {
            throw BuildError.output(
                path: outputPath, message: "cannot rename the finished database into place: \(error.reason)",
                cause: error)
        }
        // Best effort: the seed is complete either way; only the rename may not yet be on disk.
        try? FileSystem.syncDirectory(FileSystem.parentDirectory(of: outputPath))
    }

    /// Removes the scratch files; the output is left as it was.
    func discard() {
        connection = nil
        scratch.remove()
        finished.remove()
    }
}

/// One input file as recorded in the seed.
public struct InputRecord: Sendable, Equatable {
    /// The file's name (`stops.txt`, `feed/stops.txt` in a region).
    public var name: String
    /// The SHA-256 of the file's bytes, in hexadecimal.
    public var sha256: String
    /// The file's size.
    public var bytes: Int64
    /// The rows stored from it.
    public var rows: Int
    /// Records of the file left out (`--lenient`): `rows + rejected` is the file's records.
    public var rejected: Int = 0
}
