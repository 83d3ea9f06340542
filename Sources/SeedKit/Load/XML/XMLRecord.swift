/// A record whose element ended, as `XMLRecordWriter` reads it: its frame and the
/// attributes of its enclosing elements, lent in place by `XMLRecordMatcher.withRecord` (a
/// copy would retain every array of the frame) and valid only during that call.
struct XMLRecord {
    private let frame: UnsafePointer<XMLRecordFrame>
    private let ancestors: UnsafePointer<XMLAncestorAttributes>

    init(frame: UnsafePointer<XMLRecordFrame>, ancestors: UnsafePointer<XMLAncestorAttributes>) {
        self.frame = frame
        self.ancestors = ancestors
    }

    /// The table (index in `XMLMapping.tables`).
    @inline(__always)
    var table: Int { frame.pointee.table }
    /// The row id allocated while the record was open (its nested records needed it), or nil.
    @inline(__always)
    var id: Int64? { frame.pointee.id }
    /// 1-based position among the records of its table in its parent (or in the file).
    @inline(__always)
    var position: Int { frame.pointee.position }
    /// Where the record's start tag ends.
    @inline(__always)
    var line: Int { frame.pointee.line }
    @inline(__always)
    var column: Int { frame.pointee.column }
    /// The local name of the record's element, as the parser interns it (NUL-terminated).
    @inline(__always)
    var name: UnsafePointer<UInt8> { frame.pointee.name! }

    /// True when the source of `slot` was found (an element or attribute was there, even empty).
    @inline(__always)
    func isPresent(_ slot: Int) -> Bool { frame.pointee.present[slot] }
    /// True when `slot` has no bytes.
    @inline(__always)
    func isEmpty(_ slot: Int) -> Bool { frame.pointee.values[slot].isEmpty }
    /// Where the value of `slot` was read.
    @inline(__always)
    func place(of slot: Int) -> (line: Int, column: Int) {
        (frame.pointee.valueLines[slot], frame.pointee.valueColumns[slot])
    }
    /// The first of `slots` that was found with a non-empty value.
    @inline(__always)
    func firstValue(_ slots: [Int]) -> Int? { frame.pointee.firstValue(slots) }

    /// Calls `body` with the bytes of `slot`.
    @inline(__always)
    func withValue<R>(_ slot: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try frame.pointee.values[slot].withUnsafeBytes(body)
    }

    /// The items of the list held in `slot` (see `XMLText.items`).
    func items(of slot: Int, separator: [UInt8]?, open: [UInt8], close: [UInt8]) -> [Range<Int>] {
        XMLText.items(of: frame.pointee.values[slot], separator: separator, open: open, close: close)
    }

    /// The enclosing element's attribute `source` reads, or nil when it is not there.
    func ancestorValue(_ source: XMLMapping.AncestorSource) -> [UInt8]? {
        ancestors.pointee.value(source, recordDepth: frame.pointee.depth)
    }
}
