import SeedArchive

/// How values read from files appear in messages: at most 200 characters each, so a damaged or
/// hostile file (a 50 MB `seedVersion` in a manifest) cannot flood a log.
enum MessageText {
    /// The most characters of one value a message quotes.
    static let limit = 200

    /// `text`, cut to ``limit`` characters, saying how long it was when cut.
    static func value(_ text: String) -> String {
        var prefix = Substring()
        var count = 0
        for character in text {
            if count == limit { return String(prefix) + "... (\(text.utf8.count) bytes in all)" }
            prefix.append(character)
            count += 1
        }
        return text
    }

    /// `schema version 3, seed version <at most 200 characters>`.
    static func stamp(_ stamp: SeedStamp) -> String {
        "schema version \(stamp.schemaVersion), seed version \(value(stamp.seedVersion))"
    }

    /// What to do with a file that is not a seed at all.
    static let packHint =
        """
        (a seed is built with `seedgen build` and shipped as `seed.sqlite.gz` with `seedgen pack`; any gzip of a \
        seed works too)
        """
}
