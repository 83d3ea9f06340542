/// Recognises an OpenStreetMap PBF file (`.osm.pbf`) by its content: a 4-byte length, then a
/// `BlobHeader` whose type is `OSMHeader`, as every writer lays it out (field 1 first). The
/// schema's file patterns (`*.osm` in the osm schema) see such a file under its `.osm` name.
enum OSMPBFFile {
    /// The first bytes of a `BlobHeader` of type `OSMHeader`: field 1, length 9, the type.
    private static let headerStart: [UInt8] = [0x0A, 0x09] + Array("OSMHeader".utf8)

    /// True when `file` starts with an `OSMHeader` blob header.
    static func recognises(_ file: InputFile) -> Bool {
        guard let source = try? file.open() else { return false }
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        while bytes.count < 4 + headerStart.count, let count = try? source.read(into: buffer), count > 0 {
            bytes.append(contentsOf: buffer[0..<count])
        }
        return recognises(bytes)
    }

    /// True when `bytes` (a file's first bytes) start an OSM PBF file.
    static func recognises(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 + headerStart.count else { return false }
        let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        return length > headerStart.count && length <= 65_536
            && bytes[4..<4 + headerStart.count].elementsEqual(headerStart)
    }

    /// The name `file` is matched against the schema's file patterns by: an OSM PBF file's
    /// name without `.pbf`, ending in `.osm` (`li.osm.pbf` and `li.pbf` are `li.osm`); any
    /// other file's own name.
    static func patternName(of file: InputFile) -> String {
        guard recognises(file) else { return file.name }
        var name = file.name
        if name.lowercased().hasSuffix(".pbf") { name.removeLast(4) }
        return name.lowercased().hasSuffix(".osm") ? name : name + ".osm"
    }
}
