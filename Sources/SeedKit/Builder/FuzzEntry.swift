import Foundation
import SeedArchive
import SeedDeltas
import SeedInstaller
import SeedSQLite
import SeedSystem

/// Entry points for the fuzz targets (`Sources/seedfuzz`, `make fuzz`): each feeds one input
/// of arbitrary bytes through one reader and must return (any error is fine) without a trap,
/// a hang or unbounded memory. Package-scoped: for `seedfuzz` and the tests, not for apps.
package enum FuzzEntry {
    /// The readers that can be fuzzed, by the name `make fuzz` and the corpus folders use.
    package static let targets = ["csv", "zip", "xml", "gzip", "manifest", "geojson", "delta", "index", "pbf"]

    /// Runs `target` on `bytes`. `scratch` is a folder the target may write into (the zip,
    /// XML and gzip readers read files).
    package static func run(_ target: String, _ bytes: [UInt8], scratch: String) {
        switch target {
        case "csv": csv(bytes)
        case "zip": zip(bytes, scratch: scratch)
        case "xml": xml(bytes, scratch: scratch)
        case "gzip": gzip(bytes, scratch: scratch)
        case "manifest": _ = try? SeedManifest.decode(bytes)
        case "geojson": geojson(bytes)
        case "delta": delta(bytes, scratch: scratch)
        case "index": channelIndex(bytes)
        case "pbf": pbf(bytes)
        default: fatalError("unknown fuzz target '\(target)'; one of \(targets.joined(separator: ", "))")
        }
    }

    /// The OpenStreetMap PBF reader: blobs (raw and zlib) read in 7-byte chunks, the header's
    /// features checked, each block decoded, and every object's values written as text.
    static func pbf(_ bytes: [UInt8]) {
        let reader = PBFBlobReader(source: MemoryByteSource(bytes, chunk: 7))
        var decoder = PBFBlockDecoder()
        let sink = PBFFuzzSink()
        do {
            while let blob = try reader.next() {
                if blob.type == "OSMHeader" {
                    try reader.withData { bytes throws(PBFError) in try PBFBlockDecoder.checkHeader(bytes) }
                } else {
                    try reader.withData { bytes in try decoder.decode(bytes, into: sink) }
                }
            }
        } catch {
            _ = "\(error)"
        }
    }

    /// A channel's `index.json` (what `SeedUpdater` downloads), and its signature check.
    static func channelIndex(_ bytes: [UInt8]) {
        if let index = try? ChannelIndex.decode(bytes, source: "fuzz") {
            _ = index.encoded()
            _ = index.entry(schemaVersion: 2)?.delta(from: "x")
        }
        _ = fuzzKey?.isValidSignature(bytes, for: bytes)
    }

    private static let fuzzKey = try? ChannelPublicKey(base64: "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=")

    /// The CSV reader with a small buffer and record limit, so growth and the limit are hit,
    /// behind the UTF-16 decoder (an input starting FF FE or FE FF is transcoded), and the
    /// importer's invalid-text repair of every field.
    static func csv(_ bytes: [UInt8]) {
        let reader = CSVReader(
            source: TextDecodingSource(MemoryByteSource(bytes, chunk: 7)), file: "fuzz.csv",
            bufferSize: 16, maximumRecordBytes: 4096)
        do {
            var records = 0
            while try reader.next(), records < 100_000 {
                records += 1
                let plain = InvalidText.isPlainASCII(reader.recordBytes)
                for field in 0..<reader.fieldCount {
                    _ = reader.string(field)
                    _ = reader.place(ofField: field)
                    let value = reader.field(field)
                    let problems = InvalidText.problems(in: value)
                    precondition(!plain || problems.isEmpty, "a plain ASCII record has a field with invalid text")
                    if let first = problems.first {
                        let repaired = InvalidText.repaired(value, problems)
                        let again = repaired.withUnsafeBytes { InvalidText.problems(in: $0) }
                        precondition(
                            again.isEmpty && String(decoding: repaired, as: UTF8.self).utf8.elementsEqual(repaired),
                            "the repair is valid UTF-8 without NUL")
                        _ = reader.place(ofByte: first.offset, inField: field)
                        _ = InvalidText.hex(value, first)
                    }
                }
                _ = reader.place(afterRecord: ())
            }
        } catch {
            _ = "\(error)"
        }
    }

    /// The GeoJSON reader with a small feature limit, so the limit is hit, and the columns the
    /// importer takes from each feature (a property by name too); what is wrong with its rings,
    /// worked out by the writer as it wrote the geometry, must be what `PolygonRings` reads.
    static func geojson(_ bytes: [UInt8]) {
        let reader = GeoJSONFeatureReader(
            source: MemoryByteSource(bytes, chunk: 7), file: "fuzz.geojson", maximumValueBytes: 4096,
            namedProperties: true)
        do {
            while let feature = try reader.next() {
                for source in ["id", "properties", "geometry", "name"] {
                    _ = feature.value(of: source)
                }
                let rings = feature.geometry?.withUnsafeBufferPointer(PolygonRings.problem(in:))
                precondition(
                    feature.geometryProblem == rings, "rings: \(feature.geometryProblem ?? "-") \(rings ?? "-")")
            }
        } catch {
            _ = "\(error)"
        }
    }

    /// The zip reader: the directory, then every entry read to its end (at most 64 MiB).
    static func zip(_ bytes: [UInt8], scratch: String) {
        let path = scratch + "/fuzz.zip"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        do {
            let files = try InputSet(paths: [path]).files
            var buffer = [UInt8](repeating: 0, count: 65536)
            var total = 0
            for file in files {
                let source = try file.open()
                while total < 64 << 20 {
                    let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                    if count == 0 { break }
                    total += count
                }
            }
        } catch {
            _ = "\(error)"
        }
    }

    /// A full build of one XML file with a small schema: records, nested records, a list,
    /// attributes, text, a filter and a reference, typed values (times with zones and their
    /// offsets, moments, dates, durations) and a computed column, HTML's named characters and
    /// the DTD's plain-text entities (`XMLEntityTable`); then a schema draft of it
    /// (`XMLStructureSurvey`, `SchemaDraftPlan`), which must read any bytes too.
    static func xml(_ bytes: [UInt8], scratch: String) {
        let schema = scratch + "/fuzz-schema.yaml"
        let folder = scratch + "/xml"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A harness that cannot write its inputs would fuzz nothing: stop loudly instead.
        guard
            FileManager.default.fileExists(atPath: schema)
                || FileManager.default.createFile(atPath: schema, contents: Data(xmlSchema.utf8)),
            FileManager.default.createFile(atPath: folder + "/in.xml", contents: Data(bytes))
        else {
            fatalError("seedfuzz: cannot write \(schema) or \(folder)/in.xml")
        }
        var options = BuildOptions(inputs: [folder], output: scratch + "/fuzz.sqlite", schemaPath: schema)
        options.limits.xmlDepth = 200
        _ = try? SeedBuilder(options: options).build()
        _ = try? SchemaDraft.draft(inputs: [folder], hashBudget: 10_000)
    }

    static let xmlSchema = """
        name: fuzz
        schemaVersion: 1
        format: xml
        entities: html
        tables:
          - name: item
            file: "*.xml"
            element: item
            key: item_id
            columns:
              - { name: item_id, type: integer, source: "@id", required: true }
              - { name: title, source: title }
              - { name: price, type: real, source: "price/@amount" }
              - { name: kind, source: "@kind" }
              # Times of day with and without a zone (`06:00:00+02:00`, `06:54:00Z`), the
              # zone beside the local time, a moment, a date and a duration: the value
              # converter's parsers. A bad value is NULL, so one input reaches them all.
              - { name: at, type: time, source: "@at", onInvalid: "null" }
              - { name: at_utc_offset, type: utcOffset, source: "@at", onInvalid: "null" }
              - { name: at_utc, type: integer, expression: "at - at_utc_offset" }
              - { name: stamp, type: datetime, source: "@stamp", onInvalid: "null" }
              - { name: stamp_utc_offset, type: utcOffset, source: "@stamp", onInvalid: "null" }
              - { name: day, type: date, source: "@day", onInvalid: "null" }
              - { name: takes, type: duration, source: "@takes", onInvalid: "null" }
          - name: part
            element: part
            parent: item
            columns:
              - { name: name, source: "@name", required: true }
              - { name: note, source: "." }
          - name: link
            file: "*.xml"
            element: link
            columns:
              - { name: item_id, type: integer, source: "@to" }
            references:
              - { column: item_ref, from: item_id, to: item }
        """

    /// The gzip reader and the seed stamp in its header comment.
    static func gzip(_ bytes: [UInt8], scratch: String) {
        let path = scratch + "/fuzz.gz"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        do {
            let reader = try GzipReader(path: path, allowsMultipleMembers: bytes.count % 2 == 0)
            if let comment = reader.header.comment { _ = SeedStamp(comment: comment) }
            var buffer = [UInt8](repeating: 0, count: 65536)
            var total = 0
            while total < 64 << 20 {
                let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
                if count == 0 { break }
                total += count
            }
        } catch {
            _ = "\(error)"
        }
    }
}

extension FuzzEntry {
    /// A seed delta through the installer's whole apply: header, body records, tables and rows
    /// checked against a seed, applied, derived again, its content digest proven. A header that
    /// parses is pointed at a small base seed (its content digest), so mutated bodies reach the
    /// apply instead of stopping at the check of the seed they start from.
    static func delta(_ bytes: [UInt8], scratch: String) {
        guard let base = deltaBase(scratch: scratch) else {
            fatalError("seedfuzz: cannot write the delta base seed in \(scratch)")
        }
        var input = bytes
        if let (header, length) = try? DeltaHeader.parse(
            Array(bytes.prefix(DeltaHeader.maximumLength)), path: "fuzz.delta")
        {
            var retargeted = header
            retargeted.from = DeltaHeader.Seed(
                seedVersion: header.from.seedVersion, contentSHA256: base.contentSHA256, size: base.size)
            input = retargeted.encoded() + bytes.dropFirst(length)
        }
        let path = scratch + "/fuzz.delta", output = scratch + "/fuzz-output.sqlite"
        guard FileManager.default.createFile(atPath: path, contents: Data(input)) else { return }
        defer { _ = try? FileSystem.remove(output) }
        do {
            let patch = try DeltaPatch(path: path)
            let tables = try patch.checkBody()
            try patch.apply(base: base.path, baseIsProven: true, changedTables: tables, output: output)
        } catch {
            _ = "\(error)"
        }
    }

    /// The seed the committed delta corpus (`Tests/Fuzz/delta/`) was made from; made once per
    /// scratch folder. `scripts/fuzz-delta-corpus.py` makes the same seed and its deltas.
    static func deltaBase(scratch: String) -> (path: String, size: Int64, contentSHA256: String)? {
        let path = scratch + "/fuzz-base.sqlite"
        if !FileManager.default.fileExists(atPath: path) {
            let building = scratch + "/fuzz-base-scratch.sqlite"
            _ = try? FileSystem.remove(building)
            defer { _ = try? FileSystem.remove(building) }
            do {
                try Connection(path: building).execute(deltaBaseSQL + "VACUUM INTO '\(path)';")
            } catch {
                return nil
            }
        }
        guard let size = (try? FileSystem.status(path)) ?? nil, let digest = try? ContentDigest.compute(path: path)
        else { return nil }
        return (path, size.size, digest)
    }

    /// The base seed's SQL: the kinds of table a delta addresses (rowid with an INTEGER
    /// PRIMARY KEY, rowid with a TEXT PRIMARY KEY, WITHOUT ROWID, `sqlite_stat1`), a unique
    /// index, and every storage class.
    static let deltaBaseSQL = """
        PRAGMA application_id = 1397048644;
        PRAGMA user_version = 1;
        CREATE TABLE seedgen_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO seedgen_metadata VALUES ('schema_name', 'fuzz'), ('schema_version', '1'), ('seed_version', 'base');
        CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, weight REAL, data BLOB, note);
        CREATE UNIQUE INDEX items_name ON items (name);
        CREATE TABLE pairs (a INTEGER NOT NULL, b TEXT NOT NULL, c, PRIMARY KEY (a, b)) WITHOUT ROWID;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
          INSERT INTO items SELECT i, 'item ' || i, i * 0.25, zeroblob(i % 5), CASE i % 3 WHEN 0 THEN i WHEN 1 THEN \
        'text' END FROM n;
        INSERT INTO pairs SELECT id, name, weight FROM items WHERE id % 2 = 0;
        ANALYZE;

        """
}

/// Bytes in memory, handed out `chunk` at a time.
final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private let chunk: Int
    private var offset = 0

    init(_ bytes: [UInt8], chunk: Int) {
        self.bytes = bytes
        self.chunk = max(1, chunk)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(chunk, buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

/// Takes every value of each object the PBF fuzz target decodes, as the importer would.
private final class PBFFuzzSink: PBFEntityHandler {
    private var bytes = 0

    func handle(_ entity: PBFEntity, strings: PBFStringTable) {
        PBFText.withCoordinate(entity.latitude) { bytes += $0.count }
        PBFText.withCoordinate(entity.longitude) { bytes += $0.count }
        if let timestamp = entity.timestamp { PBFText.withTimestamp(timestamp) { bytes += $0.count } }
        for index in entity.tags + entity.memberRoles + (entity.user.map { [$0] } ?? []) {
            bytes += strings.string(index).count
        }
        precondition(entity.memberTypes.count == entity.memberRefs.count && entity.tags.count % 2 == 0)
    }
}
