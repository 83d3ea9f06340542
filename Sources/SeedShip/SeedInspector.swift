import SeedKit
import Foundation
import SeedArchive
import SeedDeltas
import SeedSQLite

/// Reads a seed's facts for `seedgen inspect`: versions, tables, indexes, pages, inputs.
public enum SeedInspector {
    /// Inspects `seed`. A manifest named alone is reported from its own facts.
    public static func report(for seed: SeedFile) throws(ShipError) -> SeedReport {
        var report = SeedReport(path: seed.path, format: seed.kind, tables: [:])
        if let manifest = seed.manifest {
            report.manifest = manifest
            report.schemaVersion = manifest.schemaVersion
            report.seedVersion = manifest.seedVersion
            report.schemaName = manifest.schemaName
            report.toolVersion = manifest.toolVersion
            report.contentSha256 = manifest.contentSHA256
            report.size = manifest.size
            report.tables = manifest.tables
            report.gzip = SeedReport.GzipInfo(
                size: manifest.gzipSize, sha256: manifest.gzipSha256, comment: manifest.stamp.comment)
        }
        if seed.kind == .manifest { return report }
        if let gzipPath = seed.gzipPath {
            let digest = try SeedFile.digest(of: gzipPath)
            report.gzip = SeedReport.GzipInfo(
                size: digest.size, sha256: digest.sha256, comment: seed.gzipHeader?.comment)
        }
        let connection = try seed.open()
        do {
            try fill(&report, from: connection)
        } catch {
            throw ShipError(code: .sqlite, path: seed.path, message: "cannot read the seed: \(error)", cause: error)
        }
        if let databasePath = seed.databasePath {
            report.size = fileSize(databasePath)
            report.journalMode = try SeedHeader(path: databasePath).isWAL ? "wal" : "delete"
        }
        return report
    }

    private static func fill(_ report: inout SeedReport, from connection: Connection) throws(SQLiteError) {
        let metadata = try connection.seedMetadata()
        report.schemaVersion = Int(try connection.pragmaInteger("user_version"))
        report.seedVersion = metadata["seed_version"]
        report.schemaName = metadata["schema_name"]
        report.toolVersion = metadata["tool_version"]
        report.schemaSha256 = metadata["schema_sha256"]
        report.contentSha256 = metadata["content_sha256"]
        report.pageSize = try connection.pragmaInteger("page_size")
        report.pageCount = try connection.pragmaInteger("page_count")
        report.freelistCount = try connection.pragmaInteger("freelist_count")
        report.applicationId = try connection.pragmaInteger("application_id")

        let bytes = pageBytes(connection)
        let tables = try connection.seedTables()
        var details: [SeedReport.TableInfo] = []
        var counts: [String: Int64] = [:]
        for table in tables {
            let rows = try connection.scalar("SELECT count(*) FROM \(quoted(table))")?.integer ?? 0
            counts[table] = rows
            let references = try connection.seedReferences(of: table)
            let columns = try connection.seedColumns(of: table).map {
                SeedReport.ColumnInfo(
                    name: $0.name, type: $0.type, notNull: $0.notNull, primaryKey: $0.primaryKey,
                    references: references[$0.name])
            }
            details.append(SeedReport.TableInfo(name: table, rows: rows, bytes: bytes?[table], columns: columns))
        }
        report.tables = counts
        report.tableDetails = details
        report.feeds = try connection.seedFeeds()

        var indexes: [SeedReport.IndexInfo] = []
        let tableSet = Set(tables)
        for row in try connection.rows(
            "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' ORDER BY tbl_name, name")
        {
            let name = row[0].description, table = row[1].description
            guard tableSet.contains(table) else { continue }
            let unique =
                try connection.scalar(
                    "SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?", [.text(table), .text(name)])?.integer
                == 1
            let columns = try connection.rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)]).map
            { $0[0].description }
            indexes.append(
                SeedReport.IndexInfo(name: name, table: table, unique: unique, columns: columns, bytes: bytes?[name]))
        }
        report.indexes = indexes
        var queryIndexes = try connection.searchAndSpatialIndexes().map { index throws(SQLiteError) in
            // A points index counts the rows it locates (both coordinates set); a virtual table its rows.
            let columns = try connection.rows(
                "SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(index.name)]
            ).map { quoted($0[0].description) }
            let count =
                columns.isEmpty || index.table == nil
                ? "SELECT count(*) FROM \(quoted(index.name))"
                : """
                SELECT count(*) FROM \(quoted(index.table!)) WHERE \
                \(columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND "))
                """
            return QueryIndexCost(
                name: index.name, table: index.table, kind: index.kind,
                rows: try connection.scalar(count)?.integer ?? 0,
                bytes: bytes == nil ? nil : QueryIndexSizes.bytes(of: index.name, in: connection))
        }
        // Derived tables (their recipes) and the indexes that stand in for a reference's.
        for recipe in try DeriveRecipe.read(connection) where recipe.kind == .table {
            queryIndexes.append(
                QueryIndexCost(
                    name: recipe.target, table: recipe.target, kind: .derived, rows: counts[recipe.target] ?? 0,
                    bytes: bytes == nil ? nil : QueryIndexSizes.bytes(of: recipe.target, in: connection)))
        }
        for index in indexes where !index.unique && index.columns.count > 1 {
            let references = try connection.rows(
                "SELECT \"from\" FROM pragma_foreign_key_list(?)", [.text(index.table)]
            ).compactMap(\.[0].text)
            guard let first = index.columns.first, references.contains(first) else { continue }
            var cost = QueryIndexCost(
                name: index.name, table: index.table, kind: .index, rows: counts[index.table] ?? 0, replaces: first)
            if let indexBytes = index.bytes {
                cost.indexBytes = indexBytes
                cost.bytes = QueryIndexSizes.addedBytes(
                    of: index.name, table: index.table, bytes: indexBytes, in: connection)
            }
            queryIndexes.append(cost)
        }
        if !queryIndexes.isEmpty { report.queryIndexes = queryIndexes }

        if try connection.hasTable("seedgen_inputs") {
            let hasRejected =
                try connection.scalar(
                    "SELECT count(*) FROM pragma_table_info('seedgen_inputs') WHERE name = 'rejected'")?.integer == 1
            report.inputs = try connection.rows(
                "SELECT name, sha256, bytes, rows\(hasRejected ? ", rejected" : "") FROM seedgen_inputs ORDER BY name"
            ).map {
                SeedReport.InputInfo(
                    name: $0[0].description, sha256: $0[1].description, bytes: $0[2].integer ?? 0,
                    rows: $0[3].integer ?? 0,
                    rejected: hasRejected ? $0[4].integer : nil)
            }
        }
    }

    /// Bytes per table and index, from the `dbstat` virtual table; nil where SQLite is built
    /// without it.
    private static func pageBytes(_ connection: Connection) -> [String: Int64]? {
        guard let rows = try? connection.rows("SELECT name, sum(pgsize) FROM dbstat GROUP BY name") else { return nil }
        var bytes: [String: Int64] = [:]
        for row in rows { bytes[row[0].description] = row[1].integer ?? 0 }
        return bytes
    }

    static func fileSize(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }
}

/// The first 100 bytes of a SQLite file, read directly (no connection needed).
struct SeedHeader {
    let bytes: [UInt8]

    init(path: String) throws(ShipError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ShipError(code: .fileSystem, path: path, message: "cannot read the file")
        }
        defer { try? handle.close() }
        bytes = Array((try? handle.read(upToCount: 100)) ?? Data())
    }

    /// True when the file starts with SQLite's magic string and is at least a header long.
    var isSQLite: Bool { bytes.count == 100 && bytes.starts(with: Array("SQLite format 3\u{0}".utf8)) }

    /// Bytes 18 and 19 (file format write and read versions) are 2 in WAL mode, 1 otherwise.
    var isWAL: Bool { bytes.count >= 20 && (bytes[18] == 2 || bytes[19] == 2) }
}
