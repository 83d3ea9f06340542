/// Keeps one table's inserts and updates while its deletes are written (a delta's body puts a
/// table's deletes first, and one pass over the rows finds both): in a file of their own, a
/// delta body stored without compression, read back in order by ``replay(_:)``. Memory stays
/// bounded however many rows a table gains, and the records go through the delta's own writer
/// and reader (which check their order and shape) on the way.
///
/// The file's header names no seed: it is this process's own file, read back at once.
final class RecordSpool {
    /// The file (created or truncated by ``start(_:)``; the caller removes it).
    let path: String
    private var writer: DeltaWriter?
    private var table: DeltaTable?
    /// Records appended since ``start(_:)``.
    private(set) var count = 0

    init(path: String) {
        self.path = path
    }

    private static let header = DeltaHeader(
        schemaName: nil, schemaVersion: 0,
        from: .init(seedVersion: "spool", contentSHA256: String(repeating: "0", count: 64), size: 0),
        to: .init(
            seedVersion: "spool", contentSHA256: String(repeating: "0", count: 64), size: DeltaHeader.maximumSeedSize),
        sqliteVersion: nil, toolVersion: nil)

    /// Starts again, empty, for the records of `table`.
    func start(_ table: DeltaTable) {
        writer = nil
        self.table = table
        count = 0
    }

    /// Keeps an insert or update of the table.
    func append(_ record: DeltaRecord) throws(DeltaError) {
        if writer == nil, let table {
            let writer = try DeltaWriter(path: path, header: Self.header, level: 0)
            try writer.write(.table(table))
            self.writer = writer
        }
        try writer?.write(record)
        count += 1
    }

    /// Passes the records kept, in the order they came, to `emit`.
    func replay(_ emit: (DeltaRecord) throws -> Void) throws {
        guard let writer else { return }
        try writer.finish(sync: false)
        self.writer = nil
        let reader = try DeltaReader(path: path)
        while true {
            switch try reader.next() {
            case .table: continue
            case .end: return
            case let record: try emit(record)
            }
        }
    }
}
