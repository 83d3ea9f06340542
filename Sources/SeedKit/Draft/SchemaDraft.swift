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
                message: "seedgen drafted a schema it cannot read (please report it): \(error)\n\(text)")
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

/// A draft that cannot be made: no XML among the inputs.
public struct SchemaDraftError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { "error: " + message }
}
