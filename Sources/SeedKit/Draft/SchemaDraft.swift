import Foundation

/// `seedgen schema draft`: reads XML inputs once, streaming (`XMLStructureSurvey`), plans
/// the tables (`SchemaDraftPlan`) and writes them as a schema file that builds as it is,
/// commented with what was seen: how many records, how many had each value, examples, and
/// what the draft could not keep.
public struct SchemaDraft: Sendable {
    /// The schema's YAML text.
    public let text: String
    /// The input files read.
    public let files: [String]
    /// How many tables the draft has.
    public let tableCount: Int

    /// Drafts a schema for the XML files among `inputs` (folders, zips, files).
    /// - Parameters:
    ///   - name: the schema's name; by default the first input's, in snake case.
    ///   - hashBudget: the most value hashes kept to judge keys and references.
    public static func draft(inputs: [String], name: String? = nil, hashBudget: Int = 2_000_000) throws -> SchemaDraft {
        let set = try InputSet(paths: inputs)
        let survey = XMLStructureSurvey(hashBudget: hashBudget)
        var read: [InputFile] = []
        var skipped: [String] = []
        for file in set.files {
            guard Self.looksLikeXML(file) else {
                skipped.append(file.name)
                continue
            }
            try survey.read(file)
            read.append(file)
        }
        guard !read.isEmpty else {
            throw SchemaDraftError(
                code: .noXML,
                message: "\(inputs.joined(separator: ", ")): no XML file among the \(set.files.count) input files")
        }
        var structure = survey.finish()
        structure.unreadFiles = skipped
        if !skipped.isEmpty {
            structure.notes.append(
                "not XML, not read: \(skipped.prefix(10).joined(separator: ", "))\(skipped.count > 10 ? ", ..." : "")")
        }
        let plan = SchemaDraftPlan(structure: structure)
        let schemaName =
            name
            ?? SchemaDraftPlan.identifier(
                ((inputs.first ?? "draft") as NSString).lastPathComponent.components(separatedBy: ".")[0])
        let text = SchemaDraftText(plan: plan, name: schemaName, inputs: inputs).text
        // The draft must build as it is: a schema it cannot read is a bug here, said plainly.
        do { _ = try Schema.parse(Array(text.utf8), file: "the draft") } catch {
            throw SchemaDraftError(
                code: .unreadableDraft,
                message: "seedgen drafted a schema it cannot read (please report it): \(error)\n\(text)", cause: error)
        }
        return SchemaDraft(text: text, files: read.map(\.name), tableCount: plan.tables.count)
    }
}

extension SchemaDraft {
    /// True when `file` starts as XML does: `<` after an optional byte order mark and white
    /// space, or a UTF-16 byte order mark (a zip or a CSV file among the inputs is not read).
    static func looksLikeXML(_ file: InputFile) -> Bool {
        guard let source = try? file.open() else { return false }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 1)
        defer { buffer.deallocate() }
        guard let count = try? source.read(into: buffer), count > 0 else { return false }
        let bytes = buffer.prefix(count)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        let start =
            bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.index(bytes.startIndex, offsetBy: 3) : bytes.startIndex
        return bytes[start...].first { ![9, 10, 13, 32].contains($0) } == UInt8(ascii: "<")
    }
}

/// A draft that cannot be made: no XML among the inputs, or a draft seedgen cannot read back.
///
/// Compare ``code`` to react to a kind of failure; ``description`` is the line to log.
public struct SchemaDraftError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, e.g. `no-xml`.
        public let name: String
        /// The code's ``name``.
        public var description: String { name }

        /// No input file is XML.
        public static let noXML = Code(name: "no-xml")
        /// The drafted schema does not read back (a bug of seedgen's; ``cause`` is the schema error).
        public static let unreadableDraft = Code(name: "unreadable-draft")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What is wrong.
    public var message: String
    /// The error underneath, when there is one.
    public var cause: (any Error & Sendable)?

    /// An error of kind `code`, saying `message`, over `cause`.
    public init(code: Code, message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// `error: <message>`.
    public var description: String { "error: " + message }
}
