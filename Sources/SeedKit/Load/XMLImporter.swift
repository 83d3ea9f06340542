import Foundation
import SeedSQLite

/// Streams one XML file into the tables it feeds. libxml2 parses it with SAX (no tree); an
/// `XMLRecordMatcher` follows the events and finds the records, and an `XMLRecordWriter`
/// writes each record through its table's `TableLoader` when its element ends. Nested
/// records are written as they end, with their parent's id (allocated when first needed),
/// so memory holds one record per level, whatever the size of the file.
final class XMLImporter: XMLEventHandler {
    let file: InputFile
    let mapping: XMLMapping
    /// Per mapping table, its loader (shared by every file of the build).
    let loaders: [TableLoader]
    let context: BuildContext
    let progress: BuildProgress?

    // The stored properties the parser's callbacks read and write at every event opt out of
    // dynamic exclusivity checks: the importer is used from one thread, and no access to
    // them overlaps another (the checks cost 5% of the instructions of an OSM build).
    @exclusivity(unchecked) private var matcher: XMLRecordMatcher
    @exclusivity(unchecked) private var writer: XMLRecordWriter
    @exclusivity(unchecked) private var source: MeasuredByteSource!
    @exclusivity(unchecked) private var records = 0
    @exclusivity(unchecked) private var failure: (any Error)?
    /// Per mapping table: whether this file feeds it.
    private let active: [Bool]
    /// The objects no table reads, when the schema reports them.
    let unreadObjects: XMLUnreadObjects?

    /// Per mapping table: records skipped by its filter in this file.
    var filtered: [Int] { matcher.filtered }
    /// Per mapping table and column: whether some source of the column matched (an element
    /// or attribute was there, even empty) in a record of this file.
    var matchedColumns: [[Bool]] { writer.matchedColumns }
    /// Where each table's records were found in this file.
    var foundPaths: XMLRecordPaths { matcher.foundPaths }
    /// Per mapping table and slot: records in which the slot's path matched more than once.
    var repeatedRecords: [[Int]] { matcher.repeatedRecords }

    init(file: InputFile, mapping: XMLMapping, loaders: [TableLoader], context: BuildContext, progress: BuildProgress?)
    {
        self.file = file
        self.mapping = mapping
        self.loaders = loaders
        self.context = context
        self.progress = progress
        active = mapping.activeTables(forFileNamed: file.name)
        matcher = XMLRecordMatcher(mapping: mapping, active: active, maximumDepth: context.limits.xmlDepth)
        writer = XMLRecordWriter(mapping: mapping, loaders: loaders, fileName: file.name, context: context)
        unreadObjects = context.schema.reportUnreadObjects ? XMLUnreadObjects() : nil
    }

    /// The tables this file feeds, for progress and planning.
    var tableNames: [String] { mapping.tables.indices.filter { active[$0] }.map { mapping.tables[$0].table.name } }

    /// Reads the file to its end; returns the input's record for the seed's metadata.
    /// Malformed or refused XML is recorded in the issue log (the build then fails).
    func run() throws(BuildError) -> InputRecord {
        do { source = MeasuredByteSource(try file.open()) } catch { throw .input(error) }
        let parser = XMLPushParser(file: file.displayPath, handler: self, entities: context.schema.entities)
        matcher.intern(in: parser)
        unreadObjects?.intern(in: parser)
        for (index, loader) in loaders.enumerated() where active[index] { loader.file = file.displayPath }
        let rowsBefore = loaders.reduce(0) { $0 + $1.rowCount }
        progress?.started(file: file.name, table: tableNames.joined(separator: ", "), bytes: file.size)
        do {
            try parser.parse(source)
        } catch let error as XMLSyntaxError where failure == nil {
            context.issues.record(
                BuildIssue(
                    kind: .malformedXML, file: error.file, line: error.line, column: error.column,
                    message: error.message))
        } catch let error as InputError {
            throw .input(error)
        } catch {
            // The handler stopped the parser; `failure` says why.
        }
        if let failure { throw .seed(failure) }
        let rows = loaders.reduce(0) { $0 + $1.rowCount } - rowsBefore
        progress?.finished(file: file.name, rows: rows)
        return InputRecord(name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: rows)
    }

    // MARK: Events

    func startElement(_ tag: XMLStartTag, parser: XMLPushParser) {
        guard let unreadObjects else {
            if matcher.startElement(tag, parser: parser) { writer.showSources(of: matcher.recordPaths) }
            return
        }
        let open = matcher.openRecordCount
        if matcher.startElement(tag, parser: parser) { writer.showSources(of: matcher.recordPaths) }
        unreadObjects.started(tag, recordStarted: matcher.openRecordCount > open, insideRecord: open > 0)
    }

    func characters(_ text: UnsafeRawBufferPointer, parser: XMLPushParser) {
        matcher.characters(text, parser: parser)
    }

    func endElement(parser: XMLPushParser) {
        for record in matcher.endElement().reversed() {
            do { try finish(record) } catch { stop(error, parser: parser) }
        }
        unreadObjects?.ended()
    }

    /// Writes a closed record, innermost first, or drops it when it fails its filters.
    private func finish(_ record: Int) throws {
        guard matcher.passesFilters(record) else {
            // Its nested records were written before it ended: they go with it.
            if let id = matcher.id(of: record) {
                try writer.deleteRows(nestedIn: matcher.table(of: record), parentID: id)
            }
            return
        }
        let parentID = matcher.parentID(of: record) { context.allocateID(in: $0) }
        guard try matcher.withRecord(record, { try writer.write($0, parentID: parentID) }) else {
            // Left out: rows nested in it were written under its id (`NestedRowCleanup`).
            if matcher.id(of: record) != nil {
                context.noteDroppedRow(in: mapping.tables[matcher.table(of: record)].table.name)
            }
            return
        }
        matcher.countRepeats(of: record)
        records += 1
        if records & 0x3FFF == 0 { progress?.advanced(rows: records, bytes: source.bytesRead) }
    }

    private func stop(_ error: any Error, parser: XMLPushParser) {
        if failure == nil { failure = error }
        parser.fail(
            XMLSyntaxError(file: file.displayPath, line: parser.line, column: parser.column, message: "\(error)"))
    }
}
