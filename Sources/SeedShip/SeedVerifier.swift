import SeedKit
import Foundation
import SeedArchive
import SeedDeltas
import SeedSQLite

/// One check `seedgen verify` made, and what it found.
package struct SeedCheck: Codable, Equatable, Sendable {
    /// A stable name: `integrity_check`, `foreign_key_check`, `journal_mode`, ...
    package var name: String
    package var passed: Bool
    /// What was found; for a failure, what is wrong.
    package var detail: String
    /// The feed of a region seed the check is about (`feed_rows`); nil for the whole seed.
    package var feed: String?

    package init(name: String, passed: Bool, detail: String = "", feed: String? = nil) {
        self.name = name
        self.passed = passed
        self.detail = detail
        self.feed = feed
    }
}

/// Checks that a seed is fit to ship: a sound SQLite file, its references intact, not in WAL
/// mode, compact, its versions recorded, its manifest (if any) telling the truth about it,
/// a region seed's row counts per feed true, and, when a schema is given, built from that schema.
package struct SeedVerifier {
    /// The schema the seed must match (tables, columns, declared types, version); nil to skip.
    package var schema: Schema?
    /// The schema version the seed must have, when no schema is given.
    package var schemaVersion: Int?

    package init(schema: Schema? = nil, schemaVersion: Int? = nil) {
        self.schema = schema
        self.schemaVersion = schemaVersion
    }

    /// Runs every check that applies to `seed`; the seed passes when all of them pass.
    package func verify(_ seed: SeedFile) -> [SeedCheck] {
        guard let databasePath = seed.databasePath else {
            return [
                SeedCheck(
                    name: "seed", passed: false,
                    detail: "no seed beside the manifest \(seed.path) (looked for .sqlite.gz and .sqlite)")
            ]
        }
        var checks: [SeedCheck] = []
        let header: SeedHeader
        do { header = try SeedHeader(path: databasePath) } catch {
            return [SeedCheck(name: "sqlite_header", passed: false, detail: error.message)]
        }
        guard header.isSQLite else {
            return [SeedCheck(name: "sqlite_header", passed: false, detail: "the file is not a SQLite database")]
        }
        checks.append(
            SeedCheck(
                name: "journal_mode", passed: !header.isWAL,
                detail: header.isWAL
                    ? """
                    the seed is in WAL mode; ship it in rollback-journal mode (PRAGMA journal_mode = DELETE, then \
                    VACUUM)
                    """
                    : "delete"))
        let connection: Connection
        do { connection = try seed.open() } catch {
            return checks + [SeedCheck(name: "open", passed: false, detail: error.message)]
        }
        for check in [integrity, foreignKeys, vacuumed, applicationID, versions] {
            checks.append(run(check, connection))
        }
        do { checks += try feedRows(connection) } catch {
            checks.append(SeedCheck(name: "feed_rows", passed: false, detail: "\(error)"))
        }
        checks.append(run({ try self.contentDigest($0, manifest: seed.manifest) }, connection))
        if let schema {
            checks.append(run({ try self.schemaTables(schema, $0) }, connection))
        }
        do {
            if let check = try QueryIndexCheck(connection: connection, path: databasePath, schema: schema).run() {
                checks.append(check)
            }
        } catch {
            checks.append(SeedCheck(name: QueryIndexCheck.name, passed: false, detail: "\(error)"))
        }
        checks += manifestChecks(seed, connection)
        return checks
    }

    /// Runs one check, turning an SQLite failure into a failed check.
    private func run(_ check: (Connection) throws -> SeedCheck, _ connection: Connection) -> SeedCheck {
        do { return try check(connection) } catch {
            return SeedCheck(name: "sqlite", passed: false, detail: "\(error)")
        }
    }

    private func integrity(_ connection: Connection) throws -> SeedCheck {
        let problems = try connection.rows("PRAGMA integrity_check(20)").map(\.[0].description)
        let passed = problems == ["ok"]
        return SeedCheck(
            name: "integrity_check", passed: passed, detail: passed ? "" : problems.joined(separator: "; "))
    }

    private func foreignKeys(_ connection: Connection) throws -> SeedCheck {
        let rows = try connection.rows(
            """
            SELECT "table", parent, count(*) FROM pragma_foreign_key_check GROUP BY "table", parent ORDER BY "table", \
            parent
            """)
        let problems = rows.map { row in
            let count = row[2].integer ?? 0
            return
                "\(count) row\(count == 1 ? "" : "s") in \(row[0]) reference\(count == 1 ? "s" : "") missing \(row[1])"
        }
        return SeedCheck(name: "foreign_key_check", passed: problems.isEmpty, detail: problems.joined(separator: "; "))
    }

    /// A region seed's `feeds.row_counts` against the rows of each feed, one check per feed
    /// (rows whose `feed_ref` names no feed are `foreign_key_check`'s); none for one feed.
    private func feedRows(_ connection: Connection) throws -> [SeedCheck] {
        guard try connection.isRegionSeed() else { return [] }
        let counted = try connection.countFeedRows()
        return try connection.rows("SELECT name, row_counts FROM \(quoted(Schema.feedsTable)) ORDER BY id").map { row in
            let name = row[0].description, actual = counted[name] ?? [:]
            guard let recorded = row[1].text.flatMap(FeedSummary.rowCounts(json:)) else {
                return SeedCheck(
                    name: "feed_rows", passed: false,
                    detail: "row_counts is not a JSON object of table -> rows: \(row[1].description.debugDescription)",
                    feed: name)
            }
            var problems: [String] = []
            for table in Set(recorded.keys).union(actual.keys).sorted() where recorded[table] ?? 0 != actual[table] ?? 0
            {
                problems.append(
                    "\(table): row_counts says \(NumberText.grouped(Int(recorded[table] ?? 0))) rows of feed \(name), "
                        + "the seed has \(NumberText.grouped(Int(actual[table] ?? 0)))")
            }
            let total = actual.values.reduce(0, +), tables = actual.values.filter { $0 > 0 }.count
            let detail =
                problems.isEmpty
                ? """
                \(NumberText.grouped(Int(total))) rows in \(tables) table\(tables == 1 ? "" : "s"), as row_counts \
                records
                """
                : problems.joined(separator: "; ")
            return SeedCheck(name: "feed_rows", passed: problems.isEmpty, detail: detail, feed: name)
        }
    }

    private func vacuumed(_ connection: Connection) throws -> SeedCheck {
        let free = try connection.pragmaInteger("freelist_count")
        return SeedCheck(
            name: "vacuumed", passed: free == 0,
            detail: free == 0 ? "" : "\(free) free page\(free == 1 ? "" : "s"); VACUUM the seed before shipping it")
    }

    private func applicationID(_ connection: Connection) throws -> SeedCheck {
        let id = try connection.pragmaInteger("application_id")
        let expected = Int64(SeedDatabase.applicationID)
        return SeedCheck(
            name: "application_id", passed: id == expected,
            detail: id == expected
                ? "" : "application_id is \(id), not \(expected) (0x53454544, \"SEED\"): not built by seedgen")
    }

    private func versions(_ connection: Connection) throws -> SeedCheck {
        let userVersion = Int(try connection.pragmaInteger("user_version"))
        let metadata = try connection.seedMetadata()
        var problems: [String] = []
        if metadata.isEmpty { problems.append("the seedgen_metadata table is missing") }
        for key in ["schema_name", "schema_version", "seed_version", "tool_version"]
        where !metadata.isEmpty && (metadata[key] ?? "").isEmpty {
            problems.append("seedgen_metadata has no \(key)")
        }
        if let recorded = metadata["schema_version"], !recorded.isEmpty, recorded != String(userVersion) {
            problems.append(
                "PRAGMA user_version is \(userVersion) but seedgen_metadata says schema_version \(recorded)")
        }
        let expected = schema?.schemaVersion ?? schemaVersion
        if let expected, expected != userVersion {
            problems.append("the schema version is \(userVersion), expected \(expected)")
        }
        if let schema, let name = metadata["schema_name"], name != schema.name {
            problems.append("the seed was built with schema '\(name)', expected '\(schema.name)'")
        }
        let detail =
            problems.isEmpty
            ? "schema version \(userVersion), seed version \(metadata["seed_version"] ?? "?")"
            : problems.joined(separator: "; ")
        return SeedCheck(name: "versions", passed: problems.isEmpty, detail: detail)
    }

    /// Computes the content digest, every chunk hashed again, and compares it with what the seed
    /// and its manifest record, and the chunks with the seed's chunk record: a seed changed after
    /// it was built no longer matches.
    private func contentDigest(_ connection: Connection, manifest: SeedManifest?) throws -> SeedCheck {
        let tree = try ContentDigest.treeOnTwoCores(connection)
        let digest = tree.root
        var problems: [String] = []
        let hasRecord = try ContentChunkRecord.exists(connection)
        if !hasRecord {
            problems.append(
                """
                the seed has no chunk record (\(ContentChunkRecord.tableName)): built by a seedgen before the \
                chunked content digest; build it again to ship it
                """)
        }
        if let recorded = try connection.seedMetadata()[ContentDigest.metadataKey] {
            if recorded != digest && hasRecord {
                problems.append(
                    """
                    the seed records content digest \(recorded) but its content gives \(digest): it was changed \
                    after it was built
                    """
                )
            }
        } else {
            problems.append(
                """
                the seed records no content digest (built by a seedgen before content digests); build it again to \
                ship it
                """
            )
        }
        if let claimed = manifest?.contentSHA256, claimed != digest {
            problems.append("the manifest says contentSha256 \(claimed), the seed's content gives \(digest)")
        }
        if hasRecord, let difference = try ContentChunkRecord.difference(tree, connection: connection) {
            problems.append("its chunk record does not match its content: \(difference)")
        }
        return SeedCheck(
            name: "content_digest", passed: problems.isEmpty,
            detail: problems.isEmpty ? digest : problems.joined(separator: "; "))
    }

    /// Compares the seed's tables and columns with those the schema's DDL creates (in an
    /// in-memory database, so both sides are described by SQLite the same way). A region seed
    /// is compared with the schema scoped by feed (`Schema.scopedByFeed`): its `feeds` table
    /// and every `feed_ref` are what a region adds to the schema, checked as such.
    private func schemaTables(_ schema: Schema, _ connection: Connection) throws -> SeedCheck {
        let region = try connection.isRegionSeed()
        let schema = region ? schema.scopedByFeed() : schema
        let expected = try Connection(path: ":memory:")
        for statement in schema.createTableStatements { try expected.execute(statement) }
        var problems: [String] = []
        let seedTables = try connection.seedTables()
        let schemaTables = schema.tables.map(\.name)
        for table in schemaTables where !seedTables.contains(table) { problems.append("table \(table) is missing") }
        for table in seedTables where !schemaTables.contains(table) {
            // a file no table reads (`extraFiles`)
            if schema.extraFiles && table.hasPrefix(Schema.extraTablePrefix) { continue }
            problems.append("table \(table) is not in schema '\(schema.name)'")
        }
        for table in schemaTables where seedTables.contains(table) {
            let want = try expected.seedColumns(of: table)
            let have = try connection.seedColumns(of: table)
            let haveByName = Dictionary(have.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for column in want {
                guard let found = haveByName[column.name] else {
                    problems.append("\(table).\(column.name) is missing"); continue
                }
                if found.type != column.type {
                    problems.append("\(table).\(column.name) is \(found.type), expected \(column.type)")
                }
                if found.notNull != column.notNull {
                    problems.append(
                        """
                        \(table).\(column.name) is \(found.notNull ? "" : "not ")NOT NULL, expected \
                        \(column.notNull ? "" : "not ")NOT NULL
                        """
                    )
                }
            }
            let wanted = Set(want.map(\.name))
            for column in have where !wanted.contains(column.name) {
                problems.append("\(table).\(column.name) is not in the schema")
            }
        }
        let matched =
            "tables and columns match schema '\(schema.name)' v\(schema.schemaVersion)"
            + (region ? " as a region seed (feeds, feed_ref)" : "")
        return SeedCheck(
            name: "schema", passed: problems.isEmpty,
            detail: problems.isEmpty ? matched : problems.joined(separator: "; "))
    }

    /// The manifest's claims against the files: sizes, checksums, versions, row counts, and
    /// the stamp in the gzip header.
    private func manifestChecks(_ seed: SeedFile, _ connection: Connection) -> [SeedCheck] {
        var checks: [SeedCheck] = []
        let stamp: SeedStamp?
        do {
            let metadata = try connection.seedMetadata()
            stamp = metadata["seed_version"].map {
                SeedStamp(schemaVersion: Int((try? connection.pragmaInteger("user_version")) ?? 0), seedVersion: $0)
            }
        } catch {
            return [SeedCheck(name: "sqlite", passed: false, detail: "\(error)")]
        }
        if let header = seed.gzipHeader {
            let passed = header.stamp != nil && header.stamp == stamp
            let detail =
                passed
                ? header.comment ?? ""
                : """
                the gzip comment is \((header.comment ?? "missing").debugDescription), expected \
                \((stamp?.comment ?? "a seed stamp").debugDescription)
                """
            checks.append(SeedCheck(name: "gzip_stamp", passed: passed, detail: detail))
        }
        guard let manifest = seed.manifest, let manifestPath = seed.manifestPath else { return checks }
        var problems: [String] = []
        do {
            let digest = try seed.digest()
            if manifest.size != digest.size {
                problems.append("size is \(manifest.size) in the manifest, the seed has \(digest.size) bytes")
            }
            if manifest.sha256 != digest.sha256 {
                problems.append("sha256 is \(manifest.sha256) in the manifest, the seed's is \(digest.sha256)")
            }
            if let gzipPath = seed.gzipPath {
                let gzip = try SeedFile.digest(of: gzipPath)
                if manifest.gzipSize != gzip.size {
                    problems.append(
                        "gzipSize is \(manifest.gzipSize) in the manifest, the gzip file has \(gzip.size) bytes")
                }
                if manifest.gzipSha256 != gzip.sha256 {
                    problems.append(
                        "gzipSha256 is \(manifest.gzipSha256) in the manifest, the gzip file's is \(gzip.sha256)")
                }
            }
        } catch {
            problems.append(error.description)
        }
        checks.append(
            SeedCheck(
                name: "manifest_checksums", passed: problems.isEmpty,
                detail: problems.isEmpty ? manifestPath : problems.joined(separator: "; ")))

        problems = []
        if let stamp, manifest.stamp != stamp {
            problems.append("the manifest says \(manifest.stamp), the seed has \(stamp)")
        }
        if let counts = try? connection.seedRowCounts(), counts != manifest.tables {
            for name in Set(counts.keys).union(manifest.tables.keys).sorted()
            where counts[name] != manifest.tables[name] {
                problems.append(
                    """
                    \(name): \(manifest.tables[name].map(String.init) ?? "absent") rows in the manifest, \
                    \(counts[name].map(String.init) ?? "absent") in the seed
                    """
                )
            }
        }
        checks.append(
            SeedCheck(name: "manifest_contents", passed: problems.isEmpty, detail: problems.joined(separator: "; ")))
        return checks
    }
}
