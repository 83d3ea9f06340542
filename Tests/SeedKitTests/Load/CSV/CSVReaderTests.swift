import Testing
@testable import SeedKit

/// A byte source over an array, read in small pieces to cross chunk boundaries.
final class ArraySource: ByteSource {
    let bytes: [UInt8]
    let step: Int
    var position = 0
    init(_ text: String, step: Int = 3) { bytes = Array(text.utf8); self.step = step }
    init(bytes: [UInt8], step: Int = 3) { self.bytes = bytes; self.step = step }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(step, buffer.count, bytes.count - position)
        for i in 0..<count { buffer[i] = bytes[position + i] }
        position += count
        return count
    }
}

/// Reads every record as arrays of strings, with each record's line.
func records(_ text: String, bufferSize: Int = 8, step: Int = 3, strict: Bool = false) throws -> [(line: Int, fields: [String])] {
    try records(bytes: Array(text.utf8), bufferSize: bufferSize, step: step, strict: strict)
}

func records(bytes: [UInt8], bufferSize: Int = 8, step: Int = 3, strict: Bool = false) throws -> [(line: Int, fields: [String])] {
    try readAll(bytes: bytes, bufferSize: bufferSize, step: step, strict: strict).records
}

/// Reads every record, and the syntax repairs the reader reported.
func readAll(bytes: [UInt8], bufferSize: Int = 8, step: Int = 3, strict: Bool = false) throws
    -> (records: [(line: Int, fields: [String])], repairs: [CSVSyntaxError]) {
    let reader = CSVReader(source: ArraySource(bytes: bytes, step: step), file: "test.csv", bufferSize: bufferSize)
    reader.strict = strict
    var result: [(Int, [String])] = []
    while try reader.next() { result.append((reader.line, (0..<reader.fieldCount).map(reader.string))) }
    return (result, reader.repairs)
}

@Suite("CSV reader")
struct CSVReaderTests {
    @Test("quoted fields keep commas, doubled quotes and newlines")
    func quotedFields() throws {
        let rows = try records("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nlast,,\"\"\n")
        #expect(rows.map(\.fields) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["last", "", ""]])
        #expect(rows.map(\.line) == [1, 2, 4])
    }

    @Test("CRLF, LF and CR line endings may be mixed", arguments: [1, 2, 5, 64])
    func mixedLineEndings(step: Int) throws {
        let rows = try records("h1,h2\r\n1,2\n3,4\r5,6\r\n", step: step)
        #expect(rows.map(\.fields) == [["h1", "h2"], ["1", "2"], ["3", "4"], ["5", "6"]])
        #expect(rows.map(\.line) == [1, 2, 3, 4])
    }

    @Test("a byte-order mark is skipped, a missing final newline is fine")
    func bomAndNoFinalNewline() throws {
        let rows = try records(bytes: [0xEF, 0xBB, 0xBF] + Array("id,name\n1,x".utf8))
        #expect(rows.map(\.fields) == [["id", "name"], ["1", "x"]])
    }

    @Test("blank lines are skipped, but a quoted empty field is a record")
    func blankLines() throws {
        let rows = try records("a\n\n1\r\n\r\n\"\"\n")
        #expect(rows.map(\.fields) == [["a"], ["1"], [""]])
        #expect(rows.map(\.line) == [1, 3, 5])
    }

    @Test("a record longer than the buffer grows it")
    func longRecord() throws {
        let long = String(repeating: "x", count: 1000)
        let rows = try records("a,b\n\(long),\"\(long)\"\n", bufferSize: 4, step: 7)
        #expect(rows[1].fields == [long, long])
    }

    @Test("an unterminated quote is an error at the quote's line and column")
    func unterminatedQuote() throws {
        do {
            _ = try records("a,b\n1,2\n3,\"open\n")
            Issue.record("expected an error")
        } catch let error as CSVSyntaxError {
            #expect(error.line == 3)
            #expect(error.column == 3)
            #expect(error.message.contains("unterminated"))
        }
    }

    @Test("with strict, text after a closing quote is an error naming line and column")
    func textAfterQuote() throws {
        do {
            _ = try records("a,b\n\"x\"y,2\n", strict: true)
            Issue.record("expected an error")
        } catch let error as CSVSyntaxError {
            #expect(error.line == 2)
            #expect(error.column == 1, "the column where the offending field begins")
        }
    }

    @Test("a field's place counts characters, not bytes, however long the line before it")
    func characterColumns() throws {
        // Multi-byte characters (2, 3 and 4 bytes) before the field, at every alignment.
        for prefix in ["", "a", "é", "ab€", "𝄞x", "aaaaaaa", "éééé", "a€a€a€a€a", "abcdefghijklmnop", "ñandú,café,Zürich,東京"] {
            for padding in 0..<9 {
                let first = String(repeating: "x", count: padding) + prefix
                let line = "\(first),target\n"
                let reader = CSVReader(source: ArraySource(line, step: 64), file: "test.csv", bufferSize: 256)
                #expect(try reader.next())
                let field = reader.fieldCount - 1
                #expect(reader.place(ofField: field).column == first.count + 2, "\(first)")
            }
        }
    }
}
