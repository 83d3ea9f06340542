import SeedArchive
import Testing

/// The seed's versions in the gzip comment: `seedgen-seed schema-version=N seed-version=V`.
@Suite struct SeedStampTests {
    @Test func theCommentReadsBackAsTheSameStamp() {
        let stamp = SeedStamp(schemaVersion: 3, seedVersion: "2026.11.21-1")
        #expect(stamp.comment == "seedgen-seed schema-version=3 seed-version=2026.11.21-1")
        #expect(SeedStamp(comment: stamp.comment) == stamp)
        #expect(stamp.description == "schema version 3, seed version 2026.11.21-1")
    }

    @Test func wordsMayBeSeparatedByMoreThanOneSpace() {
        #expect(SeedStamp(comment: "  seedgen-seed  schema-version=-2   seed-version=x ") == SeedStamp(schemaVersion: -2, seedVersion: "x"))
    }

    @Test(arguments: [
        "",
        "seedgen-seed",
        "seedgen-seed schema-version=3",
        "seedgen-seed schema-version=3 seed-version=",
        "seedgen-seed schema-version=3 seed-version=v1 extra",
        "seedgen-seeds schema-version=3 seed-version=v1",
        "seedgen-seed seed-version=v1 schema-version=3",
        "seedgen-seed schema-version=3.0 seed-version=v1",
        "seedgen-seed schema-version= seed-version=v1",
        "seedgen-seed schema_version=3 seed-version=v1",
    ])
    func aCommentThatIsNotAStampIsNone(_ comment: String) {
        #expect(SeedStamp(comment: comment) == nil)
    }

    @Test func aSeedVersionIsValidWhenItReadsBackUnchanged() {
        for version in ["v1", "2026.11.21-1", "a/b:c"] {
            let stamp = SeedStamp(schemaVersion: 1, seedVersion: version)
            #expect(stamp.isValid && SeedStamp(comment: stamp.comment) == stamp, "\(version)")
        }
        for version in ["", "two words", "tab\there", "caf\u{e9}", "line\n"] {
            #expect(!SeedStamp(schemaVersion: 1, seedVersion: version).isValid, "\(version.debugDescription)")
        }
    }
}
