import Testing
@testable import SeedKit

@Suite("ISO 8601 durations")
struct DurationTests {
    @Test("PnDTnHnMnS and PnW are whole seconds")
    func valid() {
        #expect(convert("PT1M18S", .duration) == .integer(78))
        #expect(convert("PT0S", .duration) == .integer(0))
        #expect(convert("P1DT2H3M4S", .duration) == .integer(93_784))
        #expect(convert("P2W", .duration) == .integer(1_209_600))
        #expect(convert("-PT30S", .duration) == .integer(-30))
        #expect(convert(" PT5M ", .duration) == .integer(300))
        #expect(convert("", .duration) == .null)
    }

    @Test("bad durations say what is wrong")
    func invalid() {
        let cases = [
            "P1M": "years and months have no fixed length",
            "P1Y": "years and months have no fixed length",
            "PT1.5S": "fractions are not stored",
            "PT": "nothing follows 'T'",
            "P": "no number and unit",
            "PT1S2M": "each unit once, largest first",
            "1M18S": "expected an ISO 8601 duration",
            "PT1H2D": "expected an ISO 8601 duration",
            "PT99999999999999999999S": "too large",
            "P1DT": "nothing follows 'T'",
        ]
        for (text, reason) in cases {
            guard case .invalid(let message) = convert(text, .duration) else {
                Issue.record("\(text) must be invalid")
                continue
            }
            #expect(message.contains(reason), "\(text): \(message)")
        }
    }
}
