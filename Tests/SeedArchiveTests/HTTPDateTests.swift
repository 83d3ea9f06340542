import Foundation
import SeedArchive
import Testing

/// `Last-Modified` as static hosts send it: what tells a stale `index.json.sig` from a tampered one.
@Suite struct HTTPDateTests {
    @Test("IMF-fixdates, leap days and the epoch, as Python's calendar.timegm reads them")
    func parses() {
        let dates: [(String, TimeInterval)] = [
            ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),
            ("Tue, 29 Feb 2028 12:00:00 GMT", 1_835_438_400),
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
            ("Fri, 27 Nov 2026 07:52:03 GMT", 1_795_765_923),
        ]
        for (text, seconds) in dates { #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == seconds, "\(text)") }
    }

    @Test("anything else is no date")
    func refuses() {
        for text in ["", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 CET",
                     "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT"] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }
}
