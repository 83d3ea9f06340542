/// A full-text index over some text columns of a table (`search:` in a schema): an SQLite
/// FTS5 table with external content, so the text is stored once, in the table itself.
///
/// Place names are not English prose: the tokenizer is `unicode61 remove_diacritics 2`
/// (`Žirmūnai` matches `zirmunai`), never `porter`, whose stemming mangles names. `prefix`
/// adds prefix indexes so that a query typed letter by letter (`zirm*`) stays fast.
///
/// Letters that decompose to no base letter (`ł`, `ø`, `đ`, `ß`, `æ`...) are not folded by
/// unicode61, so the index reads the table through a view (``textView``) that gives each value
/// followed by its folded form when they differ (`Dworzec Główny Dworzec Glowny`): `glowny` and
/// `Główny` both match, and the query needs no folding of its own. With `substring`, a second
/// FTS5 index with the `trigram` tokenizer (``substringName``) finds text inside names written
/// without spaces (Japanese, Chinese, Thai: `バスターミナル` in `甲府駅バスターミナル(4番)`); it
/// reads only the values written in such a script (``substringView``).
public struct SearchIndex: Sendable, Equatable {
    /// The FTS5 table's name; default `<table>_search`.
    public var name: String
    /// The indexed text columns of the table.
    public var columns: [String]
    /// Prefix lengths with an index of their own (FTS5's `prefix` option), e.g. `[2, 3]`.
    public var prefix: [Int]

    /// Also a `trigram` index of the same columns, for text inside words (``substringName``).
    public var substring: Bool

    public init(name: String, columns: [String], prefix: [Int] = [], substring: Bool = false) {
        self.name = name
        self.columns = columns
        self.prefix = prefix
        self.substring = substring
    }

    /// The view both indexes read the table through: the id and each column with its folded
    /// form appended (see the type's comment).
    public var textView: String { name + "_text" }
    /// The trigram index's name, when `substring` is set.
    public var substringName: String { name + "_substring" }
    /// The view the trigram index reads: the values with a letter of a script written without
    /// spaces (``spacelessLetters``), NULL for the others, which the word index answers.
    public var substringView: String { substringName + "_text" }

    /// A GLOB character class of the scripts written without spaces between words: Hiragana,
    /// Katakana, CJK ideographs (and their extensions and compatibility forms), halfwidth
    /// Katakana, Thai, Lao, Khmer, Myanmar.
    public static let spacelessLetters = "[぀-ヿ㐀-䶿一-鿿豈-﫿ｦ-ﾟ฀-๿຀-໿ក-៿က-႟]"

    /// Letters Unicode does not decompose into a base letter and a mark, with the plain
    /// letters a reader types for them (as ICU's Latin-ASCII transliteration has them).
    static let foldedLetters: [(String, String)] = [
        ("ł", "l"), ("Ł", "L"), ("ø", "o"), ("Ø", "O"), ("đ", "d"), ("Đ", "D"), ("ð", "d"), ("Ð", "D"),
        ("ħ", "h"), ("Ħ", "H"), ("ı", "i"), ("ŀ", "l"), ("Ŀ", "L"), ("ŧ", "t"), ("Ŧ", "T"), ("ŋ", "n"), ("Ŋ", "N"),
        ("ß", "ss"), ("ẞ", "SS"), ("æ", "ae"), ("Æ", "AE"), ("œ", "oe"), ("Œ", "OE"), ("þ", "th"), ("Þ", "TH"),
    ]

    /// The tokenizer: Unicode-aware, case- and diacritics-insensitive, no stemming.
    public static let tokenizer = "unicode61 remove_diacritics 2"
    /// The largest prefix length FTS5 accepts.
    static let maximumPrefix = 999

    /// The tables FTS5 keeps an index in (its shadow tables), for sizes and checks. No
    /// `_docsize`: the index is built with `columnsize=0` (see `createStatement`).
    public var shadowTables: [String] {
        let indexes = substring ? [name, substringName] : [name]
        return indexes.flatMap { index in ["data", "idx", "config"].map { index + "_" + $0 } }
    }

    /// The names the index adds to the seed besides its own: the view, the trigram index and
    /// the shadow tables.
    public var addedNames: [String] { [textView] + (substring ? [substringName, substringView] : []) + shadowTables }

    /// `CREATE VIEW` of ``textView`` over `table`, whose integer key is `rowID`.
    func viewStatement(table: String, rowID: String) -> String {
        let values = columns.map { column -> String in
            let folded = Self.foldedLetters.reduce(quoted(column)) { text, pair in "replace(\(text), '\(pair.0)', '\(pair.1)')" }
            return "CASE WHEN \(folded) IS \(quoted(column)) THEN \(quoted(column)) ELSE \(quoted(column)) || ' ' || \(folded) END AS \(quoted(column))"
        }
        return "CREATE VIEW \(quoted(textView)) AS SELECT \(quoted(rowID)), \(values.joined(separator: ", ")) FROM \(quoted(table))"
    }

    /// `CREATE VIEW` of ``substringView`` over `table`.
    func substringViewStatement(table: String, rowID: String) -> String {
        let values = columns.map { "CASE WHEN \(quoted($0)) GLOB '*\(Self.spacelessLetters)*' THEN \(quoted($0)) END AS \(quoted($0))" }
        return "CREATE VIEW \(quoted(substringView)) AS SELECT \(quoted(rowID)), \(values.joined(separator: ", ")) FROM \(quoted(table))"
    }

    /// `CREATE VIRTUAL TABLE ... USING fts5(...)` over `table`, whose integer key is `rowID`.
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

    /// `CREATE VIRTUAL TABLE` of the trigram index (case-insensitive; diacritics are kept: the
    /// trigram tokenizer folds them only from SQLite 3.45 on, and its users' scripts have none).
    func substringStatement(rowID: String) -> String {
        var options = columns.map(quoted)
        options += ["content=\(quoted(substringView))", "content_rowid=\(quoted(rowID))", "tokenize='trigram'", "columnsize=0"]
        return "CREATE VIRTUAL TABLE \(quoted(substringName)) USING fts5(\(options.joined(separator: ", ")))"
    }
}
