import Foundation
import SeedArchive
import SeedTestSupport
import Testing

/// The manifest beside a shipped seed: the JSON keys are a contract, and the reader the
/// installer runs at every start refuses anything else, saying where.
@Suite struct SeedManifestTests {
    static let valid = #"{"schemaVersion": 3, "seedVersion": "v", "sha256": "", "size": 0, "gzipSha256": "", "gzipSize": 0, "tables": {}}"#

    func refusal(_ text: String) -> SeedManifestError? {
        #expect(throws: SeedManifestError.self) { try SeedManifest.decode(Array(text.utf8), path: "m.json") }
    }

    @Test func encodesDeterministicallyWithTheContractKeys() throws {
        let manifest = SeedManifest(schemaVersion: 3, seedVersion: "42", sha256: "ab", size: 10, gzipSha256: "cd",
                                    gzipSize: 5, tables: ["stops": 2, "agency": 1], schemaName: "transit")
        let text = String(decoding: manifest.encoded(), as: UTF8.self)
        #expect(text == """
            {
              "gzipSha256" : "cd",
              "gzipSize" : 5,
              "schemaName" : "transit",
              "schemaVersion" : 3,
              "seedVersion" : "42",
              "sha256" : "ab",
              "size" : 10,
              "tables" : {
                "agency" : 1,
                "stops" : 2
              }
            }

            """)
        #expect(try SeedManifest.decode(manifest.encoded()) == manifest)
    }

    @Test func theContentDigestRoundTripsUnderItsContractKey() throws {
        let digest = String(repeating: "0123456789abcdef", count: 4)
        var manifest = SeedManifest(schemaVersion: 3, seedVersion: "42", sha256: "ab", size: 10, gzipSha256: "cd",
                                    gzipSize: 5, tables: [:], schemaName: "transit", sequence: 7, contentSHA256: digest)
        let text = String(decoding: manifest.encoded(), as: UTF8.self)
        #expect(text.contains("\n  \"contentSha256\" : \"\(digest)\",\n"), "\(text)")
        #expect(!text.contains("contentSHA256"))
        #expect(try SeedManifest.decode(manifest.encoded()) == manifest)
        #expect(try JSONDecoder().decode(SeedManifest.self, from: Data(manifest.encoded())) == manifest, "Foundation's decoder agrees")
        // Optional: absent (a manifest from a seedgen before content digests) or null reads as nil.
        #expect(try SeedManifest.decode(Array(Self.valid.utf8)).contentSHA256 == nil)
        func adding(_ member: String) -> String { String(Self.valid.dropLast()) + ", " + member + "}" }
        let null = adding(#""contentSha256": null"#)
        #expect(try SeedManifest.decode(Array(null.utf8)).contentSHA256 == nil)
        let given = Self.valid.replacingOccurrences(of: "{\"schemaVersion\"", with: "{\"contentSha256\": \"\(digest)\", \"schemaVersion\"")
        #expect(try SeedManifest.decode(Array(given.utf8)).contentSHA256 == digest)
        manifest.contentSHA256 = nil
        #expect(!String(decoding: manifest.encoded(), as: UTF8.self).contains("contentSha256"))
        #expect(throws: SeedManifestError.self) { try SeedManifest.decode(Array(adding(#""contentSha256": 5"#).utf8)) }
    }

    @Test func liesBesideTheSeedWithoutTheGzSuffix() {
        #expect(SeedManifest.path(forSeed: "dist/seed.sqlite.gz") == "dist/seed.sqlite.manifest.json")
        #expect(SeedManifest.path(forSeed: "dist/seed.sqlite") == "dist/seed.sqlite.manifest.json")
        #expect(SeedManifest.path(forSeed: "dist/s\u{e9}ed.sqlite.gz") == "dist/s\u{e9}ed.sqlite.manifest.json")
        #expect(SeedManifest.path(forSeed: "gz") == "gz.manifest.json")
    }

    @Test func theStampAndSummaryFillTheManifest() throws {
        let folder = TemporaryFolder()
        let writer = try GzipWriter(path: folder.file("seed.sqlite.gz"))
        try writer.write(Array("seed".utf8))
        let summary = try writer.finish(sync: false)
        let manifest = SeedManifest(stamp: SeedStamp(schemaVersion: 5, seedVersion: "v5"), summary: summary,
                                    tables: ["t": 1], toolVersion: "1.0")
        #expect(manifest == SeedManifest(schemaVersion: 5, seedVersion: "v5", sha256: summary.sha256, size: 4,
                                         gzipSha256: summary.gzipSha256, gzipSize: summary.gzipSize, tables: ["t": 1],
                                         toolVersion: "1.0"))
        #expect(manifest.stamp == SeedStamp(schemaVersion: 5, seedVersion: "v5"))
    }

    @Test func writesAndReadsAFile() throws {
        let folder = TemporaryFolder()
        let manifest = SeedManifest(schemaVersion: 1, seedVersion: "v", sha256: "s", size: 1, gzipSha256: "g", gzipSize: 2,
                                    tables: [:], toolVersion: "0.1.0")
        let path = folder.file("seed.sqlite.manifest.json")
        try manifest.write(path: path)
        #expect(try SeedManifest.read(path: path) == manifest)
        #expect(folder.contents == ["seed.sqlite.manifest.json"], "written by rename: no temporary file left")
        let missing = #expect(throws: SeedManifestError.self) { try SeedManifest.read(path: folder.file("none.json")) }
        #expect(missing?.path == folder.file("none.json") && missing?.message.hasPrefix("cannot read the manifest") == true)
        let unwritable = #expect(throws: SeedManifestError.self) { try manifest.write(path: folder.file("no/such/m.json")) }
        #expect(unwritable?.message.hasPrefix("cannot write the manifest") == true, "\(String(describing: unwritable))")
        #expect(missing?.code == .fileSystem && missing?.cause != nil && unwritable?.code == .fileSystem && unwritable?.cause != nil)
    }

    @Test func theInstallersReadingSkipsTheTablesButStillChecksThem() throws {
        let text = #"{"schemaVersion": 3, "seedVersion": "v", "sha256": "", "size": 0, "gzipSha256": "", "gzipSize": 0, "tables": {"a": 1, "b": 2}}"#
        #expect(try SeedManifest.decode(Array(text.utf8), readingTables: false).tables.isEmpty)
        #expect(try SeedManifest.decode(Array(text.utf8)).tables == ["a": 1, "b": 2])
        let broken = text.replacingOccurrences(of: #""b": 2"#, with: #""b": "#)
        #expect(throws: SeedManifestError.self) { try SeedManifest.decode(Array(broken.utf8), readingTables: false) }
    }

    @Test func agreesWithFoundationOnEscapesUnknownKeysAndNulls() throws {
        // Escapes, unknown keys of every kind, null optionals, whitespace.
        let text = #"""
            { "schemaVersion": 3, "seedVersion": "a\"b\\c\u00e9\ud83d\ude00", "sha256": "x", "size": 0,
              "gzipSha256": "y", "gzipSize": 9223372036854775807, "tables": {"t": 1, "u": -2},
              "future": [1, 2.5e-3, {"deep": [true, false, null]}, "s"], "toolVersion": null }
            """#
        let decoded = try SeedManifest.decode(Array(text.utf8))
        #expect(decoded == (try JSONDecoder().decode(SeedManifest.self, from: Data(text.utf8))))
        #expect(decoded.seedVersion == "a\"b\\c\u{e9}\u{1F600}" && decoded.gzipSize == Int64.max && decoded.toolVersion == nil)
    }

    @Test(arguments: [
        #"{"schemaVersion": 3}"#,                                            // keys missing
        #"{"schemaVersion": 3.0, "seedVersion": "v", "sha256": "", "size": 0, "gzipSha256": "", "gzipSize": 0, "tables": {}}"#,
        #"{"schemaVersion": 3, "schemaVersion": 3, "seedVersion": "v", "sha256": "", "size": 0, "gzipSha256": "", "gzipSize": 0, "tables": {}}"#,
        #"{"schemaVersion": 3, "seedVersion": "v", "sha256": "", "size": 9223372036854775808, "gzipSha256": "", "gzipSize": 0, "tables": {}}"#,
        #"{"schemaVersion": 3, "seedVersion": "\ud800", "sha256": "", "size": 0, "gzipSha256": "", "gzipSize": 0, "tables": {}}"#,
        #"{"schemaVersion": 3, "seedVersion": "v", "sha256": "", "size": 0, "gzipSha256": "", "gzipSize": 0, "tables": {}} x"#,
        #"{"a": "#,
        String(repeating: "[", count: 100_000),
        String(repeating: #"{"x":"#, count: 100) + "1" + String(repeating: "}", count: 100),
    ])
    func theManifestReaderRefuses(_ text: String) {
        #expect(throws: SeedManifestError.self) { try SeedManifest.decode(Array(text.utf8)) }
    }

    @Test func theManifestReaderRefusesMoreThan4MiB() {
        let padded = Array(#"{"tables": {}, "x": ""#.utf8) + [UInt8](repeating: 0x61, count: 4 << 20) + Array(#""}"#.utf8)
        let error = #expect(throws: SeedManifestError.self) { try SeedManifest.decode(padded) }
        #expect(error?.message.contains("4194304") == true, "\(String(describing: error))")
    }

    @Test func aManifestOfExactly4MiBIsRead() throws {
        let text = Array(Self.valid.utf8)
        let padded = text + [UInt8](repeating: 0x20, count: (4 << 20) - text.count)
        #expect(try SeedManifest.decode(padded).seedVersion == "v")
        #expect(throws: SeedManifestError.self) { try SeedManifest.decode(padded + [0x20]) }
    }

    @Test func aMissingKeyIsNamedWithEveryOtherMissingOne() {
        let error = refusal(#"{"schemaVersion": 3, "sha256": "", "gzipSize": 1}"#)
        #expect(error?.path == "m.json")
        #expect(error?.message == "not a valid seed manifest: no seedVersion, size, gzipSha256, tables", "\(String(describing: error))")
    }

    @Test func aRefusalNamesTheByteWhereReadingStopped() {
        let error = refusal(#"{"schemaVersion": "3"}"#)
        #expect(error?.message == "not a valid seed manifest: expected an integer (at byte 18)", "\(String(describing: error))")
        #expect(error?.description == "m.json: not a valid seed manifest: expected an integer (at byte 18)")
    }

    @Test(arguments: [
        (#"{"tables": {"t": 1, "t": 2}}"#, #"the table "t" appears twice in tables"#),
        (#"{"tables": {"t": "1"}}"#, "expected an integer"),
        (#"{"tables": []}"#, "expected an object"),
        (#"{"seedVersion": 1}"#, "expected a string"),
        (#"{"toolVersion": 1}"#, "expected a string"),
        (#"{"size": 1.5}"#, "expected an integer, found a fraction or exponent"),
        (#"{"size": 01}"#, "leading zero in a number"),
        (#"{"size": -9223372036854775809}"#, "integer out of range"),
        (#"[]"#, "expected an object"),
        (#"{"a" 1}"#, "expected ':' after a key"),
        (#"{"a": 1 "b": 2}"#, "expected ',' or '}' in an object"),
        (#"{1: 2}"#, "expected a key string"),
        (#"{"a": tru}"#, "unknown literal"),
        (#"{"a": [1 2]}"#, "expected ',' or ']' in an array"),
        (#"{"a": "\x"}"#, "unknown escape in a string"),
        (#"{"a": "\u12"}"#, #"bad hex digit in a \u escape"#),
        (#"{"a": "\udc00"}"#, #"unpaired surrogate in a \u escape"#),
        ("{\"a\": \"tab\there\"}", "control character in a string"),
        (#"{"a": 1."#, "expected digits after '.'"),
        (#"{"a": 1e}"#, "expected digits in an exponent"),
        ("", "expected an object"),
    ] as [(String, String)])
    func whatTheReaderRefusesAndWhy(_ text: String, _ reason: String) {
        let error = refusal(text)
        #expect(error?.message.contains(reason) == true, "\(text): \(String(describing: error))")
    }

    @Test func aStringThatIsNotUTF8IsRefusedNotRepaired() {
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            let text = Array(#"{"seedVersion": ""#.utf8) + bytes + Array(#""}"#.utf8)
            let error = #expect(throws: SeedManifestError.self) { try SeedManifest.decode(text) }
            #expect(error?.message.contains("a string is not valid UTF-8") == true, "\(bytes): \(String(describing: error))")
        }
    }

    /// Skipping the tables, as the installer's startup check does, checks their text as reading
    /// them does: escaped keys pass, and a bad key is refused with the same message and byte.
    @Test func skippedTablesAreCheckedAsReadOnes() throws {
        let head = Array((#"{"schemaVersion": 3, "seedVersion": "v", "sha256": "", "size": 0, "gzipSha256": "", "#
            + #""gzipSize": 0, "tables": "#).utf8)
        let good = head + Array(#"{"a\u00e9\"b": 1, "c": 2}}"#.utf8)
        #expect(try SeedManifest.decode(good).tables == ["a\u{e9}\"b": 1, "c": 2])
        #expect(try SeedManifest.decode(good, readingTables: false).schemaVersion == 3)
        let badKeys: [[UInt8]] = [Array(#"{"b\x": 2}}"#.utf8), Array("{\"a\tb\": 1}}".utf8),
                                  Array(#"{""#.utf8) + [0xC0, 0xAF] + Array(#"": 1}}"#.utf8), Array(#"{"a"#.utf8)]
        for tail in badKeys {
            let read = #expect(throws: SeedManifestError.self) { try SeedManifest.decode(head + tail) }
            let skipped = #expect(throws: SeedManifestError.self) {
                try SeedManifest.decode(head + tail, readingTables: false)
            }
            #expect(read?.message != nil && read?.message == skipped?.message,
                    "\(tail): \(String(describing: read)) / \(String(describing: skipped))")
        }
    }

    @Test func unknownValuesNestMoreThan64LevelsDeepAreRefused() throws {
        func nested(_ depth: Int) -> [UInt8] {
            let text = #"{"schemaVersion": 3, "seedVersion": "v", "sha256": "", "size": 0, "gzipSha256": "", "gzipSize": 0, "tables": {}, "future": "#
                + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
            return Array(text.utf8)
        }
        #expect(try SeedManifest.decode(nested(63)).schemaVersion == 3, "the manifest's object and 63 arrays: 64 levels")
        let error = #expect(throws: SeedManifestError.self) { try SeedManifest.decode(nested(64)) }
        #expect(error?.message.contains("nested more than 64 levels") == true, "\(String(describing: error))")
    }

    @Test func integersSpanInt64() throws {
        let text = #"{"schemaVersion": -0, "seedVersion": "v", "sha256": "", "size": -9223372036854775808, "gzipSha256": "", "gzipSize": 0, "tables": {"t": 9223372036854775807}}"#
        let manifest = try SeedManifest.decode(Array(text.utf8))
        #expect(manifest.schemaVersion == 0 && manifest.size == Int64.min && manifest.tables["t"] == Int64.max)
    }
}
