import SeedSQLite

/// Turns natural keys into row ids of the target table while rows stream in: the previous
/// key first (rows come grouped), then a bounded LRU cache, then one indexed query. With
/// find-or-create, an unknown key inserts the target row.
final class ReferenceResolver {
    let reference: Reference
    let target: Table
    private let context: BuildContext
    private var cache: LRUCache<String, Int64?>
    private var lastKey: String?
    private var lastID: Int64?
    private let lookup: Statement
    private let create: Statement?
    private(set) var statistics = ReferenceStatistics()

    init(reference: Reference, target: Table, context: BuildContext) throws(SQLiteError) {
        self.reference = reference
        self.target = target
        self.context = context
        self.cache = LRUCache(capacity: context.cacheSize ?? reference.cacheSize)
        let conditions = target.key.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
        lookup = try context.database.prepare("SELECT \(quoted(target.rowID)) FROM \(quoted(target.name)) WHERE \(conditions)")
        if reference.create {
            let columns = ([target.rowID] + target.key).map(quoted).joined(separator: ", ")
            let marks = Array(repeating: "?", count: target.key.count + 1).joined(separator: ", ")
            create = try context.database.prepare("INSERT INTO \(quoted(target.name)) (\(columns)) VALUES (\(marks))")
        } else {
            create = nil
        }
    }

    /// The id of the target row whose key is `parts`, or nil when there is none.
    /// - Parameters:
    ///   - key: the key as one string (parts joined), for the cache.
    ///   - parts: the typed key values, in the target's key order.
    func resolve(key: String, parts: [Value]) throws(SQLiteError) -> Int64? {
        if key == lastKey {
            statistics.hits += 1
            return lastID
        }
        let id: Int64?
        if let cached = cache.value(for: key) {
            statistics.hits += 1
            id = cached
        } else {
            statistics.misses += 1
            try lookup.bind(parts)
            defer { lookup.reset() }
            if try lookup.step() {
                id = lookup.int64(at: 0)
            } else if let create {
                let newID = context.allocateID(in: target.name)
                try create.bind([.integer(newID)] + parts)
                defer { create.reset() }
                try create.step()
                statistics.created += 1
                id = newID
            } else {
                id = nil
            }
            cache.insert(id, for: key)
        }
        if id == nil { statistics.unresolved += 1 }
        lastKey = key
        lastID = id
        return id
    }
}
