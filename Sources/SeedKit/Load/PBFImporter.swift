import SeedSQLite

/// Streams one OpenStreetMap PBF file into the tables an XML mapping (the osm schema) reads
/// from OSM XML, with the same rows, ids and keys: each object's nested rows (tags, node
/// list, members) first, under the object's id, then the object's row, as `XMLImporter`
/// writes them when the elements end. Blobs are read and decoded on the calling thread, one
/// at a time (memory holds one blob); the rows go to the build's writer thread in batches, so
/// decoding the next blob overlaps inserting the last one's rows.
///
/// In messages, a value's "line" is its object's 1-based number in the file.
final class PBFImporter: PBFEntityHandler {
    let file: InputFile
    let mapping: XMLMapping
    let loaders: [TableLoader]
    let context: BuildContext
    let progress: BuildProgress?
    /// Per mapping table: whether this file feeds it (by its `.osm` name).
    private let active: [Bool]
    // The stored properties read and written for every row opt out of dynamic exclusivity
    // checks, as XMLImporter's do: the importer is used from one thread, and no access to them
    // overlaps another (the checks cost 2% of a PBF build's CPU).
    @exclusivity(unchecked) private var order: XMLWriteOrder
    @exclusivity(unchecked) private var plan: PBFTablePlan!
    private var source: MeasuredByteSource!
    @exclusivity(unchecked) private var objects = 0
    /// Per mapping table: the rows of top-level tables so far in this file (`$position`).
    @exclusivity(unchecked) private var positions: [Int]
    private let fileName: [UInt8]
    /// An `exists: true` column's values.
    private static let one = Array("1".utf8), zero = Array("0".utf8)
    /// Per mapping table and column: whether some row of this file had a value for it.
    @exclusivity(unchecked) private(set) var matchedColumns: [[Bool]]

    init(file: InputFile, mapping: XMLMapping, loaders: [TableLoader], context: BuildContext, progress: BuildProgress?)
    {
        self.file = file
        self.mapping = mapping
        self.loaders = loaders
        self.context = context
        self.progress = progress
        fileName = Array(file.name.utf8)
        active = mapping.activeTables(forFileNamed: OSMPBFFile.patternName(of: file))
        order = XMLWriteOrder(mapping: mapping, loaders: loaders, context: context)
        matchedColumns = mapping.tables.map { Array(repeating: false, count: $0.columns.count) }
        positions = Array(repeating: 0, count: mapping.tables.count)
    }

    /// Reads the file to its end; returns the input's record for the seed's metadata. A file
    /// that is not well-formed PBF (or uses what seedgen does not read) is an input error
    /// naming the blob's offset.
    func run() throws(BuildError) -> InputRecord {
        do { source = MeasuredByteSource(try file.open()) } catch { throw .input(error) }
        let tableNames = mapping.tables.indices.filter { active[$0] }.map { mapping.tables[$0].table.name }
        for (index, loader) in loaders.enumerated() where active[index] { loader.file = file.displayPath }
        let rowsBefore = loaders.reduce(0) { $0 + $1.rowCount }
        progress?.started(file: file.name, table: tableNames.joined(separator: ", "), bytes: file.size)
        do {
            plan = try PBFTablePlan(mapping: mapping, active: active)
            try readBlobs()
        } catch let error as PBFError {
            let code: InputError.Code =
                error.code == .unsupported ? .unsupported : error.code == .io ? .fileSystem : .invalidArchive
            throw .input(InputError(code: code, path: file.displayPath, message: error.description, cause: error))
        } catch let error as BuildError {
            throw error
        } catch {
            throw .seed(error)
        }
        let rows = loaders.reduce(0) { $0 + $1.rowCount } - rowsBefore
        progress?.finished(file: file.name, rows: rows)
        return InputRecord(name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: rows)
    }

    private func readBlobs() throws {
        let reader = PBFBlobReader(source: source)
        var decoder = PBFBlockDecoder()
        var first = true
        while let blob = try reader.next() {
            do {
                if first {
                    guard blob.type == "OSMHeader" else {
                        throw PBFError(.notOSM, "the first blob is '\(blob.type)', not 'OSMHeader'")
                    }
                    try reader.withData { bytes throws(PBFError) in try PBFBlockDecoder.checkHeader(bytes) }
                    first = false
                } else if blob.type == "OSMData" {
                    try reader.withData { bytes in try decoder.decode(bytes, into: self) }
                }
            } catch var error as PBFError {
                error.blobOffset = blob.offset
                throw error
            }
            progress?.advanced(rows: objects, bytes: source.bytesRead)
        }
        if first { throw PBFError(.notOSM, "an empty file, without the 'OSMHeader' blob") }
    }

    // MARK: Objects

    func handle(_ entity: PBFEntity, strings: PBFStringTable) throws {
        objects += 1
        for table in plan.tablesOfKind[entity.kind.rawValue] {
            var id: Int64?
            for (child, part) in plan.children[table] {
                let count =
                    switch part {
                    case .tags: entity.tags.count / 2
                    case .nodes: entity.refs.count
                    case .members: entity.memberRefs.count
                    }
                for item in 0..<count {
                    if id == nil { id = context.allocateID(in: mapping.tables[table].table.name) }
                    try write(child, entity, strings, part: part, item: item, parentID: id)
                }
            }
            if try !write(table, entity, strings, part: nil, item: 0, id: id), id != nil {
                // Left out: rows nested in it were written under its id (`NestedRowCleanup`).
                context.noteDroppedRow(in: mapping.tables[table].table.name)
            }
        }
    }

    /// Writes one row of `table` from `entity` (or its `item` of `part`); false when the
    /// loader skipped it (a bad value, reported).
    @discardableResult
    private func write(
        _ table: Int, _ entity: PBFEntity, _ strings: PBFStringTable, part: PBFTablePlan.Part?, item: Int,
        parentID: Int64? = nil, id: Int64? = nil
    ) throws -> Bool {
        let loader = loaders[table]
        loader.beginRow(line: objects)
        if part == nil { positions[table] += 1 }
        let value = PBFValue(part: part, item: part == nil ? positions[table] - 1 : item, fileName: fileName)
        let exists = mapping.tables[table].exists
        for (column, field) in plan.fields[table].enumerated() {
            let set = try value.set(
                field, of: entity, strings: strings, into: column, of: loader, store: !exists[column])
            if set && !matchedColumns[table][column] { matchedColumns[table][column] = true }
            if exists[column] {
                try PBFBlobReader.withBytes(of: set ? Self.one : Self.zero) { bytes throws(SQLiteError) in
                    try loader.set(column, bytes)
                }
            } else if !set {
                try loader.set(column, nil)
            }
        }
        if let parentID { loader.setParent(parentID) }
        try order.flushTargets(of: table)
        guard try loader.finishRow(id: id) != nil else { return false }
        order.rowAdded(to: table)
        return true
    }
}
