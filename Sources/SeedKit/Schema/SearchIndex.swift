import SeedSQLite

/// A full-text index over some text columns of a table (`search:` in a schema): an SQLite
/// FTS5 table with external content, so the text is stored once, in the table itself.
///
/// Place names are not English prose: the tokenizer is `unicode61 remove_diacritics 2`
/// (`Žirmūnai` matches `zirmunai`), never `porter`, whose stemming mangles names. `prefix`
/// adds prefix indexes so that a query typed letter by letter (`zirm*`) stays fast.
///
/// The index reads the table through a view (``textView``) that adds to each value what the
/// tokenizer cannot do: letters that decompose to no base letter (`ł`, `ø`, `đ`, `ß`, `æ`...)
/// are followed by their folded form (`Dworzec Główny Dworzec Glowny`), so `glowny` and `Główny`
/// both match and the query needs no folding of its own; a value in a script written without
/// spaces between words (Japanese, Chinese, Thai...), which unicode61 takes as one word, is
/// followed by its letters one by one (`甲府駅北口 甲 府 駅 北 口`), so the same split of what the
/// user typed matches anywhere in it as a phrase (`北口`, `バスターミナル`).
public struct SearchIndex: Sendable, Equatable {
    /// The FTS5 table's name; default `<table>_search`.
    public var name: String
    /// The indexed text columns of the table.
    public var columns: [String]
    /// Prefix lengths with an index of their own (FTS5's `prefix` option), e.g. `[2, 3]`.
    public var prefix: [Int]

    public init(name: String, columns: [String], prefix: [Int] = []) {
        self.name = name
        self.columns = columns
        self.prefix = prefix
    }

    /// The view the index reads the table through: the id and each column with its folded
    /// form or its letters appended (see the type's comment).
    public var textView: String { name + "_text" }

    /// A GLOB character class of the scripts written without spaces between words: Hiragana,
    /// Katakana, CJK ideographs (and their extensions and compatibility forms), halfwidth
    /// Katakana, Thai, Lao, Khmer, Myanmar.
    public static let spacelessLetters = "[぀-ヿ㐀-䶿一-鿿豈-﫿ｦ-ﾟ฀-๿຀-໿ក-៿က-႟]"

    /// Letters Unicode does not decompose into a base letter and a mark, with the plain
    /// letters a reader types for them (as ICU's Latin-ASCII transliteration has them).
    static let foldedLetters: [(String, String)] = [
        ("ł", "l"), ("Ł", "L"), ("ø", "o"), ("Ø", "O"), ("đ", "d"), ("Đ", "D"), ("ð", "d"), ("Ð", "D"),
        ("ħ", "h"), ("Ħ", "H"), ("ı", "i"), ("ŀ", "l"), ("Ŀ", "L"), ("ŧ", "t"), ("Ŧ", "T"), ("ŋ", "n"), ("Ŋ", "N"),
        ("ß", "ss"), ("ẞ", "SS"), ("æ", "ae"), ("Æ", "AE"), ("œ", "oe"), ("Œ", "OE"), ("þ", "th"), ("Þ", "TH")
    ]

    /// The tokenizer: Unicode-aware, case- and diacritics-insensitive, no stemming.
    public static let tokenizer = "unicode61 remove_diacritics 2"
    /// The largest prefix length FTS5 accepts.
    static let maximumPrefix = 999

    /// The tables FTS5 keeps an index in (its shadow tables), for sizes and checks. No
    /// `_docsize`: the index is built with `columnsize=0` (see `createStatement`).
    public var shadowTables: [String] { ["data", "idx", "config"].map { name + "_" + $0 } }

    /// The names the index adds to the seed besides its own: the view and the shadow tables.
    public var addedNames: [String] { [textView] + shadowTables }

    /// SQL for the text `value` with each letter of ``spacelessLetters`` set apart by spaces
    /// (a recursive query over its characters; NULL stays NULL).
    static func spacedLetters(_ value: String) -> String {
        "(WITH RECURSIVE split(i, out) AS (SELECT 1, '' UNION ALL SELECT i + 1, out || CASE WHEN substr(\(value), i, "
            + "1) GLOB '\(spacelessLetters)' "
            + "THEN ' ' || substr(\(value), i, 1) || ' ' ELSE substr(\(value), i, 1) END FROM split WHERE i <= "
            + "length(\(value))) "
            + "SELECT out FROM split WHERE i = length(\(value)) + 1)"
    }

    /// `CREATE VIEW` of ``textView`` over `table`, whose integer key is `rowID`.
    func viewStatement(table: String, rowID: String) -> String {
        let values = columns.map { column -> String in
            let value = quoted(column)
            let folded = Self.foldedLetters.reduce(value) { text, pair in "replace(\(text), '\(pair.0)', '\(pair.1)')" }
            return
                "CASE WHEN \(value) GLOB '*\(Self.spacelessLetters)*' THEN \(value) || ' ' || "
                + "\(Self.spacedLetters(value)) "
                + "WHEN \(folded) IS \(value) THEN \(value) ELSE \(value) || ' ' || \(folded) END AS \(value)"
        }
        return
            """
            CREATE VIEW \(quoted(textView)) AS SELECT \(quoted(rowID)), \(values.joined(separator: ", ")) FROM \
            \(quoted(table))
            """
    }

    /// `CREATE VIRTUAL TABLE ... USING fts5(...)` reading ``textView``, whose integer key is `rowID`.
    ///
    /// `columnsize=0`: FTS5 keeps no `_docsize` table of token counts per row (on small feeds
    /// it was half the index); `bm25()` then counts a matched row's tokens from the table's
    /// own text, which for a page of results costs microseconds. `detail` stays `full`: the
    /// prefix phrases a search box sends (`"gare du n" *`) need token positions.
    func createStatement(rowID: String) -> String {
        var options = columns.map(quoted)
        options.append("content=\(quoted(textView))")
        options.append("content_rowid=\(quoted(rowID))")
        options.append("tokenize='\(Self.tokenizer)'")
        options.append("columnsize=0")
        if !prefix.isEmpty { options.append("prefix='\(prefix.map(String.init).joined(separator: " "))'") }
        return "CREATE VIRTUAL TABLE \(quoted(name)) USING fts5(\(options.joined(separator: ", ")))"
    }
}
