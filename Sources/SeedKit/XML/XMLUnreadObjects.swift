import CLibXML2

/// Counts the objects of an XML file that no table reads (`reportUnreadObjects: true`): the
/// elements with an `id` attribute that are not records, not inside a record and hold no
/// record and no other such element (that one is counted instead). A NeTEx `Notice` the
/// schema does not map is counted; a frame (a container) and a `Quay`'s
/// `AccessibilityAssessment` (inside a record) are not. So a gap in a mapping shows itself
/// ("Notice: 8 objects not read") instead of passing in silence.
///
/// Per element it keeps only the open candidates (a few frames deep), and marks them once
/// when a record starts inside them.
final class XMLUnreadObjects {
    /// Per element name (as the parser interns it): the name and how many were not read.
    private(set) var counts: [Int: (name: String, count: Int)] = [:]
    private var idName: UnsafePointer<xmlChar>?
    private var depth = 0
    /// Open elements with an `id` outside every record, outermost first; the first
    /// `marked` of them hold a record or another such element.
    private var open: [(depth: Int, name: UnsafePointer<xmlChar>)] = []
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
            marked = open.count
            return
        }
        guard !insideRecord, hasID(tag) else { return }
        marked = open.count // the objects around it hold an object: they are containers
        open.append((depth, tag.localName))
    }

    /// The innermost open element ended.
    @inline(__always)
    func ended() {
        if let last = open.last, last.depth == depth {
            open.removeLast()
            if marked > open.count {
                marked = open.count
            } else {
                let key = Int(bitPattern: last.name)
                if counts[key] == nil { counts[key] = (String(cString: UnsafeRawPointer(last.name).assumingMemoryBound(to: CChar.self)), 0) }
                counts[key]!.count += 1
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
        private var byName: [String: (count: Int, file: String, files: Int)] = [:]

        /// Adds the counts of one file.
        mutating func add(_ objects: XMLUnreadObjects, file: String) {
            for (name, count) in objects.counts.values {
                if let seen = byName[name] {
                    byName[name] = (seen.count + count, seen.file, seen.files + 1)
                } else {
                    byName[name] = (count, file, 1)
                }
            }
        }

        /// One warning per element name, in name order ("DatedServiceJourney: 20 objects not read").
        func report(to issues: IssueLog, schema: String) {
            for name in byName.keys.sorted() {
                let (count, file, files) = byName[name]!
                let more = files > 1 ? " (in \(files) files)" : ""
                issues.record(BuildIssue(kind: .unreadObjects, file: file, field: name,
                                         message: "\(count) \(count == 1 ? "object" : "objects") not read\(more): no table of schema '\(schema)' reads them"))
            }
        }
    }
}
