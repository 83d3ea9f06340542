import CLibXML2

/// Counts the objects of an XML file that no table reads (`reportUnreadObjects: true`): the
/// elements with an `id` attribute that are not records, not inside a record and hold no
/// record. The outermost of them is the one counted, with the objects inside it: a NeTEx
/// `Block` holding `JourneyPart`s is "Block: 4 objects not read, with 12 objects inside them
/// (JourneyPart: 12)", not a word about its parts alone. A frame holds records: it is a
/// container, and the unread objects in it are counted for themselves. So a gap in a mapping
/// shows itself ("Notice: 8 objects not read") instead of passing in silence.
///
/// Per element it keeps only the open candidates (a few frames deep), and marks them once
/// when a record starts inside them.
final class XMLUnreadObjects {
    /// Objects of one name not read, with the objects inside them by name.
    struct Unread {
        var count = 0
        var inside: [String: Int] = [:]

        mutating func add(_ other: Unread) {
            count += other.count
            inside.merge(other.inside, uniquingKeysWith: +)
        }

    }

    /// The outermost unread objects of the file, by element name.
    private(set) var counts: [String: Unread] = [:]
    private var idName: UnsafePointer<xmlChar>?
    private var depth = 0
    /// Open elements with an `id` outside every record, outermost first, with the outermost
    /// unread objects found inside each so far; the first `marked` of them hold a record.
    private var open: [(depth: Int, name: UnsafePointer<xmlChar>, found: [String: Unread])] = []
    private var marked = 0

    /// Numbers `id` as `parser` interns it; before its first event.
    func intern(in parser: XMLPushParser) {
        idName = parser.intern("id")
        depth = 0
        open = []
        marked = 0
    }

    /// An element started; `recordStarted` when it is a record's element, `insideRecord`
    /// when some record was open around it.
    @inline(__always)
    func started(_ tag: XMLStartTag, recordStarted: Bool, insideRecord: Bool) {
        depth += 1
        if recordStarted {
            marked = open.count // the objects around a record are containers
            return
        }
        guard !insideRecord, hasID(tag) else { return }
        open.append((depth, tag.localName, [:]))
    }

    /// The innermost open element ended.
    @inline(__always)
    func ended() {
        if let last = open.last, last.depth == depth {
            open.removeLast()
            var found = last.found
            if marked > open.count {
                marked = open.count // a container: what it holds stands for itself
            } else {
                var object = Unread(count: 1)
                for (name, unread) in found {
                    object.inside[name, default: 0] += unread.count
                    object.inside.merge(unread.inside, uniquingKeysWith: +)
                }
                found = [String(cString: UnsafeRawPointer(last.name).assumingMemoryBound(to: CChar.self)): object]
            }
            if open.isEmpty {
                counts.merge(found) { var kept = $0; kept.add($1); return kept }
            } else {
                open[open.count - 1].found.merge(found) { var kept = $0; kept.add($1); return kept }
            }
        }
        depth -= 1
    }

    private func hasID(_ tag: XMLStartTag) -> Bool {
        for index in 0..<tag.attributeCount where tag.attributeLocalName(index) == idName && tag.attributeNamespace(index) == nil {
            return true
        }
        return false
    }
}

extension XMLUnreadObjects {
    /// The unread objects of every file of a build, by element name: one warning per name,
    /// at the first file that had some.
    struct Totals {
        private var byName: [String: (unread: Unread, file: String, files: Int)] = [:]

        /// Adds the counts of one file.
        mutating func add(_ objects: XMLUnreadObjects, file: String) {
            for (name, unread) in objects.counts {
                if var seen = byName[name] {
                    seen.unread.add(unread)
                    seen.files += 1
                    byName[name] = seen
                } else {
                    byName[name] = (unread, file, 1)
                }
            }
        }

        /// One warning per outermost element name, in name order ("DatedServiceJourney: 20
        /// objects not read"), naming the objects inside them.
        func report(to issues: IssueLog, schema: String) {
            for name in byName.keys.sorted() {
                let (unread, file, files) = byName[name]!
                let more = files > 1 ? " (in \(files) files)" : ""
                var inside = ""
                if !unread.inside.isEmpty {
                    let total = unread.inside.values.reduce(0, +)
                    let names = unread.inside.keys.sorted().map { "\($0): \(unread.inside[$0]!)" }.joined(separator: ", ")
                    inside = ", with \(total) \(total == 1 ? "object" : "objects") inside \(unread.count == 1 ? "it" : "them") (\(names))"
                }
                issues.record(BuildIssue(kind: .unreadObjects, file: file, field: name,
                                         message: "\(unread.count) \(unread.count == 1 ? "object" : "objects") not read\(more)\(inside): no table of schema '\(schema)' reads them"))
            }
        }
    }
}
