/// Dates of which only the year, or the year and month, are known, as catalogues and
/// bibliographies write them (`2000`, `1999-03`, `1999-03-00`): a `date` column with
/// `partial: true`. Stored as `YYYY-MM-DD` with `00` for what is unknown (`2000-00-00`,
/// `1999-03-00`): one width, so text order is still date order (a year sorts before its
/// months and days), and the zeros say the precision.
enum PartialDate {
    /// `YYYY`, `YYYY-MM`, `YYYY-MM-DD` (ISO 8601; month and day may be `00`), or `format`
    /// (whose month and day may be zero), as stored text.
    static func convert(_ bytes: UnsafeRawBufferPointer, format: ValueFormat?) -> ConvertedValue {
        var fields = ValueFormat.Fields()
        if let format, !format.isISO8601 {
            guard let read = format.read(bytes) else {
                return .invalid("expected a date as \(format.pattern) (month and day may be 00)")
            }
            fields = read
            // A pattern without a month (`yyyy`) or day (`yyyy-MM`) leaves them unknown.
            let hasMonth = format.tokens.contains { if case .month = $0 { return true } else { return false } }
            let hasDay = format.tokens.contains { if case .day = $0 { return true } else { return false } }
            if !hasMonth { fields.month = 0 }
            if !hasDay || !hasMonth { fields.day = 0 }
        } else {
            var scanner = Scanner(bytes: bytes)
            guard let year = scanner.digits(4, 4) else { return invalidISO }
            fields.year = year
            fields.month = 0
            fields.day = 0
            if scanner.expect(UInt8(ascii: "-")) {
                guard let month = scanner.digits(2, 2) else { return invalidISO }
                fields.month = month
                if scanner.expect(UInt8(ascii: "-")) {
                    guard let day = scanner.digits(2, 2) else { return invalidISO }
                    fields.day = day
                }
            }
            guard scanner.atEnd else { return invalidISO }
        }
        guard isValid(fields) else {
            let expected = format.map { $0.isISO8601 ? nil : "expected a date as \($0.pattern)" } ?? nil
            return .invalid(
                "\(expected ?? "expected a date YYYY, YYYY-MM or YYYY-MM-DD"): "
                    + "no such month or day (an unknown day is 00, an unknown month 00-00)")
        }
        return .text(ValueConverter.text(of: fields, time: false))
    }

    private static var invalidISO: ConvertedValue {
        .invalid("expected a date YYYY, YYYY-MM or YYYY-MM-DD (month and day may be 00)")
    }

    /// A real date, or a month with day 0, or a year with month and day 0.
    private static func isValid(_ fields: ValueFormat.Fields) -> Bool {
        if fields.month == 0 { return fields.day == 0 }
        guard fields.month <= 12 else { return false }
        if fields.day == 0 { return true }
        return ValueConverter.isValidDate(fields)
    }
}
