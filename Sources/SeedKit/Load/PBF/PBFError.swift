/// Why an OpenStreetMap PBF input cannot be read: a code a caller can switch on, a sentence,
/// and the byte offset of the blob (its 4-byte length prefix) where it was found, so the
/// message stands on its own (`blob at byte 1234: ...`).
struct PBFError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    enum Code: String, Sendable {
        /// The file ends inside a length prefix, a blob header or a blob.
        case truncated
        /// A length or count beyond what the format allows (a 64 KiB header, a 32 MiB blob).
        case oversize
        /// Bytes that are not the protobuf messages the format says (a varint over 64 bits,
        /// a field whose length runs past its message, arrays of different lengths).
        case malformed
        /// A string-table index past the block's table.
        case badStringIndex = "bad-string-index"
        /// A delta-coded id or coordinate that leaves the 64-bit range.
        case deltaOverflow = "delta-overflow"
        /// What the format allows but seedgen does not read: LZMA, bzip2, LZ4 or zstd blobs,
        /// a required feature other than the schema, dense nodes and historical information.
        case unsupported
        /// The file cannot be read (an I/O error).
        case io
        /// The first blob is not an `OSMHeader`: not an OSM PBF file.
        case notOSM = "not-osm"
    }

    var code: Code
    var message: String
    /// The offset in the file of the blob concerned (nil until the blob reader sets it).
    var blobOffset: Int64?

    init(_ code: Code, _ message: String, blobOffset: Int64? = nil) {
        self.code = code
        self.message = message
        self.blobOffset = blobOffset
    }

    var description: String {
        (blobOffset.map { "blob at byte \($0): " } ?? "") + message + " [pbf-\(code.rawValue)]"
    }
}
