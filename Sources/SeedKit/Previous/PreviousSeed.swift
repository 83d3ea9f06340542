import SeedSQLite

/// The seed a build keeps ids from (`seedgen build --previous OLD.sqlite`), checked before any
/// input is read: it must be a seedgen seed built with the same schema (name, version and
/// `schema_sha256` in its `seedgen_metadata`).
struct PreviousSeed {
    let path: String
    let identity: SeedIdentity

    /// The `seedgen_metadata` key prefix of the per-table high-water marks: `max_id.<table>` is
    /// the largest id any seed of the chain has given a row of `<table>`, so an id removed two
    /// versions ago is never given again.
    static let maximumIDPrefix = "max_id."
    /// The `seedgen_metadata` key recording the previous seed's version.
    static let versionKey = "previous_seed_version"

    /// Opens `path` read-only and checks it against `schema`.
    init(path: String, schema: Schema) throws(BuildError) {
        self.path = path
        do {
            let connection = try Connection(path: ":memory:")
            try connection.attachReadOnly(path, as: "previous")
            identity = try SeedIdentity.read(connection, schema: "previous", path: path)
        } catch let error as ShipError {
            throw .output(path: path, message: "--previous: \(error.message)")
        } catch {
            throw .output(path: path, message: "--previous: cannot open the seed: \(error)")
        }
        let expected = SeedIdentity(
            schemaName: schema.name, schemaVersion: schema.schemaVersion,
            schemaSHA256: schema.sha256.isEmpty ? nil : schema.sha256, seedVersion: "", metadata: [:])
        guard identity.schemaName != nil, identity.hasSameSchema(as: expected) else {
            throw .output(
                path: path,
                message:
                    """
                    --previous: this seed was built with \(identity.schemaDescription), this build uses \
                    \(expected.schemaDescription); ids can only be kept from a seed of the same schema (build \
                    without --previous, and ship the full seed)
                    """
            )
        }
    }

    /// A region seed's feeds: name -> id (empty for a seed of one feed).
    func feedIDs() -> [String: Int64] {
        guard let connection = try? Connection(path: ":memory:"),
            (try? connection.attachReadOnly(path, as: "previous")) != nil,
            let rows = try? connection.rows("SELECT name, id FROM previous.\(quoted(Schema.feedsTable))")
        else { return [:] }
        return Dictionary(
            rows.compactMap { row in row[0].text.flatMap { name in row[1].integer.map { (name, $0) } } },
            uniquingKeysWith: { first, _ in first })
    }

    /// The high-water mark the previous seed recorded for `table`, if any.
    func recordedMaximumID(_ table: String) -> Int64? {
        identity.metadata[Self.maximumIDPrefix + table].flatMap { Int64($0) }
    }
}
