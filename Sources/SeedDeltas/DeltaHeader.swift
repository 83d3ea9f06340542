import SeedArchive
import SeedSystem

/// The header of a seed delta file (`seedgen delta`): which seed it turns into which.
///
/// A delta file is this header, in text, followed by a gzip stream (the body, see
/// ``DeltaRecord``). The header is a few lines of `key=value` after the magic line and ends
/// with an empty line:
///
/// ```
/// seedgen-delta 2
/// schema-name=transit
/// schema-version=2
/// from-seed-version=5c1e0d3b2a7f9e41
/// from-content-sha256=3f2a...
/// from-size=96468992
/// to-seed-version=0b9d22e8c4a1f3d7
/// to-content-sha256=91c0...
/// to-size=96501760
/// sqlite-version=3.40.1
/// tool-version=0.9.0
///
/// ```
///
/// Seeds are named by their content digest (``ContentDigest``), not by their files' bytes: the
/// installer applies a delta with the device's own SQLite, whose page layout may differ from
/// the builder's, and proves the result by its digest. Format 1 (seedgen before content
/// digests) named seeds by their files' SHA-256; this code refuses it, saying to install the
/// full seed.
///
/// It is text so that `head` shows what a delta is for, and it is at most
/// ``maximumLength`` bytes so that an installer recognises a delta and reads its header from
/// the first bytes of the file, as it does a seed's gzip stamp. Unknown keys are ignored, so
/// later writers can add some; the required keys are those of the properties below that are
/// not optional.
public struct DeltaHeader: Equatable, Sendable {
    /// One side of the delta: the seed it applies to, or the seed it produces.
    public struct Seed: Equatable, Sendable {
        /// `seed_version` in the seed's `seedgen_metadata`.
        public var seedVersion: String
        /// The seed's content digest (``ContentDigest``), 64 lower-case hexadecimal digits.
        public var contentSHA256: String
        /// The size in bytes of the seed file as built: a bound for the body's size and the
        /// space a patch needs (a seed patched on a device may have another size).
        public var size: Int64

        public init(seedVersion: String, contentSHA256: String, size: Int64) {
            self.seedVersion = seedVersion
            self.contentSHA256 = contentSHA256
            self.size = size
        }
    }

    /// The schema's name (`seedgen_metadata.schema_name`), when known.
    public var schemaName: String?
    /// The schema version of both seeds (`PRAGMA user_version`): a delta never changes it.
    public var schemaVersion: Int
    /// The seed the delta applies to, exactly.
    public var from: Seed
    /// The seed applying it produces: the same content digest.
    public var to: Seed
    /// The SQLite library that wrote the new seed (`sqlite_version()`), for the record: the
    /// installer applies the delta with its own.
    public var sqliteVersion: String?
    /// The seedgen version that wrote the delta.
    public var toolVersion: String?

    public init(
        schemaName: String?, schemaVersion: Int, from: Seed, to: Seed, sqliteVersion: String?, toolVersion: String?
    ) {
        self.schemaName = schemaName
        self.schemaVersion = schemaVersion
        self.from = from
        self.to = to
        self.sqliteVersion = sqliteVersion
        self.toolVersion = toolVersion
    }

    /// The first bytes of every delta file: `seedgen-delta `, then the format version.
    public static let magic: [UInt8] = Array("seedgen-delta ".utf8)
    /// The format version this code reads and writes.
    public static let formatVersion = 2
    /// The longest header, including its magic line and its closing empty line.
    public static let maximumLength = 4096
    /// The largest seed size a header may name (1 PiB): sizes are added and doubled when the
    /// body's limit is computed, which must not overflow.
    public static let maximumSeedSize: Int64 = 1 << 50

    /// True when `bytes` (the first bytes of a file) start with the delta magic.
    ///
    /// Not generic, and not `starts(with:)`: the installer asks this of every shipped seed at
    /// startup, and an unspecialized generic call from another module makes the runtime build
    /// type metadata first (300 µs, doubling the up-to-date check).
    public static func hasMagic(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= magic.count else { return false }
        for index in magic.indices where bytes[index] != magic[index] { return false }
        return true
    }

    /// The header as written at the start of the file, empty line included.
    public func encoded() -> [UInt8] {
        var lines = ["seedgen-delta \(Self.formatVersion)"]
        if let schemaName { lines.append("schema-name=\(schemaName)") }
        lines.append("schema-version=\(schemaVersion)")
        for (prefix, seed) in [("from", from), ("to", to)] {
            lines.append("\(prefix)-seed-version=\(seed.seedVersion)")
            lines.append("\(prefix)-content-sha256=\(seed.contentSHA256)")
            lines.append("\(prefix)-size=\(seed.size)")
        }
        if let sqliteVersion { lines.append("sqlite-version=\(sqliteVersion)") }
        if let toolVersion { lines.append("tool-version=\(toolVersion)") }
        return Array((lines.joined(separator: "\n") + "\n\n").utf8)
    }

    /// Reads the header of the delta file at `path` (its first few hundred bytes) without
    /// touching its body: which seeds it joins (versions, content digests, sizes) and the schema
    /// version, for choosing a delta before applying it.
    /// - Returns: the header and its length in bytes (where the body starts).
    /// - Throws: `DeltaError` `.io` when the file cannot be read, else as ``parse(_:path:)``.
    public static func read(path: String) throws(DeltaError) -> (header: DeltaHeader, length: Int) {
        let prefix: [UInt8]
        do { prefix = try FileSystem.openForReading(path).readBytes(maximumLength, at: 0) } catch {
            throw DeltaError(code: .io, message: "cannot read the delta", path: path, cause: error)
        }
        return try parse(prefix, path: path)
    }

    /// Parses the header at the start of `bytes` (the file's first bytes, at least the whole
    /// header: ``maximumLength`` bytes, or the whole file when it is shorter).
    /// - Returns: the header and its length in bytes (where the body starts).
    /// - Throws: `DeltaError` `.notADelta`, `.unsupportedVersion`, `.invalidHeader` or
    ///   `.truncated`, naming the line.
    public static func parse(_ bytes: [UInt8], path: String) throws(DeltaError) -> (header: DeltaHeader, length: Int) {
        guard hasMagic(bytes) else {
            throw DeltaError(
                code: .notADelta, message: "not a seed delta (it does not start with \"seedgen-delta \")", path: path)
        }
        var lines: [[UInt8]] = []
        var start = 0
        var end: Int?
        for index in bytes.indices.prefix(maximumLength) where bytes[index] == UInt8(ascii: "\n") {
            if index == start && !lines.isEmpty {
                end = index + 1
                break
            }
            lines.append(Array(bytes[start..<index]))
            start = index + 1
        }
        guard let end else {
            if bytes.count < maximumLength {
                throw DeltaError(
                    code: .truncated,
                    message: "the file ends inside the delta's header (\(bytes.count) bytes, no empty line)", path: path
                )
            }
            throw DeltaError(
                code: .invalidHeader,
                message: "the delta's header has no empty line in its first \(maximumLength) bytes", path: path)
        }
        func fail(_ line: Int, _ message: String) -> DeltaError {
            DeltaError(code: .invalidHeader, message: "line \(line) of the delta's header: \(message)", path: path)
        }
        let format = String(decoding: lines[0].dropFirst(magic.count), as: UTF8.self)
        guard format == String(formatVersion) else {
            if format == "1" {
                throw DeltaError(
                    code: .unsupportedVersion,
                    message:
                        """
                        the delta is in format version 1, made by a seedgen before content digests: it names seeds \
                        by their files' bytes, which only the builder's SQLite version reproduces; this installer \
                        applies format \(formatVersion); install the full seed
                        """,
                    path: path)
            }
            let shown = format.utf8.count <= 20 && format.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) ? format : "?"
            throw DeltaError(
                code: .unsupportedVersion,
                message:
                    """
                    the delta is in format version \(shown); this installer reads version \(formatVersion) (update \
                    it, or install the full seed)
                    """,
                path: path)
        }
        var fields: [String: (value: String, line: Int)] = [:]
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")), equals > 0 else {
                throw fail(number, "expected key=value")
            }
            let key = line[..<equals], value = line[(equals + 1)...]
            guard
                key.allSatisfy({
                    ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                })
            else {
                throw fail(number, "a key is lower-case letters, digits and '-'")
            }
            let text = String(decoding: value, as: UTF8.self)
            guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7f }), text.utf8.elementsEqual(value) else {
                throw fail(number, "the value is not printable UTF-8 text")
            }
            let name = String(decoding: key, as: UTF8.self)
            guard fields[name] == nil else { throw fail(number, "'\(name)' appears twice") }
            fields[name] = (text, number)
        }
        func required(_ key: String) throws(DeltaError) -> (value: String, line: Int) {
            guard let field = fields[key] else {
                throw DeltaError(code: .invalidHeader, message: "the delta's header has no '\(key)'", path: path)
            }
            return field
        }
        func version(_ key: String) throws(DeltaError) -> String {
            let field = try required(key)
            guard !field.value.isEmpty, field.value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                throw fail(field.line, "'\(key)' must be printable ASCII without spaces")
            }
            return field.value
        }
        func integer(_ key: String, in range: ClosedRange<Int64>) throws(DeltaError) -> Int64 {
            let field = try required(key)
            let digits = field.value.utf8
            let negative = digits.first == UInt8(ascii: "-")
            let body = negative ? digits.dropFirst() : digits[...]
            guard !body.isEmpty, body.count <= 18,
                body.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else {
                throw fail(field.line, "'\(key)' must be a decimal number")
            }
            let magnitude = body.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            let value = negative ? -magnitude : magnitude
            guard range.contains(value) else {
                throw fail(field.line, "'\(key)' is \(value), not in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        func digest(_ key: String) throws(DeltaError) -> String {
            let field = try required(key)
            guard field.value.utf8.count == 64,
                field.value.utf8.allSatisfy({
                    ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                        || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
                })
            else {
                throw fail(field.line, "'\(key)' must be 64 lower-case hexadecimal digits")
            }
            return field.value
        }
        func seed(_ prefix: String) throws(DeltaError) -> Seed {
            Seed(
                seedVersion: try version(prefix + "-seed-version"),
                contentSHA256: try digest(prefix + "-content-sha256"),
                size: try integer(prefix + "-size", in: 0...maximumSeedSize))
        }
        let header = DeltaHeader(
            schemaName: fields["schema-name"]?.value,
            schemaVersion: Int(try integer("schema-version", in: Int64(Int32.min)...Int64(Int32.max))),
            from: try seed("from"), to: try seed("to"),
            sqliteVersion: fields["sqlite-version"]?.value, toolVersion: fields["tool-version"]?.value)
        return (header, end)
    }

    /// The most bytes a well-formed body can decompress to: every row of the new seed and
    /// every key of the old one, encoded, fit in twice the two seeds' sizes. More is a
    /// damaged or hostile delta (a decompression bomb), refused before it costs more time.
    public var bodyLimit: Int64 { 2 * (from.size + to.size) + (1 << 20) }
}
