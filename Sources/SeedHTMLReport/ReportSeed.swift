import SeedKit
import SeedSQLite
import SeedShip

/// The seed a report is about: its open connection, what `seedgen inspect` says of it, its
/// tables and, for a region seed, its feeds (those of `Opened`, read through it).
@dynamicMemberLookup
struct ReportSeed {
    /// The seed as opened: its file, connection, tables, feeds and schema.
    let opened: Opened
    /// `seedgen inspect`'s facts.
    let inspection: SeedReport

    subscript<Value>(dynamicMember key: KeyPath<Opened, Value>) -> Value { opened[keyPath: key] }

    /// The seed opened, before `seedgen inspect`'s facts are gathered (they read the whole file):
    /// enough to start the work that runs meanwhile (`RecomputedNotices.begin`).
    struct Opened {
        /// The file, as given.
        let path: String
        /// The seed file, kept open: a gzipped seed's decompressed copy lives as long as it.
        let file: SeedFile
        let connection: Connection
        /// The data tables.
        let tables: Set<String>
        /// A region seed's feeds (`feeds.id`, `feeds.name`), in id order; empty for a seed of one feed.
        let feeds: [(id: Int64, name: String)]
        /// `seedgen_metadata`'s schema_name and schema_sha256.
        let schemaName: String?
        let schemaSHA256: String?
        /// The built-in schema the seed was built with (by its recorded name), when it is one.
        let schema: Schema?

        init(path: String) throws(ShipError) {
            self.path = path
            file = try SeedFile(path: path)
            connection = try file.open()
            do {
                tables = Set(try connection.seedTables())
                feeds =
                    tables.contains(Schema.feedsTable)
                    ? try connection.rows("SELECT id, name FROM feeds ORDER BY id").map {
                        ($0[0].integer ?? 0, $0[1].description)
                    } : []
                let hasMetadata = try !connection.rows(
                    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'seedgen_metadata'"
                ).isEmpty
                let metadata =
                    hasMetadata
                    ? try connection.rows(
                        "SELECT key, value FROM seedgen_metadata WHERE key IN ('schema_name', 'schema_sha256')")
                    : []
                let values = Dictionary(metadata.map { ($0[0].description, $0[1].description) }) { a, _ in a }
                (schemaName, schemaSHA256) = (values["schema_name"], values["schema_sha256"])
            } catch {
                throw ShipError(code: .sqlite, path: path, message: "cannot read the seed: \(error)", cause: error)
            }
            let name = schemaName
            schema = SchemaLocator.builtIns.first { $0.name == name }.flatMap { try? $0.load() }
        }
    }

    /// The seed `opened`, with what `seedgen inspect` says of it.
    init(_ opened: Opened) throws(ShipError) {
        self.opened = opened
        inspection = try SeedInspector.report(for: opened.file)
    }

    /// True when the seed holds the transit tables the map's stops and the calendar read.
    var hasTransit: Bool { ["stops", "trips", "service_days", "routes"].allSatisfy(opened.tables.contains) }

    /// True for a region seed (several feeds).
    var isRegion: Bool { !opened.feeds.isEmpty }

    /// The column names of `table`, in order.
    func columns(of table: String) throws(SQLiteError) -> [String] {
        try opened.connection.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map {
            $0[0].description
        }
    }

    /// Wraps a SQLite failure while reading the seed for `what`.
    func failure(_ what: String, _ error: any Error) -> ShipError {
        ShipError(code: .sqlite, path: opened.path, message: "cannot read \(what): \(error)", cause: error)
    }
}
