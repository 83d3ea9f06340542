extension Schema {
    /// The table of a region seed's feeds (`seedgen build A.zip B.zip`).
    public static let feedsTable = "feeds"
    /// The column of every row of a region seed that names its feed (`feeds.id`).
    public static let feedColumn = "feed_ref"
    /// The source of `feed_ref`: the id of the feed the row is read from.
    static let feedSource = "$feed"

    /// The schema of a seed that holds several feeds, each feed's ids its own:
    ///
    /// - a `feeds` table first: each feed's `name` (its key), `source`, what its `feed_info`
    ///   says, its validity (`start_date`, `end_date`) and `row_counts` (JSON, table -> rows);
    /// - in every table read from the inputs or derived, a first column `feed_ref` (the feed's
    ///   id, a foreign key of `feeds`);
    /// - every natural key scoped by it (`(feed_ref, stop_id)`), unless a reference already
    ///   scopes it (`stop_times (trip_ref, stop_sequence)`), and so every unique index;
    /// - every reference resolved within its feed (`from` begins with `feed_ref`);
    /// - boxes of a spatial index grouped per feed; derived rows derived per feed (see
    ///   `DeriveStage`).
    ///
    /// A seed of one feed keeps the schema as it is: the same bytes as before.
    /// A schema that has a table `feeds` already is returned as it is (it is scoped, or names
    /// clash: `SeedBuilder` refuses such a schema for several feeds).
    public func scopedByFeed() -> Schema {
        guard table(named: Self.feedsTable) == nil else { return self }
        var scoped = self
        let feedRef = Self.feedColumn
        var prefixed = Set<String>()
        scoped.tables = tables.map { table in
            guard
                table.file != nil || table.element != nil || table.parent != nil || table.list != nil
                    || table.derive != nil
            else { return table }
            var table = table
            var column = Column(name: feedRef, type: .integer, source: [Self.feedSource], required: true)
            column.foreignKey = Self.feedsTable
            table.columns.insert(column, at: 0)
            let scopedAlready = table.key.contains { name in
                table.references.contains { $0.column == name } || table.parent?.column == name
            }
            if !table.key.isEmpty && !scopedAlready {
                table.key.insert(feedRef, at: 0)
                prefixed.insert(table.name)
                for index in table.indexes.indices where table.indexes[index].unique {
                    table.indexes[index].columns.insert(feedRef, at: 0)
                }
            }
            if table.spatial?.groupBy != nil { table.spatial?.scope = [feedRef] }
            return table
        }
        for index in scoped.tables.indices {
            for r in scoped.tables[index].references.indices {
                let reference = scoped.tables[index].references[r]
                guard prefixed.contains(reference.to), !reference.from.contains(feedRef) else { continue }
                scoped.tables[index].references[r].from.insert(feedRef, at: 0)
                if let columns = reference.toColumns {
                    scoped.tables[index].references[r].toColumns = [feedRef] + columns
                }
            }
        }
        scoped.tables.insert(Self.feedsTableDefinition, at: 0)
        return scoped
    }

    /// `feeds`: one row per feed, written by the build (`FeedsStage`), not read from a file.
    static var feedsTableDefinition: Table {
        Table(
            name: feedsTable, key: ["name"],
            columns: [
                Column(name: "name", required: true),
                Column(name: "source", required: true),
                Column(name: "feed_publisher_name"),
                Column(name: "feed_version"),
                Column(name: "start_date", type: .date),
                Column(name: "end_date", type: .date),
                Column(name: "row_counts", required: true)
            ])
    }
}
