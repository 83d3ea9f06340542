import Foundation
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit

/// Reads chunks of at most `chunk` bytes, like a zip entry inflating: what a reader gets
/// from one `read` is never the whole file.
private final class ChunkedSource: ByteSource {
    let bytes: [UInt8]
    let chunk: Int
    var offset = 0
    private(set) var reads = 0

    init(_ bytes: [UInt8], chunk: Int) {
        self.bytes = bytes
        self.chunk = chunk
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        reads += 1
        let count = min(chunk, buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

/// Huge and hostile CSV: bounded records, bounded keys, one meaning of "column".
@Suite("Hostile CSV input")
struct HostileCSVTests {
    @Test("a record longer than the limit is an error at its first line, and the buffer stays bounded")
    func recordLimit() throws {
        let text = "a,b\n1,2\n" + String(repeating: "x", count: 5000) + ",3\n4,5\n"
        let reader = CSVReader(source: ChunkedSource(Array(text.utf8), chunk: 100), file: "f.txt", bufferSize: 256, maximumRecordBytes: 4096)
        #expect(try reader.next() && reader.next())
        do {
            _ = try reader.next()
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3 && error.column == 1)
            #expect(error.message.contains("longer than 4096 bytes") && error.message.contains("--max-record-size"))
        }
    }

    @Test("a record just under the limit is read whole")
    func recordUnderLimit() throws {
        let value = String(repeating: "y", count: 4000)
        let reader = CSVReader(source: ChunkedSource(Array("a,b\n\(value),2\n".utf8), chunk: 100), file: "f.txt", bufferSize: 256, maximumRecordBytes: 4096)
        #expect(try reader.next() && reader.next())
        #expect(reader.string(0) == value && reader.string(1) == "2")
    }

    @Test("a huge record read in small chunks costs linear, not quadratic, re-parsing")
    func refillsDouble() throws {
        let text = "a\n" + String(repeating: "z", count: 1 << 20) + "\n"
        let source = ChunkedSource(Array(text.utf8), chunk: 1024)
        let reader = CSVReader(source: source, file: "f.txt", bufferSize: 1024, maximumRecordBytes: 4 << 20)
        #expect(try reader.next() && reader.next())
        #expect(reader.field(0).count == 1 << 20)
        // Every read fills the buffer: about one read per KiB, not one parse per KiB.
        #expect(source.reads <= (1 << 20) / 1024 + 16)
    }

    @Test("a value error's column is the character column where its field begins (UTF-8 counted as characters)")
    func characterColumn() throws {
        let issues = try failingBuild(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,Zürich Hbf,north,13.4\n"])
        let issue = try #require(issues.first { $0.kind == .invalidValue })
        #expect(issue.line == 2 && issue.column == 15 && issue.field == "stop_lat" && issue.value == "north")
        #expect(issue.description.contains("stops.txt:2:15: stop_lat: 'north'"))
    }

    @Test("a field in a later line of a multi-line record is placed on its own line")
    func multiLineRecord() throws {
        let issues = try failingBuild(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,\"Two\nlines\",x,13.4\n"])
        let issue = try #require(issues.first { $0.kind == .invalidValue })
        #expect(issue.line == 3 && issue.column == 8 && issue.value == "x")
    }

    @Test("a duplicate key names the key field's column and the value")
    func duplicateKeyColumn() throws {
        let issues = try failingBuild(["stops.txt": "stop_name,stop_id\nOne,S1\nTwo,S2\nAgain,S1\n"])
        let issue = try #require(issues.first { $0.kind == .duplicateKey })
        #expect(issue.line == 4 && issue.column == 7 && issue.value == "stop_id=S1")
    }

    @Test("too many fields: the first extra field's column and value")
    func tooManyFields() throws {
        let issues = try failingBuild(["trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD,T2,surplus\n"])
        let issue = try #require(issues.first { $0.kind == .malformedRow })
        #expect(issue.line == 3 && issue.column == 10 && issue.value == "surplus" && issue.message.contains("4 fields"))
    }

    @Test("too few fields: where the missing one would begin, and its name (a repair; an error under --strict)")
    func tooFewFields() throws {
        let repaired = try failingBuild(["trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD\n"])
        let repair = try #require(repaired.first { $0.kind == .repairedSyntax })
        #expect(repair.line == 3 && repair.column == 7 && repair.value == "R1,WD" && repair.code == NoticeCode.invalidRowLength)
        let strict = try failingBuild(["trips.txt": "route_id,service_id,trip_id\nR1,WD,T1\nR1,WD\n"], strict: true)
        let issue = try #require(strict.first { $0.kind == .malformedRow })
        #expect(issue.line == 3 && issue.column == 7 && issue.field == "trip_id" && issue.value == "R1,WD")
    }

    @Test("values in messages are cut at 200 characters")
    func truncatedValue() throws {
        let long = String(repeating: "é", count: 300)
        let issues = try failingBuild(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,\(long),13.4\n"])
        let issue = try #require(issues.first { $0.kind == .invalidValue })
        #expect(issue.description.contains("'" + String(repeating: "é", count: 200) + "...'"))
        #expect(!issue.description.contains(String(repeating: "é", count: 201)))
    }

    @Test("a key longer than the limit is an error naming the limit and the option")
    func keyLimit() throws {
        let key = String(repeating: "K", count: 70_000)
        let issues = try failingBuild(["stops.txt": "stop_id,stop_name\n\(key),One\n"])
        let issue = try #require(issues.first { $0.kind == .invalidValue && $0.field == "stop_id" })
        #expect(issue.line == 2 && issue.column == 1)
        #expect(issue.message.contains("70000 bytes") && issue.message.contains("--max-key-size"))
    }

    @Test("a record longer than the build's limit fails the build, output untouched, no scratch file")
    func buildRecordLimit() throws {
        let folder = TemporaryFolder()
        MinimalFeed.write(into: folder, ["stops.txt": "stop_id,stop_name\nS1,\(String(repeating: "n", count: 3000))\nS2,Two\n"])
        let output = folder.write("seed.sqlite", "previous seed")
        var options = BuildOptions(inputs: [folder.file("feed")], output: output)
        options.limits.recordBytes = 2048
        let error = try #require(throws: BuildError.self) { try SeedBuilder(options: options).build() }
        let issue = try #require(error.issues.first)
        #expect(issue.file.hasSuffix("stops.txt") && issue.line == 2 && issue.message.contains("longer than 2048 bytes"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous seed")
        #expect(folder.contents == ["feed", "seed.sqlite"])
    }

    @Test("repairs and unknown header fields give the character column, not the byte or field number")
    func characterColumns() throws {
        let folder = TemporaryFolder()
        let schema = NotesSchema.write(into: folder, columns: ["{ name: name, source: näme }", "{ name: text }"])
        folder.write("in/notes.txt", "näme,zzz,text\nÜü,x,\"quoted\" tail\n")
        let summary = try SeedBuilder(options: BuildOptions(inputs: [folder.file("in")], output: folder.file("s.sqlite"), schemaPath: schema)).build()
        #expect(summary.warningReport.contains("notes.txt:1:6: zzz: is not in the schema"), "\(summary.warningReport)")
        #expect(summary.warningReport.contains("notes.txt:2:6: '\"quoted\" tail' text after a closing quote is kept in the value"), "\(summary.warningReport)")
        var strict = BuildOptions(inputs: [folder.file("in")], output: folder.file("s.sqlite"), schemaPath: schema)
        strict.strict = true
        do {
            _ = try SeedBuilder(options: strict).build()
            Issue.record("--strict fails on a repair")
        } catch {
            let places = error.issues.filter { $0.message.hasPrefix("unexpected character after a closing quote") }.map { "\($0.line ?? 0):\($0.column ?? 0)" }
            #expect(places == ["2:6"])
        }
    }
}
