import Testing
@testable import SeedKit

/// What Python's csv module accepts by default is read the same way, and reported.
@Suite("CSV syntax repairs")
struct CSVRepairTests {
    func read(_ text: String, bufferSize: Int = 8, strict: Bool = false) throws -> (fields: [[String]], repairs: [CSVSyntaxError]) {
        let result = try readAll(bytes: Array(text.utf8), bufferSize: bufferSize, strict: strict)
        return (result.records.map(\.fields), result.repairs)
    }

    @Test("text after a closing quote is kept in the value, as Python's csv reads it", arguments: [8, 1 << 16])
    func textAfterClosingQuote(bufferSize: Int) throws {
        let result = try read("id,name,type\n602,\"\"Ilha do Bispo\"\",3\n7,\"https://a.example/\" ,4\n8,\"x\"\"y\"z,5\n", bufferSize: bufferSize)
        // Python: ['602', 'Ilha do Bispo""', '3'], ['7', 'https://a.example/ ', '4'], ['8', 'x"yz', '5']
        #expect(result.fields.dropFirst().map { $0[1] } == ["Ilha do Bispo\"\"", "https://a.example/ ", "x\"yz"])
        #expect(result.fields.allSatisfy { $0.count == 3 })
        #expect(result.repairs.map(\.line) == [2, 3, 4], "one repair per field, never counted twice across buffer refills")
        #expect(result.repairs[0].column == 5, "the column where the field starts")
        #expect(result.repairs[0].value == "\"\"Ilha do Bispo\"\"")
        #expect(result.repairs[0].message.contains("after a closing quote"))
    }

    @Test("a quote inside an unquoted field is literal")
    func quoteInUnquotedField() throws {
        let result = try read("a,b\n5\" pipe,x\n")
        #expect(result.fields[1] == ["5\" pipe", "x"])
        #expect(result.repairs.count == 1 && result.repairs[0].line == 2 && result.repairs[0].column == 1)
    }

    @Test("spaces before an opening quote are skipped: the field is quoted")
    func spacesBeforeQuote() throws {
        let result = try read("a, b, c\n1, \"Vicente, Norte\", 3\n")
        #expect(result.fields[1] == ["1", "Vicente, Norte", " 3"])
        #expect(result.repairs.count == 1)
        #expect(result.repairs[0].column == 3)
    }

    @Test("well-formed CSV needs no repair")
    func noRepair() throws {
        let result = try read("a,b\n\"x, \"\"y\"\"\",2\n  padded  ,3\n")
        #expect(result.repairs.isEmpty)
        #expect(result.fields[1] == ["x, \"y\"", "2"] && result.fields[2] == ["  padded  ", "3"])
    }

    @Test("strict: every repair is an error", arguments: ["a\n\"x\"y\n", "a\nx\"y\n", "a\n  \"x\"\n"])
    func strict(text: String) throws {
        #expect(throws: CSVSyntaxError.self) { try read(text, strict: true) }
        #expect(try read(text).repairs.count >= 1)
    }
}
