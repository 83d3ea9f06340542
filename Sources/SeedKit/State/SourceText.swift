/// Stored values shown as the input writes them, for messages: a time as `07:00:00`, not the
/// 25200 seconds the seed stores; a GTFS date as `20140526`, not `2014-05-26`. A value that
/// converted back this way reads as it did in the file, but for padding (`7:00:00`, `+1`).
enum SourceText {
    /// Cell `cell` of `batch`, a value of `column`.
    static func value(_ batch: RowBatch, _ cell: Int, column: Column) -> String {
        guard batch.tags[cell] == RowBatch.Tag.integer.rawValue || batch.tags[cell] == RowBatch.Tag.text.rawValue else {
            return batch.messageText(cell)
        }
        if column.type == .time, batch.tags[cell] == RowBatch.Tag.integer.rawValue { return time(batch.words[cell]) }
        if column.type == .date, batch.tags[cell] == RowBatch.Tag.text.rawValue {
            return date(String(decoding: batch.text(cell), as: UTF8.self), format: column.format)
        }
        return batch.messageText(cell)
    }

    /// `seconds` after midnight as `HH:MM:SS` (hours may pass 24).
    static func time(_ seconds: Int64) -> String {
        let sign = seconds < 0 ? "-" : ""
        let value = seconds.magnitude
        func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(sign)\(two(value / 3600)):\(two(value / 60 % 60)):\(two(value % 60))"
    }

    /// An ISO date (`2014-05-26`) in the column's `yyyyMMdd` format, when it has that one.
    static func date(_ iso: String, format: String?) -> String {
        guard format == "yyyyMMdd", iso.utf8.count == 10 else { return iso }
        return iso.replacingOccurrences(of: "-", with: "")
    }
}
