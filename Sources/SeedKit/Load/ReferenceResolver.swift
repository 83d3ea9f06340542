import Foundation
import SeedSQLite

/// Turns natural keys into row ids of the target table while rows stream in: the previous
/// row's key first (rows come grouped), then the target's `IDMap` (integer keys that arrive
/// in ascending order), then a bounded LRU cache (sharing the build's
/// `ReferenceCacheBudget` with the other references), then one indexed query.
/// With find-or-create, an unknown key inserts the target row (with the `fill` columns).
/// Runs on the writer thread.
final class ReferenceResolver {
    /// What a lookup found.
    enum Resolution: Equatable {
        /// The key is empty: no reference.
        case none
        case found(Int64)
        /// No row has this key (shown as text).
        case missing(String)
    }

    let reference: Reference
    let target: Table
    private let context: BuildContext
    private let idMap: IDMap?
    // Used from the writer thread only, once per reference per row: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var cache: LRUCache<String, Int64?>
    @exclusivity(unchecked) private var lastKey: [UInt8] = []
    @exclusivity(unchecked) private var lastTag: UInt8 = 0xFF
    @exclusivity(unchecked) private var lastID: Int64?
    private let lookup: Statement
    private let create: Statement?
    /// Find-or-create: the columns of the referencing row that fill the created row's other
    /// columns (`Reference.fill`, in target column order).
    private let fillColumns: [Int]
    @exclusivity(unchecked) private(set) var statistics = ReferenceStatistics()

    /// - Parameters:
    ///   - table: the referencing table (its columns feed `Reference.fill`).
    ///   - connection: the writer's connection (this runs on its thread).
    init(
        reference: Reference, table: Table, target: Table, context: BuildContext, connection: Connection
    ) throws(SQLiteError) {
        self.reference = reference
        self.target = target
        self.context = context
        self.cache = LRUCache(capacity: context.cacheSize ?? reference.cacheSize, budget: context.referenceCacheBudget)
        // The id maps hold the target's key: only a reference matching the key reads them.
        idMap = reference.from.count == 1 && reference.toColumns == nil ? context.idMaps.map(for: target) : nil
        let matched = reference.targetColumns(in: target)
        let conditions = matched.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
        // The first row when the columns are the first of the target's key (several may match).
        let first = reference.matchesKeyPrefix(of: target) || target.duplicates == .merge ? " ORDER BY 1 LIMIT 1" : ""
        lookup = try connection.prepare(
            "SELECT \(quoted(target.rowID)) FROM \(quoted(target.name)) WHERE \(conditions)\(first)")
        let fill = reference.fill.sorted { $0.key < $1.key }
        fillColumns = fill.map { item in table.columns.firstIndex { $0.name == item.value }! }
        if reference.create {
            let columns = ([target.rowID] + matched + fill.map(\.key)).map(quoted).joined(separator: ", ")
            let marks = Array(repeating: "?", count: matched.count + fill.count + 1).joined(separator: ", ")
            create = try connection.prepare("INSERT INTO \(quoted(target.name)) (\(columns)) VALUES (\(marks))")
        } else {
            create = nil
        }
    }

    deinit { cache.budget?.giveBack(cache.count) }

    /// Resolves the key held in `columns` of `row` of `batch`.
    func resolve(batch: RowBatch, row: Int, columns: [Int]) throws(SQLiteError) -> Resolution {
        if columns.count == 1 {
            let cell = batch.cell(row, columns[0])
            let tag = batch.tags[cell]
            if tag == RowBatch.Tag.null.rawValue { return .none }
            // Rows come grouped (stop_times by trip): compare the raw key with the last one.
            if tag == lastTag && sameAsLast(batch, cell, tag) {
                statistics.hits += 1
                return lastID.map(Resolution.found) ?? .missing(batch.messageText(cell))
            }
            if tag == RowBatch.Tag.integer.rawValue, let id = idMap?.id(for: batch.words[cell]) {
                statistics.hits += 1
                remember(batch, cell, tag, id)
                return .found(id)
            }
            let value = Self.value(batch, cell)
            let id = try resolve(key: value.description, parts: [value], batch: batch, row: row)
            remember(batch, cell, tag, id)
            return id.map(Resolution.found) ?? .missing(value.description)
        }
        var parts: [Value] = []
        for column in columns {
            let cell = batch.cell(row, column)
            if batch.tags[cell] == RowBatch.Tag.null.rawValue { return .none }
            parts.append(Self.value(batch, cell))
        }
        let key = parts.map(\.description).joined(separator: "\u{1F}")
        lastTag = 0xFF
        return try resolve(key: key, parts: parts, batch: batch, row: row).map(Resolution.found)
            ?? .missing(parts.map(\.description).joined(separator: ","))
    }

    private func sameAsLast(_ batch: RowBatch, _ cell: Int, _ tag: UInt8) -> Bool {
        if tag == RowBatch.Tag.text.rawValue {
            let text = batch.text(cell)
            guard text.count == lastKey.count else { return false }
            return lastKey.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }
                || text.count == 0
        }
        return lastKey.count == 8 && lastKey.withUnsafeBytes { $0.load(as: Int64.self) } == batch.words[cell]
    }

    private func remember(_ batch: RowBatch, _ cell: Int, _ tag: UInt8, _ id: Int64?) {
        lastTag = tag
        lastID = id
        if tag == RowBatch.Tag.text.rawValue {
            lastKey.removeAll(keepingCapacity: true)
            lastKey.append(contentsOf: batch.text(cell))
        } else {
            lastKey = withUnsafeBytes(of: batch.words[cell]) { Array($0) }
        }
    }

    static func value(_ batch: RowBatch, _ cell: Int) -> Value {
        switch batch.tags[cell] {
        case RowBatch.Tag.integer.rawValue: return .integer(batch.words[cell])
        case RowBatch.Tag.real.rawValue: return .real(Double(bitPattern: UInt64(bitPattern: batch.words[cell])))
        case RowBatch.Tag.text.rawValue: return .text(String(decoding: batch.text(cell), as: UTF8.self))
        default: return .null
        }
    }

    /// The id of the target row whose key is `parts`, or nil when there is none; a created
    /// row gets the `fill` values of `row` of `batch` in its other columns.
    private func resolve(key: String, parts: [Value], batch: RowBatch, row: Int) throws(SQLiteError) -> Int64? {
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
                try create.bind([.integer(newID)] + parts + fillColumns.map { Self.value(batch, batch.cell(row, $0)) })
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
        return id
    }
}
