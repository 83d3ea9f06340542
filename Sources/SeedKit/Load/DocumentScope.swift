import SeedSQLite

/// References by key where objects of several documents share the key (`RowCopies` inserts
/// another document's object of the same key and other values as an object of its own: NeTEx
/// ids are unique per document, as the XSD's keys are). Run once every input is loaded and
/// every key resolved (to the first row of its key), for the tables where keys are shared:
/// each reference goes to the object of its own document (read in it, or a copy read in it),
/// else to the one object of that key elsewhere; a reference that objects of two other
/// documents could answer is an error naming both files (`--lenient`: the first, with a
/// warning). Keys no two documents share are not looked at; memory holds the shared keys'
/// rows only. Runs on the writer thread, with its connection.
struct DocumentScope {
    let schema: Schema
    let context: BuildContext
    let connection: Connection

    /// Resolves by document every reference to the tables named in `tables`.
    func resolve(_ tables: Set<String>) throws(SQLiteError) {
        for target in schema.loadOrder where tables.contains(target.name) {
            try reportSharedKeys(of: target)
            for table in schema.loadOrder where !table.withoutRowID {
                for reference in table.references where reference.to == target.name {
                    try resolve(reference, of: table, to: target)
                }
            }
        }
    }

    /// One warning per table: how many keys objects of several documents hold.
    private func reportSharedKeys(of table: Table) throws(SQLiteError) {
        let key = table.key.map(quoted).joined(separator: ", ")
        let shown = table.key.filter { $0 != Schema.feedColumn }.map(quoted).joined(separator: " || ',' || ")
        guard
            let row = try connection.rows(
                """
                SELECT count(*), min(shown) FROM (SELECT \(shown) AS shown FROM \(quoted(table.name)) GROUP BY \(key) \
                HAVING count(*) > 1)
                """
            ).first, let count = row[0].integer, count > 0
        else { return }
        context.issues.record(
            BuildIssue(
                kind: .sharedKey, file: "table '\(table.name)'",
                field: table.key.filter { $0 != Schema.feedColumn }.joined(separator: "+"), value: row[1].description,
                message: (count == 1 ? "names" : "and \(count - 1) more \(count == 2 ? "key name" : "keys name")")
                    + """
                     objects of other values in several files: ids are unique per document, so each file's object \
                    is its own, and its file's references name it
                    """
            ))
    }

    /// An object of a shared key: its row and the documents holding it.
    private struct Object {
        var id: Int64
        var documents: Set<Int>
    }

    private func resolve(_ reference: Reference, of table: Table, to target: Table) throws(SQLiteError) {
        let columns = reference.targetColumns(in: target).map(quoted).joined(separator: ", ")
        let shared = try connection.rows(
            """
            SELECT \(quoted(target.rowID)), \(columns) FROM \(quoted(target.name))
            WHERE (\(columns)) IN (SELECT \(columns) FROM \(quoted(target.name)) GROUP BY \(columns) HAVING count(*) > \
            1)
            ORDER BY \(columns), 1
            """)
        // The rows of each key, with their documents; keys whose rows are all of one
        // document (siblings told apart by `order`) resolve as they did.
        var groups: [[Object]] = []
        var keys: [String] = []
        var lastKey: [Value]?
        let copies = try connection.prepare(
            """
            SELECT dropped FROM temp.\(quoted("seedgen_merged_\(target.name)")) WHERE kept = ? AND outcome <> \
            \(RowCopies.Outcome.rejected.rawValue)
            """
        )
        for row in shared {
            guard let id = row[0].integer else { continue }
            var documents: Set<Int> = [context.document(ofRow: id, in: target.name)]
            try copies.bind([.integer(id)])
            while try copies.step() { documents.insert(context.document(ofRow: copies.int64(at: 0), in: target.name)) }
            copies.reset()
            let key = Array(row.dropFirst())
            if key != lastKey {
                groups.append([])
                keys.append(key.map(\.description).joined(separator: ","))
                lastKey = key
            }
            groups[groups.count - 1].append(Object(id: id, documents: documents))
        }
        var groupOfRow: [Int64: Int] = [:]
        for (index, group) in groups.enumerated()
        where group.reduce(into: Set<Int>(), { $0.formUnion($1.documents) }).count > 1 {
            for object in group { groupOfRow[object.id] = index }
        }
        guard !groupOfRow.isEmpty else { return }
        // The rows naming a shared key's object, found in one pass.
        try connection.execute("CREATE TEMP TABLE IF NOT EXISTS seedgen_shared_rows (id INTEGER PRIMARY KEY)")
        try connection.execute("DELETE FROM temp.seedgen_shared_rows")
        let add = try connection.prepare("INSERT INTO temp.seedgen_shared_rows VALUES (?)")
        for id in groupOfRow.keys.sorted() {
            try add.bind([.integer(id)])
            try add.step()
            add.reset()
        }
        let column = quoted(reference.column)
        let update = try connection.prepare(
            "UPDATE \(quoted(table.name)) SET \(column) = ? WHERE \(quoted(table.rowID)) = ?")
        let rows = try connection.prepare(
            """
            SELECT t.\(quoted(table.rowID)), t.\(column) FROM \(quoted(table.name)) AS t JOIN temp.seedgen_shared_rows \
            AS s ON s.id = t.\(column) ORDER BY 1
            """)
        var changes: [(row: Int64, id: Int64)] = []
        while try rows.step() {
            let row = rows.int64(at: 0)
            guard let group = groupOfRow[rows.int64(at: 1)] else { continue }
            let document = context.document(ofRow: row, in: table.name)
            if let own = groups[group].first(where: { $0.documents.contains(document) }) {
                if own.id != rows.int64(at: 1) { changes.append((row, own.id)) }
                continue
            }
            // No object of its own document: the one object elsewhere, unless two documents'.
            let others = groups[group].map { $0.documents.min()! }
            guard let first = others.first, let second = others.first(where: { $0 != first }) else { continue }
            report(reference, of: table, row: row, document: document, key: keys[group], files: (first, second))
        }
        rows.reset()
        for change in changes {
            try update.bind([.integer(change.id), .integer(change.row)])
            try update.step()
            update.reset()
        }
    }

    /// A reference from `row` (of `document`) that objects of two other documents answer.
    private func report(
        _ reference: Reference, of table: Table, row: Int64, document: Int, key: String, files: (Int, Int)
    ) {
        var place: (file: String, line: Int)?
        if let places = context.places(of: table.name).first, places.takeLookup() { place = places.place(ofRow: row) }
        let field =
            reference.from.lazy.compactMap { table.column(named: $0) }
            .first { ![[XMLMapping.fileSource], [Schema.feedSource]].contains($0.source) }?.source.first
            ?? reference.column
        let names = (context.documentName(files.0), context.documentName(files.1))
        let message =
            "names an object of '\(reference.to)' in two other files, \(names.0) and \(names.1), and none in its own: "
                + """
                ids are unique per document, so a reference names its own document's object, else the one object of \
                that id in the export
                """
        if context.lenient {
            context.issues.record(
                BuildIssue(
                    kind: .errorKept, file: place?.file ?? context.documentName(document), line: place?.line,
                    field: field, value: key, message: message + "; the first, in \(names.0), is named"))
        } else {
            context.issues.record(
                BuildIssue(
                    kind: .ambiguousDocumentReference, file: place?.file ?? context.documentName(document),
                    line: place?.line,
                    field: field, value: key, message: message))
        }
    }
}
