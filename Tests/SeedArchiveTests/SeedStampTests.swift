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

    @Test func aPublicationSequenceIsAFourthWordTheStampReadsPast() {
        let stamp = SeedStamp(schemaVersion: 3, seedVersion: "v1")
        #expect(stamp.comment(sequence: 42) == "seedgen-seed schema-version=3 seed-version=v1 sequence=42")
        #expect(SeedStamp(comment: stamp.comment(sequence: 42)) == stamp)
        #expect(SeedStamp.sequence(inComment: stamp.comment(sequence: 42)) == 42)
        #expect(SeedStamp.sequence(inComment: "seedgen-seed  schema-version=3 seed-version=v1   sequence=7 ") == 7)
        #expect(stamp.comment(sequence: nil) == stamp.comment)
        #expect(SeedStamp.sequence(inComment: stamp.comment) == nil)
    }

    @Test(arguments: [
        "seedgen-seed schema-version=3 seed-version=v1 sequence=0",
        "seedgen-seed schema-version=3 seed-version=v1 sequence=-4",
        "seedgen-seed schema-version=3 seed-version=v1 sequence=x",
        "seedgen-seed schema-version=3 seed-version=v1 sequence=",
        "seedgen-seed schema-version=3 seed-version=sequence=5",
        "seedgen-seeds schema-version=3 seed-version=v1 sequence=5",
        "seedgen-seed schema-version=3 seed-version=v1 sequence=5 extra",
        "seedgen-seed schema-version=3 seed-version=v1 sequence=99999999999999999999",
    ])
    func aSequenceThatIsNotAPositiveNumberOfAStampIsNone(_ comment: String) {
        #expect(SeedStamp.sequence(inComment: comment) == nil)
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
