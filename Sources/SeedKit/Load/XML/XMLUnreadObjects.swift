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
    /// Objects of one name not read, with the objects inside them by name (as the parser
    /// interns names: a number per name, no string made per object).
    struct Unread {
        var count = 0
        var inside: [Int: Int] = [:]

        mutating func add(_ other: Unread) {
            count += other.count
            inside.merge(other.inside, uniquingKeysWith: +)
        }
    }

    /// The outermost unread objects of the file, by interned element name.
    private(set) var counts: [Int: Unread] = [:]
    /// The text of each interned name counted, made once per name.
    private(set) var names: [Int: String] = [:]
    private var idName: UnsafePointer<xmlChar>?
    private var depth = 0
    /// Open elements with an `id` outside every record, outermost first, with the outermost
    /// unread objects found inside each so far; the first `marked` of them hold a record.
    private var open: [(depth: Int, name: UnsafePointer<xmlChar>, found: [Int: Unread])] = []
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
                let key = Int(bitPattern: last.name)
                if names[key] == nil {
                    names[key] = String(cString: UnsafeRawPointer(last.name).assumingMemoryBound(to: CChar.self))
                }
                var object = Unread(count: 1)
                for (name, unread) in found {
                    object.inside[name, default: 0] += unread.count
                    object.inside.merge(unread.inside, uniquingKeysWith: +)
                }
                found = [key: object]
            }
            if open.isEmpty {
                counts.merge(found) {
                    var kept = $0; kept.add($1); return kept
                }
            } else {
                open[open.count - 1].found.merge(found) {
                    var kept = $0; kept.add($1); return kept
                }
            }
        }
        depth -= 1
    }

    private func hasID(_ tag: XMLStartTag) -> Bool {
        for index in 0..<tag.attributeCount
        where tag.attributeLocalName(index) == idName && tag.attributeNamespace(index) == nil {
            return true
        }
        return false
    }
}

extension XMLUnreadObjects {
    /// The unread objects of every file of a build, by element name: one warning per name,
    /// at the first file that had some.
    struct Totals {
        /// Per name: the objects not read (those inside them by name), the first file, how many files.
        private var byName: [String: (count: Int, inside: [String: Int], file: String, files: Int)] = [:]

        /// Adds the counts of one file.
        mutating func add(_ objects: XMLUnreadObjects, file: String) {
            for (key, unread) in objects.counts {
                let name = objects.names[key]!
                var inside: [String: Int] = [:]
                for (innerKey, count) in unread.inside { inside[objects.names[innerKey]!, default: 0] += count }
                if var seen = byName[name] {
                    seen.count += unread.count
                    seen.inside.merge(inside, uniquingKeysWith: +)
                    seen.files += 1
                    byName[name] = seen
                } else {
                    byName[name] = (unread.count, inside, file, 1)
                }
            }
        }

        /// One warning per outermost element name, in name order ("DatedServiceJourney: 20
        /// objects not read"), naming the objects inside them.
        func report(to issues: IssueLog, schema: String) {
            for name in byName.keys.sorted() {
                let (count, objectsInside, file, files) = byName[name]!
                let more = files > 1 ? " (in \(files) files)" : ""
                var inside = ""
                if !objectsInside.isEmpty {
                    let total = objectsInside.values.reduce(0, +)
                    let names = objectsInside.keys.sorted().map { "\($0): \(objectsInside[$0]!)" }.joined(
                        separator: ", ")
                    inside =
                        """
                        , with \(total) \(total == 1 ? "object" : "objects") inside \(count == 1 ? "it" : "them") \
                        (\(names))
                        """
                }
                issues.record(
                    BuildIssue(
                        kind: .unreadObjects, file: file, field: name,
                        message:
                            """
                            \(count) \(count == 1 ? "object" : "objects") not read\(more)\(inside): no table of \
                            schema '\(schema)' reads them
                            """
                    ))
            }
        }
    }
}
