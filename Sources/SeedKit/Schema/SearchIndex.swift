/// A full-text index over some text columns of a table (`search:` in a schema): an SQLite
/// FTS5 table with external content, so the text is stored once, in the table itself.
///
/// Place names are not English prose: the tokenizer is `unicode61 remove_diacritics 2`
/// (`Žirmūnai` matches `zirmunai`), never `porter`, whose stemming mangles names. `prefix`
/// adds prefix indexes so that a query typed letter by letter (`zirm*`) stays fast.
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

    /// The tokenizer: Unicode-aware, case- and diacritics-insensitive, no stemming.
    public static let tokenizer = "unicode61 remove_diacritics 2"
    /// The largest prefix length FTS5 accepts.
    static let maximumPrefix = 999

    /// The tables FTS5 keeps an index in (its shadow tables), for sizes and checks. No
    /// `_docsize`: the index is built with `columnsize=0` (see `createStatement`).
    public var shadowTables: [String] { ["data", "idx", "config"].map { name + "_" + $0 } }

    /// `CREATE VIRTUAL TABLE ... USING fts5(...)` over `table`, whose integer key is `rowID`.
    ///
    /// `columnsize=0`: FTS5 keeps no `_docsize` table of token counts per row (on small feeds
    /// it was half the index); `bm25()` then counts a matched row's tokens from the table's
    /// own text, which for a page of results costs microseconds. `detail` stays `full`: the
    /// prefix phrases a search box sends (`"gare du n" *`) need token positions.
    func createStatement(table: String, rowID: String) -> String {
        var options = columns.map(quoted)
        options.append("content=\(quoted(table))")
        options.append("content_rowid=\(quoted(rowID))")
        options.append("tokenize='\(Self.tokenizer)'")
        options.append("columnsize=0")
        if !prefix.isEmpty { options.append("prefix='\(prefix.map(String.init).joined(separator: " "))'") }
        return "CREATE VIRTUAL TABLE \(quoted(name)) USING fts5(\(options.joined(separator: ", ")))"
    }
}
