extension ValueConverter {
    /// `H:MM:SS` (hours may pass 24), optionally with a fraction of a second (dropped) and a
    /// zone (`Z`, `+02:00`), as `xsd:time` allows: the local time of day in seconds and the
    /// zone in seconds east of UTC (nil without one). Nil when the bytes are not a time.
    static func timeOfDay(_ bytes: UnsafeRawBufferPointer) -> (seconds: Int, zone: Int?)? {
        var scanner = Scanner(bytes: bytes)
        guard let hours = scanner.digits(1, 4), scanner.expect(UInt8(ascii: ":")),
            let minutes = scanner.digits(2, 2), scanner.expect(UInt8(ascii: ":")),
            let seconds = scanner.digits(2, 2), minutes < 60, seconds < 60
        else { return nil }
        if scanner.expect(UInt8(ascii: ".")) && scanner.fraction() == nil { return nil }
        var zone: Int?
        if !scanner.atEnd {
            guard let offset = scanner.zone(), abs(offset) <= 14 * 3600 else { return nil }
            zone = offset
        }
        guard scanner.atEnd else { return nil }
        return (hours * 3600 + minutes * 60 + seconds, zone)
    }

    /// The zone of a time of day or of a date and time, in seconds east of UTC; NULL when
    /// the value has none.
    func convertUTCOffset(_ bytes: UnsafeRawBufferPointer) -> ConvertedValue {
        if let time = Self.timeOfDay(bytes) { return time.zone.map { .integer(Int64($0)) } ?? .null }
        var scanner = Scanner(bytes: bytes)
        var fields = ValueFormat.Fields()
        guard scanner.readISO8601(into: &fields), scanner.atEnd else {
            return .invalid("expected a time of day or a date and time, with or without a zone (06:00:00+02:00)")
        }
        return fields.zoneSeconds.map { .integer(Int64($0)) } ?? .null
    }
}
