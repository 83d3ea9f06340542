import SeedArchive
import SeedInstaller
import SeedSystem

/// Reads, straight from a seed file, the form each row of a table is stored in: its key and
/// the number of columns its record holds, in b-tree order (SQLite's file format, sections
/// 1.6 and 2.1: the b-tree pages of the table, their cells, each record's header).
///
/// SQLite keeps the column count a record was written with: rows loaded before an
/// `ALTER TABLE ADD COLUMN` hold fewer columns than the table has (the missing ones read as
/// their default), while `INSERT` and `UPDATE` write every column. SQL cannot see it (without
/// `sqlite_offset` or `sqlite_dbpage`, which system SQLites often lack), yet `VACUUM` copies
/// records as they are, so a delta that must give a seed byte for byte has to know it
/// (`TableComparison`).
///
/// The file is trusted no more than any input: every page number, offset, count and length is
/// checked before it is used, each page is read at most once per scan (a cycle is corruption),
/// and the depth is bounded. Memory: one page per level of the b-tree, and a record's header
/// and key. Reading is `pread` of whole pages; nothing is written.
final class RecordFormReader {
    /// One row's stored form.
    struct Form: Equatable {
        /// The rowid for a rowid table, else the primary key's values (a `WITHOUT ROWID`
        /// table's record holds its key columns first).
        var key: [DeltaValue]
        /// The number of columns the record holds.
        var columnCount: Int
    }

    let path: String
    private let file: FileDescriptor
    let pageSize: Int
    /// The bytes of a page that cells use (the page size less the reserved bytes).
    let usableSize: Int
    let pageCount: Int

    /// The deepest b-tree read: SQLite's own trees stay under 20 levels for any file size.
    static let maximumDepth = 40
    /// The longest record header read: 32,767 columns (SQLite's hard limit) of 9 bytes each.
    static let maximumHeaderBytes = 32_767 * 9 + 9

    /// Opens the seed at `path` and reads its header.
    init(path: String) throws(ShipError) {
        self.path = path
        do {
            file = try FileSystem.openForReading(path)
            let size = try file.status().size
            let header = try file.readBytes(100, at: 0)
            guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
                throw ShipError(path: path, message: "is not an SQLite database")
            }
            let rawPageSize = Int(header[16]) << 8 | Int(header[17])
            pageSize = rawPageSize == 1 ? 65536 : rawPageSize
            guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
                throw ShipError(path: path, message: "has an invalid page size \(rawPageSize) in its header")
            }
            usableSize = pageSize - Int(header[20])
            guard usableSize >= 480 else {
                throw ShipError(path: path, message: "reserves \(header[20]) bytes of each \(pageSize)-byte page: too many")
            }
            let logSize = try FileSystem.openIfExists(path + "-wal")?.status().size ?? 0
            guard header[18] == 1 || header[19] == 1 || logSize == 0 else {
                throw ShipError(path: path, message: "has a write-ahead log (\(path)-wal) with changes not in the file: checkpoint it first")
            }
            guard header[56..<60].elementsEqual([0, 0, 0, 1]) else {
                throw ShipError(path: path, message: "stores text in UTF-16: seeds store it in UTF-8")
            }
            pageCount = Int(size / Int64(pageSize))
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(path: path, message: "cannot read the file: \(error)")
        }
    }

    /// The rows of the b-tree rooted at `rootPage`, in key order.
    /// - Parameters:
    ///   - table: the table's name, for errors.
    ///   - isRowID: true for a rowid table (a table b-tree), false for a `WITHOUT ROWID` one
    ///     (an index b-tree whose records start with the `keyCount` key columns).
    func forms(rootPage: Int, table: String, isRowID: Bool, keyCount: Int) -> Cursor {
        Cursor(reader: self, table: table, rootPage: rootPage, isRowID: isRowID, keyCount: isRowID ? 0 : keyCount)
    }

    /// Walks one b-tree in order; ``next()`` gives each row's form.
    struct Cursor {
        let reader: RecordFormReader
        let table: String
        let isRowID: Bool
        let keyCount: Int
        private var stack: [Frame] = []
        private var visited: [UInt64]
        private var root: Int?

        /// A page on the way down: its bytes, where its header starts, and how far it is read.
        private struct Frame {
            var number: Int
            var bytes: [UInt8]
            var header: Int
            var isLeaf: Bool
            var cellCount: Int
            /// The next cell (or, for an interior page, child; `cellCount` is the right-most).
            var next = 0
            /// An interior page of an index b-tree: its cell `next - 1` is a row, given after
            /// the child before it.
            var pendingRow = false
        }

        fileprivate init(reader: RecordFormReader, table: String, rootPage: Int, isRowID: Bool, keyCount: Int) {
            self.reader = reader
            self.table = table
            self.isRowID = isRowID
            self.keyCount = keyCount
            visited = Array(repeating: 0, count: reader.pageCount / 64 + 1)
            root = rootPage
        }

        /// The next row's form in key order; nil after the last.
        mutating func next() throws(ShipError) -> Form? {
            if let root {
                self.root = nil
                try push(root)
            }
            while let top = stack.indices.last {
                let frame = stack[top]
                if frame.isLeaf {
                    guard frame.next < frame.cellCount else {
                        stack.removeLast()
                        continue
                    }
                    stack[top].next += 1
                    return try form(frame, cell: frame.next)
                }
                if frame.pendingRow {
                    stack[top].pendingRow = false
                    return try form(frame, cell: frame.next - 1)
                }
                if frame.next < frame.cellCount {
                    let child = try leftChild(frame, at: try cellOffset(frame, frame.next))
                    stack[top].next += 1
                    stack[top].pendingRow = !isRowID
                    try push(child)
                } else if frame.next == frame.cellCount {
                    stack[top].next += 1
                    try push(Int(Self.bigEndian32(frame.bytes, frame.header + 8)))
                } else {
                    stack.removeLast()
                }
            }
            return nil
        }

        /// The column count of the row with `key`: the next rows in order are read up to it
        /// (rows before it are skipped: the caller asks for keys in ascending order).
        /// - Throws: when no row further on has the key: the rows were asked for out of the
        ///   b-tree's order.
        mutating func columnCount(of key: [DeltaValue]) throws(ShipError) -> Int {
            while let form = try next() {
                if Self.sameKey(form.key, key) { return form.columnCount }
            }
            throw ShipError(path: reader.path, message: "table '\(table)': no row with the key \(DeltaTableEditor.describe(key)) further on in its b-tree (the rows of its key order are not those of the file)")
        }

        /// Key equality as stored: a column with REAL affinity may store a whole number as an
        /// integer, which SQL reads as a real.
        static func sameKey(_ stored: [DeltaValue], _ read: [DeltaValue]) -> Bool {
            stored.count == read.count && zip(stored, read).allSatisfy { pair in
                if case .integer(let number) = pair.0, case .real(let real) = pair.1 { return Double(number) == real }
                return pair.0 == pair.1
            }
        }

        private mutating func push(_ number: Int) throws(ShipError) {
            guard stack.count < RecordFormReader.maximumDepth else { throw corrupt(number, "the b-tree is more than \(RecordFormReader.maximumDepth) levels deep") }
            guard number >= 1, number <= reader.pageCount else { throw corrupt(stack.last?.number ?? number, "it points to page \(number), past the file's \(reader.pageCount) pages") }
            guard visited[(number - 1) / 64] & (1 << UInt64((number - 1) % 64)) == 0 else { throw corrupt(number, "the page is reached twice") }
            visited[(number - 1) / 64] |= 1 << UInt64((number - 1) % 64)
            let bytes = try reader.page(number)
            let header = number == 1 ? 100 : 0
            let kind = bytes[header]
            let (leaf, interior): (UInt8, UInt8) = isRowID ? (13, 5) : (10, 2)
            guard kind == leaf || kind == interior else {
                throw corrupt(number, "page type \(kind) is not a \(isRowID ? "table" : "index") b-tree page")
            }
            let isLeaf = kind == leaf
            let cellCount = Int(bytes[header + 3]) << 8 | Int(bytes[header + 4])
            let pointers = header + (isLeaf ? 8 : 12)
            guard pointers + 2 * cellCount <= reader.usableSize else { throw corrupt(number, "\(cellCount) cells do not fit the page") }
            stack.append(Frame(number: number, bytes: bytes, header: header, isLeaf: isLeaf, cellCount: cellCount))
        }

        /// Where cell `index` of the page starts (from the cell pointer array).
        private func cellOffset(_ frame: Frame, _ index: Int) throws(ShipError) -> Int {
            let pointers = frame.header + (frame.isLeaf ? 8 : 12), pointer = pointers + 2 * index
            let offset = Int(frame.bytes[pointer]) << 8 | Int(frame.bytes[pointer + 1])
            guard offset >= pointers + 2 * frame.cellCount, offset < reader.usableSize else { throw corrupt(frame.number, "cell \(index) starts at \(offset), outside the page's cells") }
            return offset
        }

        private func leftChild(_ frame: Frame, at offset: Int) throws(ShipError) -> Int {
            guard offset + 4 <= reader.usableSize else { throw corrupt(frame.number, "a cell runs past the page") }
            return Int(Self.bigEndian32(frame.bytes, offset))
        }

        /// The form of the row in cell `index` of a leaf, or of an index b-tree's interior page.
        private func form(_ frame: Frame, cell index: Int) throws(ShipError) -> Form {
            var offset = try cellOffset(frame, index)
            if !frame.isLeaf { offset += 4 }
            let payloadSize = try varint(frame, &offset)
            var rowid: Int64 = 0
            if isRowID { rowid = Int64(bitPattern: try varint(frame, &offset)) }
            let usable = reader.usableSize
            // Section 1.6: how much of the payload the page holds; the rest is in overflow pages.
            let maximumLocal = isRowID ? usable - 35 : (usable - 12) * 64 / 255 - 23
            let minimumLocal = (usable - 12) * 32 / 255 - 23
            guard payloadSize <= UInt64(reader.pageCount) * UInt64(usable) else {
                throw corrupt(frame.number, "a record of \(payloadSize) bytes is larger than the file")
            }
            let size = Int(payloadSize)
            var local = size
            if size > maximumLocal {
                let surplus = minimumLocal + (size - minimumLocal) % (usable - 4)
                local = surplus <= maximumLocal ? surplus : minimumLocal
            }
            guard offset + local + (local < size ? 4 : 0) <= usable else { throw corrupt(frame.number, "a record runs past the page") }
            let overflow = local < size ? Int(Self.bigEndian32(frame.bytes, offset + local)) : 0
            var payload = Payload(reader: reader, table: table, page: frame.number, local: frame.bytes[offset..<offset + local], overflow: overflow, size: size)

            var position = 0
            let headerSize = try payload.varint(&position)
            guard headerSize >= UInt64(position), headerSize <= UInt64(min(size, RecordFormReader.maximumHeaderBytes)) else {
                throw corrupt(frame.number, "a record's header of \(headerSize) bytes does not fit its \(size) bytes")
            }
            var serialTypes: [UInt64] = []
            var columnCount = 0
            while position < Int(headerSize) {
                let type = try payload.varint(&position)
                if columnCount < keyCount { serialTypes.append(type) }
                columnCount += 1
            }
            guard position == Int(headerSize) else { throw corrupt(frame.number, "a record's header ends inside a column's type") }
            if isRowID { return Form(key: [.integer(rowid)], columnCount: columnCount) }
            guard serialTypes.count == keyCount else { throw corrupt(frame.number, "a record holds \(columnCount) columns, fewer than the \(keyCount) of its key") }
            var key: [DeltaValue] = []
            for type in serialTypes {
                guard let length = Self.length(of: type) else { throw corrupt(frame.number, "a record has the reserved column type \(type)") }
                guard length <= size - position else { throw corrupt(frame.number, "a record's values run past its \(size) bytes") }
                key.append(Self.value(of: type, try payload.bytes(position, length)))
                position += length
            }
            return Form(key: key, columnCount: columnCount)
        }

        private func varint(_ frame: Frame, _ offset: inout Int) throws(ShipError) -> UInt64 {
            guard let value = RecordFormReader.varint(frame.bytes[..<reader.usableSize], &offset) else {
                throw corrupt(frame.number, "a cell runs past the page")
            }
            return value
        }

        private func corrupt(_ page: Int, _ what: String) -> ShipError {
            reader.corrupt(table, page, what)
        }

        static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }

        /// The number of bytes a value of serial type `type` holds (nil: a reserved type).
        static func length(of type: UInt64) -> Int? {
            switch type {
            case 0, 8, 9: return 0
            case 1, 2, 3, 4: return Int(type)
            case 5: return 6
            case 6, 7: return 8
            case 10, 11: return nil
            default: return Int((type - 12) / 2)
            }
        }

        /// The value of serial type `type` held in `bytes` (of its length).
        static func value(of type: UInt64, _ bytes: [UInt8]) -> DeltaValue {
            switch type {
            case 0: return .null
            case 8: return .integer(0)
            case 9: return .integer(1)
            case 7: return .real(Double(bitPattern: bytes.reduce(0) { $0 << 8 | UInt64($1) }))
            case 1...6:
                // Big-endian two's complement, sign-extended from its length.
                let unsigned = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let shift = UInt64(64 - 8 * bytes.count)
                return .integer(Int64(bitPattern: unsigned << shift) >> Int64(shift))
            default:
                return type % 2 == 0 ? .blob(bytes) : .text(bytes)
            }
        }
    }

    /// A record's payload: the part in its page, then its chain of overflow pages, read as far
    /// as asked.
    private struct Payload {
        let reader: RecordFormReader
        let table: String
        let page: Int
        var bytes: [UInt8]
        var overflow: Int
        let size: Int
        var overflowPagesRead = 0

        init(reader: RecordFormReader, table: String, page: Int, local: ArraySlice<UInt8>, overflow: Int, size: Int) {
            self.reader = reader
            self.table = table
            self.page = page
            self.bytes = Array(local)
            self.overflow = overflow
            self.size = size
        }

        /// Reads overflow pages until `count` bytes (at most the payload's size) are in hand.
        mutating func load(_ count: Int) throws(ShipError) {
            while bytes.count < min(count, size) {
                guard overflow >= 1, overflow <= reader.pageCount, overflowPagesRead < reader.pageCount else {
                    throw reader.corrupt(table, page, "a record's overflow chain is broken (page \(overflow))")
                }
                let next = try reader.page(overflow)
                overflowPagesRead += 1
                overflow = Int(Cursor.bigEndian32(next, 0))
                bytes += next[4..<min(reader.usableSize, 4 + size - bytes.count)]
            }
        }

        mutating func varint(_ position: inout Int) throws(ShipError) -> UInt64 {
            try load(position + 9)
            guard let value = RecordFormReader.varint(bytes[...], &position) else {
                throw reader.corrupt(table, page, "a record's header runs past the record")
            }
            return value
        }

        mutating func bytes(_ position: Int, _ length: Int) throws(ShipError) -> [UInt8] {
            try load(position + length)
            guard position + length <= bytes.count else { throw reader.corrupt(table, page, "a record's values run past the record") }
            return Array(bytes[position..<position + length])
        }
    }

    /// The error for a damaged b-tree: the file, the table and the page.
    fileprivate func corrupt(_ table: String, _ page: Int, _ what: String) -> ShipError {
        ShipError(path: path, message: "table '\(table)', page \(page): \(what): the file is damaged")
    }

    /// Page `number` (1-based), whole.
    fileprivate func page(_ number: Int) throws(ShipError) -> [UInt8] {
        do {
            let bytes = try file.readBytes(pageSize, at: Int64(number - 1) * Int64(pageSize))
            guard bytes.count == pageSize else { throw ShipError(path: path, message: "page \(number) is cut short: the file is damaged") }
            return bytes
        } catch let error as ShipError {
            throw error
        } catch {
            throw ShipError(path: path, message: "cannot read page \(number): \(error)")
        }
    }

    /// SQLite's variable-length integer at `offset` (1 to 9 bytes, big-endian, 7 bits a byte but
    /// the ninth's 8), advancing `offset`; nil when it runs past `bytes`.
    static func varint(_ bytes: ArraySlice<UInt8>, _ offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset < bytes.endIndex, offset >= bytes.startIndex else { return nil }
            let byte = bytes[offset]
            offset += 1
            if index == 8 { return value << 8 | UInt64(byte) }
            value = value << 7 | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 { return value }
        }
        return value
    }
}
