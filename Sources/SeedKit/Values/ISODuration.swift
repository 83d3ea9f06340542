/// Reads ISO 8601 durations (`PT1M18S`, `P1DT2H`, `-PT30S`, `P2W`) as whole seconds, the
/// way timetables (TransXChange run times, NeTEx wait times) write them.
enum ISODuration {
    /// The seconds `bytes` stands for, or why it is not a duration this reader accepts.
    static func seconds(_ bytes: UnsafeRawBufferPointer) -> ConvertedValue {
        let expected = "expected an ISO 8601 duration PnDTnHnMnS (PT1M18S)"
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "P") else { return .invalid(expected) }
        index += 1
        var total: Int64 = 0
        var inTime = false
        var parts = 0
        // The designators allowed next, in order: a duration names each unit once, largest first.
        var rank = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTime else { return .invalid(expected) }
                inTime = true
                index += 1
                guard index < bytes.count else { return .invalid("\(expected): nothing follows 'T'") }
                continue
            }
            var number: Int64 = 0
            var digits = 0
            while index < bytes.count, bytes[index] &- 48 < 10 {
                let (m, o1) = number.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(bytes[index] &- 48))
                guard !o1, !o2 else { return .invalid("\(expected): the number is too large") }
                number = a
                digits += 1
                index += 1
            }
            guard digits > 0, index < bytes.count else { return .invalid(expected) }
            if bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                return .invalid("fractions are not stored: a duration is whole seconds")
            }
            let designator = bytes[index]
            index += 1
            let unit: Int64
            let unitRank: Int
            switch (inTime, designator) {
            case (false, UInt8(ascii: "Y")), (false, UInt8(ascii: "M")):
                return .invalid("years and months have no fixed length in seconds; use days (P30D)")
            case (false, UInt8(ascii: "W")): unit = 604_800; unitRank = 1
            case (false, UInt8(ascii: "D")): unit = 86_400; unitRank = 2
            case (true, UInt8(ascii: "H")): unit = 3600; unitRank = 3
            case (true, UInt8(ascii: "M")): unit = 60; unitRank = 4
            case (true, UInt8(ascii: "S")): unit = 1; unitRank = 5
            default: return .invalid(expected)
            }
            guard unitRank > rank else { return .invalid("\(expected): each unit once, largest first") }
            rank = unitRank
            let (product, o1) = number.multipliedReportingOverflow(by: unit)
            let (sum, o2) = total.addingReportingOverflow(product)
            guard !o1, !o2 else { return .invalid("\(expected): the number is too large") }
            total = sum
            parts += 1
        }
        guard parts > 0 else { return .invalid("\(expected): no number and unit after 'P'") }
        return .integer(negative ? -total : total)
    }
}
