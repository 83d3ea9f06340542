import SeedSystem
import Foundation

/// The `IDMap` of every table that references look up by one integer key, shared by the
/// table's writer (which records each row it inserts) and the resolvers of references to
/// it (which look keys up before trying the cache and a query). The maps themselves are used
/// on the writer thread only; handing them out is thread-safe.
final class IDMaps: @unchecked Sendable {
    // @unchecked: `maps` is behind `lock`; each IDMap is used on the writer thread only.
    /// The most keys each map keeps; 0 keeps no map.
    let capacity: Int
    /// Per mappable table, its key column's index in `Table.columns`.
    private let keyColumns: [String: Int]
    private var maps: [String: IDMap] = [:]
    private let lock = Lock()

    /// - Parameters:
    ///   - schema: the tables and the references between them.
    ///   - capacity: the most keys each table's map keeps (`BuildOptions.idMapCapacity`).
    init(schema: Schema, capacity: Int) {
        self.capacity = capacity
        var keyColumns: [String: Int] = [:]
        for table in schema.tables {
            for reference in table.references
            where reference.from.count == 1 && reference.to != table.name && reference.toColumns == nil {
                guard let target = schema.table(named: reference.to), !target.withoutRowID, target.key.count == 1,
                    let column = target.columns.firstIndex(where: { $0.name == target.key[0] }),
                    target.columns[column].type == .integer, target.columns[column].stored
                else { continue }
                keyColumns[target.name] = column
            }
        }
        self.keyColumns = capacity > 0 ? keyColumns : [:]
    }

    /// The map of `table`'s rows, or nil when no reference looks them up by one integer key
    /// (or maps are off).
    func map(for table: Table) -> IDMap? {
        guard keyColumns[table.name] != nil else { return nil }
        return lock.withLock {
            if let map = maps[table.name] { return map }
            let map = IDMap(capacity: capacity)
            maps[table.name] = map
            return map
        }
    }

    /// The index in `table.columns` of the key the map of `table` holds, when it has one.
    func keyColumn(of table: Table) -> Int? { keyColumns[table.name] }

    /// Empties the map of the table named `name`: some of its rows were deleted.
    func discard(_ name: String) { lock.withLock { maps[name] }?.discard() }

    /// Empties every map, once every row is loaded and the writer thread is gone: nothing
    /// looks a key up after the load, and the index sorts that follow need the memory (a
    /// full node map is 16 MiB: 10M OSM nodes peaked at 115 MB with the maps kept).
    func discardAll() {
        for map in lock.withLock({ Array(maps.values) }) { map.discard() }
    }
}
