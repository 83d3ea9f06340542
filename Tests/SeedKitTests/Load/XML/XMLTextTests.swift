import Testing
@testable import SeedKit

/// The byte helpers the importer runs on every value.
@Suite("XML text helpers")
struct XMLTextTests {
    private func items(_ text: String, separator: String? = nil, open: String = "", close: String = "") -> [String] {
        let value = Array(text.utf8)
        return XMLText.items(of: value, separator: separator.map { Array($0.utf8) }, open: Array(open.utf8), close: Array(close.utf8))
            .map { String(decoding: value[$0], as: UTF8.self) }
    }

    @Test("list items split on a separator, trimmed, empty ones left out")
    func separatedItems() {
        #expect(items("a, b,,c ,", separator: ",") == ["a", "b", "c"])
        #expect(items("one::two:::three", separator: "::") == ["one", "two", ":three"])
        #expect(items("x", separator: ", ") == ["x"])
        #expect(items("", separator: ",") == [])
        // One space splits at any white space, as an xsd:list (a GML posList wraps its lines).
        #expect(items(" 60.78824 7.09587\n\t60.7882  7.09578 ", separator: " ") == ["60.78824", "7.09587", "60.7882", "7.09578"])
    }

    @Test("list items between open and close marks; a near miss is not a mark")
    func delimitedItems() {
        #expect(items("<ai><machine-learning><<x>", open: "<", close: ">") == ["ai", "machine-learning", "<x"])
        #expect(items("[[a]] [b] [[c]]", open: "[[", close: "]]") == ["a", "c"])
        #expect(items("no marks here", open: "<", close: ">") == [])
        #expect(items("<unclosed", open: "<", close: ">") == [])
    }

    @Test("attribute values: &#38; becomes &, other bytes are copied as they are")
    func attributeValues() {
        for (text, expected) in [("plain", "plain"), ("a&#38;b", "a&b"), ("&#38;", "&"), ("&#3", "&#3"), ("", "")] {
            var output = Array("previous value".utf8)
            Array(text.utf8).withUnsafeBytes { XMLText.decodeAttribute($0, into: &output) }
            #expect(String(decoding: output, as: UTF8.self) == expected)
        }
    }

    @Test("positions are written in decimal")
    func decimals() {
        for value in [0, 7, 10, 12345, -1, -9080, Int(Int64.max), Int(Int64.min)] {
            #expect(XMLText.withDecimal(value) { String(decoding: $0, as: UTF8.self) } == String(value))
        }
    }
}
