import SeedSQLite

/// What a seed says it is, read from a database attached to a connection: its schema (name,
/// version, digest) and its seed version, from `PRAGMA user_version` and `seedgen_metadata`.
/// Deltas and `--previous` need two seeds of the same schema; this is what they compare.
package struct SeedIdentity: Equatable {
    package var schemaName: String?
    package var schemaVersion: Int
    /// `schema_sha256`: the digest of the schema file the seed was built with.
    var schemaSHA256: String?
    package var seedVersion: String
    /// The whole of `seedgen_metadata`.
    package var metadata: [String: String]

    /// Reads the identity of the database attached as `schema`; refuses a file that is not a seed.
    /// - Parameter path: the seed's path, for messages.
    package static func read(_ connection: Connection, schema: String, path: String) throws(ShipError) -> SeedIdentity {
        do {
            let applicationID = try connection.scalar("PRAGMA \(quoted(schema)).application_id")?.integer ?? 0
            guard applicationID == Int64(SeedDatabase.applicationID) else {
                throw ShipError(
                    code: .notASeed, path: path,
                    message:
                        """
                        is not a seedgen seed (application_id is 0x\(String(applicationID, radix: 16)), not \
                        0x53454544 \"SEED\")
                        """
                )
            }
            let hasMetadata =
                try connection.scalar(
                    """
                    SELECT count(*) FROM \(quoted(schema)).sqlite_schema WHERE type = 'table' AND name = \
                    'seedgen_metadata'
                    """
                )?.integer ?? 0
            guard hasMetadata == 1 else {
                throw ShipError(
                    code: .notASeed, path: path, message: "is not a seedgen seed (it has no seedgen_metadata table)")
            }
            var metadata: [String: String] = [:]
            for row in try connection.rows("SELECT key, value FROM \(quoted(schema)).seedgen_metadata") {
                if let key = row[0].text { metadata[key] = row[1].description }
            }
            guard let seedVersion = metadata["seed_version"] else {
                throw ShipError(
                    code: .notASeed, path: path, message: "is not a seedgen seed (seedgen_metadata has no seed_version)"
                )
            }
            let userVersion = Int(try connection.scalar("PRAGMA \(quoted(schema)).user_version")?.integer ?? 0)
            return SeedIdentity(
                schemaName: metadata["schema_name"], schemaVersion: userVersion,
                schemaSHA256: metadata["schema_sha256"], seedVersion: seedVersion, metadata: metadata)
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(code: .notASeed, path: path, message: "cannot be read as a seed: \(error)", cause: error)
        }
    }

    /// The schema as one phrase: `schema 'transit' version 2 (schema_sha256 5f1e…)`.
    package var schemaDescription: String {
        var text = "schema " + (schemaName.map { "'\($0)' " } ?? "") + "version \(schemaVersion)"
        if let schemaSHA256 { text += " (schema_sha256 \(schemaSHA256.prefix(12))…)" }
        return text
    }

    /// True when both seeds were built with the same schema: same name, version and digest
    /// (a digest or name only one of them records is not compared).
    package func hasSameSchema(as other: SeedIdentity) -> Bool {
        schemaVersion == other.schemaVersion
            && (schemaName == nil || other.schemaName == nil || schemaName == other.schemaName)
            && (schemaSHA256 == nil || other.schemaSHA256 == nil || schemaSHA256 == other.schemaSHA256)
    }
}
