import SeedSystem
import Foundation

/// One problem found in the input: where it is, what the value was, what is wrong.
public struct BuildIssue: Sendable, CustomStringConvertible {
    /// What kind of problem an issue is, and whether it fails the build (`isError`); its notice code is `noticeCode`.
    public enum Kind: String, Sendable, CaseIterable {
        // Errors: the build fails.
        case malformedRow = "malformed row"
        /// XML that is not well-formed, or refused for safety (entity declarations).
        case malformedXML = "malformed XML"
        case invalidValue = "invalid value"
        case missingValue = "missing value"
        case missingColumn = "missing column"
        case missingFile = "missing file"
        case duplicateKey = "duplicate key"
        case danglingReference = "dangling reference"
        /// A mapping that matched nothing, under `--strict`.
        case unmatchedMappingError = "mapping matched nothing (--strict)"
        /// A mapping that read more, or less, than it says, under `--strict`.
        case ambiguousMappingError = "mapping read ambiguously (--strict)"
        // Warnings: reported, the build goes on.
        case unknownColumn = "unknown column"
        case unusedFile = "unused file"
        case nullReference = "unresolved reference kept as NULL"
        /// Keys of a reference with `onMissing: keep` that name no row of the input: one
        /// summarised warning per reference.
        case outsideReference = "reference to objects outside the input"
        /// A table with no rows, a column whose source matched nothing, an input that gave no
        /// rows (see `MappingCheck`).
        case unmatchedMapping = "mapping matched nothing"
        /// An element found at several paths, a source that matched more than once in one
        /// record (see `MappingCheck`).
        case ambiguousMapping = "mapping read ambiguously"
        /// CSV that Python's csv module accepts, read the same way (errors with `--strict`).
        case repairedSyntax = "repaired CSV syntax"
        /// A 0-byte input file, treated as absent.
        case emptyFile = "empty file"
        /// `--lenient`: a value that does not convert, in a nullable column.
        case invalidValueAsNull = "invalid value kept as NULL"
        /// `--lenient`: a row that cannot be kept (counted in `seedgen_inputs.rejected`).
        case rowLeftOut = "row left out"
        /// A CSV row equal in every field to an earlier row of its file, left out (one issue per
        /// file, with the count): `--strict` makes it `duplicateKey`.
        case repeatedRow = "row repeated whole"
        /// `duplicates: merge`: another version of an object already read; the highest is kept.
        case otherVersion = "another version of an object"
        /// Built-in schemas: objects (elements with an `id`) of a type no table reads.
        case unreadObjects = "objects not read"
        /// A reference by id alone to objects told apart by more than their id (NeTEx
        /// siblings sharing an id, told apart by `order`): the first of them is named.
        case ambiguousReference = "reference naming several objects"
        /// A reference by a key that objects of two other documents hold, and no object of
        /// its own document (NeTEx ids are unique per document): an error naming both files.
        case ambiguousDocumentReference = "reference two other documents answer"
        /// Objects of several documents holding one key with other values: each is its own
        /// (NeTEx ids are unique per document).
        case sharedKey = "key of objects in several documents"

        /// A row of a `derive:` table's `warnings` query (a calendar cut short, say).
        case derivedRows = "derived rows"

        /// Data the seed can hold but an app would show wrongly (times running backwards, a
        /// time zone that does not exist, invalid text repaired): a warning; `--strict` makes
        /// it `misleadingDataError`. See `Validate/`.
        case misleadingData = "data an app would show wrongly"
        case misleadingDataError = "data an app would show wrongly (--strict)"
        /// What MobilityData's validator warns of as a best practice (names in mixed case, a
        /// feed_info.txt, a calendar not expired): a warning whatever the flags.
        case bestPractice = "best practice"
        /// `--lenient` (or `--allow-dangling`): a data error found after loading (a GTFS id that
        /// names nothing) in a row that is kept as written.
        case errorKept = "data error kept as written"
        /// `--lenient`: an optional file whose header cannot be read as the schema says (a
        /// required column missing, a column twice), left out whole.
        case fileLeftOut = "file left out"

        /// True when an issue of this kind fails the build.
        public var isError: Bool {
            switch self {
            case .unknownColumn, .unusedFile, .nullReference, .outsideReference, .unmatchedMapping, .ambiguousMapping,
                .repairedSyntax, .emptyFile, .invalidValueAsNull, .rowLeftOut, .repeatedRow, .otherVersion,
                .unreadObjects, .ambiguousReference,
                .sharedKey, .derivedRows,
                .misleadingData, .errorKept, .fileLeftOut, .bestPractice:
                return false
            default: return true
            }
        }
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The input file (as given: `feed/stops.txt`, `feed.zip:stops.txt`).
    public var file: String
    /// 1-based line, when the issue is in a line.
    public var line: Int?
    /// In a notice recomputed from a built seed (`seedgen report`), which has no lines: the
    /// row's key in its table (`stop_id 'S1'`).
    public var row: String?
    /// 1-based character column where the offending field (CSV) or element (XML) begins.
    public var column: Int?
    /// The field (CSV header name, XML path) or schema column concerned.
    public var field: String?
    /// The offending value, as read.
    public var value: String?
    /// What is wrong, in words.
    public var message: String
    /// The notice code (`foreign_key_violation`): MobilityData's GTFS validator's code where it
    /// has one (see `NoticeCode`); nil for the kind's own (`Kind.noticeCode`).
    public var code: String?
    /// In a region seed: the feed the file belongs to (set by `IssueLog` from the file).
    public var feed: String?

    /// An issue of `kind` at a place of `file`, about `field` and its `value`, saying `message`; `code` when not its
    /// kind's own.
    public init(
        kind: Kind, file: String, line: Int? = nil, row: String? = nil, column: Int? = nil, field: String? = nil,
        value: String? = nil, message: String, code: String? = nil
    ) {
        self.kind = kind
        self.code = code
        self.file = file
        self.line = line
        self.row = row
        self.column = column
        self.field = field
        self.value = value
        self.message = message
    }

    /// `file:line:column: field 'name': value 'x': message [code]`
    public var description: String { text(showingCode: true) }

    /// The description; the code is shown when it is not the kind's own (nor, in a group, the group's).
    func text(showingCode: Bool) -> String {
        var text = file
        if let line { text += ":\(line)" }
        if let line = line, let column, line > 0 { text += ":\(column)" }
        if let row { text += ": \(row)" }
        text += ":"
        if let field { text += " \(field):" }
        if let value { text += " '\(Self.shorten(value))'" }
        return text + " " + message + (feed.map { " (feed '\($0)')" } ?? "")
            + (showingCode ? code.map { " [\($0)]" } ?? "" : "")
    }

    /// The notice code, this issue's own or its kind's.
    public var noticeCode: String { code ?? kind.noticeCode }

    static func shorten(_ value: String) -> String {
        value.count > 200 ? String(value.prefix(200)) + "..." : value
    }
}

/// Collects issues grouped by kind, file and field: a million bad values are counted, and
/// only the first few of each group are kept as examples. Safe to use from any thread: the
/// reader and the writer record, every read takes the same lock.
public final class IssueLog: @unchecked Sendable {
    // @unchecked: every stored property is behind `lock`.
    /// The issues of one kind, file and field: how many, and the first few.
    public struct Group: Sendable {
        /// Their kind.
        public var kind: BuildIssue.Kind
        /// The notice code given to the issues of the group, when not their kind's own.
        public var code: String?
        /// Their file.
        public var file: String
        /// Their field, if any.
        public var field: String?
        /// How many there are.
        public var count: Int
        /// The first `examplesPerGroup` of them.
        public var examples: [BuildIssue]
    }

    /// How many examples each group keeps.
    public let examplesPerGroup: Int
    private let lock = Lock()
    // Guarded by `lock`.
    private var storedGroups: [Group] = []
    private var index: [String: Int] = [:]
    /// Sees every issue as it is recorded, under the log's lock (`--notices`: `NoticeReport`).
    private let observer: (@Sendable (BuildIssue) -> Void)?

    /// - Parameter observer: called with every issue recorded, in order, under the log's lock.
    public init(examplesPerGroup: Int = 5, observer: (@Sendable (BuildIssue) -> Void)? = nil) {
        self.examplesPerGroup = examplesPerGroup
        self.observer = observer
    }

    /// In a region build: the feed of each input file, by its path as messages show it
    /// (`InputFeeds.feedNames`). Issues in those files name their feed.
    var feedOfFile: [String: String] = [:]

    /// Records an issue; safe to call from the reader and the writer thread.
    public func record(_ issue: BuildIssue) {
        var issue = issue
        if issue.feed == nil, !feedOfFile.isEmpty { issue.feed = feedOfFile[issue.file] }
        let key = "\(issue.kind.rawValue)\u{1}\(issue.code ?? "")\u{1}\(issue.file)\u{1}\(issue.field ?? "")"
        lock.lock()
        defer { lock.unlock() }
        observer?(issue)
        if let position = index[key] {
            storedGroups[position].count += 1
            if storedGroups[position].examples.count < examplesPerGroup {
                storedGroups[position].examples.append(issue)
            }
        } else {
            index[key] = storedGroups.count
            storedGroups.append(
                Group(
                    kind: issue.kind, code: issue.code, file: issue.file, field: issue.field, count: 1,
                    examples: [issue]))
        }
    }

    /// The groups so far, in the order their first issue was recorded.
    public var groups: [Group] { lock.withLock { storedGroups } }

    /// Errors recorded (each issue of each error group).
    public var errorCount: Int { lock.withLock { storedGroups.filter(\.kind.isError).reduce(0) { $0 + $1.count } } }
    /// Warnings recorded (each issue of each warning group).
    public var warningCount: Int {
        lock.withLock { storedGroups.filter { !$0.kind.isError }.reduce(0) { $0 + $1.count } }
    }
    /// True once an error was recorded: the build fails.
    public var hasErrors: Bool { lock.withLock { storedGroups.contains { $0.kind.isError } } }

    /// The count of each notice code, errors then warnings, each in code order:
    /// `errors: foreign_key_violation 2, invalid_date 1; warnings: expired_calendar 4`.
    public func countsByCode() -> String {
        let groups = self.groups
        func counts(errors: Bool) -> String {
            var counts: [String: Int] = [:]
            for group in groups where group.kind.isError == errors {
                counts[group.code ?? group.kind.noticeCode, default: 0] += group.count
            }
            return counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        let errors = counts(errors: true), warnings = counts(errors: false)
        return "errors: " + (errors.isEmpty ? "none" : errors) + "; warnings: " + (warnings.isEmpty ? "none" : warnings)
    }

    /// The issues as text: each group once, with its count and examples.
    public func report(errors: Bool) -> String {
        var lines: [String] = []
        for group in groups where group.kind.isError == errors {
            let label = errors ? "error" : "warning"
            if group.count == 1 {
                lines.append("\(label): \(group.examples[0])")
            } else {
                let field = group.field.map { " (\($0))" } ?? ""
                let code = group.code.map { " [\($0)]" } ?? ""
                lines.append(
                    """
                    \(label): \(group.file): \(group.count) × \(group.kind.rawValue)\(code)\(field); first \
                    \(group.examples.count):
                    """
                )
                for example in group.examples { lines.append("  " + example.text(showingCode: false)) }
            }
        }
        return lines.joined(separator: "\n")
    }
}
