/// An element open while a file is read: its name (as a number of `XMLMapping.localNames`,
/// or -1) and the parser's interned name, namespace and prefix.
struct XMLOpenElement {
    var local: Int
    var name: UnsafePointer<UInt8>
    var namespace: UnsafePointer<UInt8>?
    var prefix: UnsafePointer<UInt8>?
}

/// Where in one file the records of each table were found: per table and element
/// alternative, the distinct paths of their elements with a count each. A table whose
/// `element: artists/artist` (nested in `release`) matches both `release/artists/artist` and
/// `release/tracklist/track/artists/artist` reads more than was meant, silently: the mapping
/// check names each path (`MappingCheck`).
///
/// A path runs from the enclosing record's element (a nested table's parent) or from the
/// root, down to the record's element. Counting compares interned name pointers with the
/// table's first path: a few comparisons per record, no allocation.
struct XMLRecordPaths {
    /// One distinct path: its elements' interned names and namespaces, as written, and how
    /// many records were found at it.
    struct Path {
        var names: [UnsafePointer<UInt8>]
        var namespaces: [UnsafePointer<UInt8>?]
        var written: String
        var count: Int
    }

    /// The most distinct paths kept per table and alternative; records at others are
    /// counted in `others`.
    static let limit = 8

    /// Per table, per element alternative: the paths found, in the order first seen.
    private(set) var paths: [[[Path]]]
    /// Per table, per element alternative: records found at paths beyond `limit`.
    private(set) var others: [[Int]]

    init(mapping: XMLMapping) {
        paths = mapping.tables.map { Array(repeating: [], count: 1 + $0.otherPatterns.count) }
        others = mapping.tables.map { Array(repeating: 0, count: 1 + $0.otherPatterns.count) }
    }

    /// Counts a record of `table` matched by its element alternative `alternative`, whose
    /// path is `elements[start...]` (the last is the record's element); `written` gives the
    /// path's text, asked only for a new path.
    @inline(__always)
    mutating func count(
        table: Int, alternative: Int, elements: UnsafeBufferPointer<XMLOpenElement>, start: Int,
        written: () -> String
    ) {
        let known = paths[table][alternative].count
        for index in 0..<known where Self.same(paths[table][alternative][index], elements, start) {
            paths[table][alternative][index].count += 1
            return
        }
        guard known < Self.limit else {
            others[table][alternative] += 1
            return
        }
        let slice = elements[start...]
        paths[table][alternative].append(
            Path(names: slice.map(\.name), namespaces: slice.map(\.namespace), written: written(), count: 1))
    }

    @inline(__always)
    private static func same(_ path: Path, _ elements: UnsafeBufferPointer<XMLOpenElement>, _ start: Int) -> Bool {
        guard path.names.count == elements.count - start else { return false }
        return path.names.withUnsafeBufferPointer { names in
            for offset in 0..<names.count {
                let element = elements[start + offset]
                guard element.name == names[offset], element.namespace == path.namespaces[offset] else { return false }
            }
            return true
        }
    }
}
