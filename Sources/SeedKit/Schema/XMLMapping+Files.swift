import Foundation

extension XMLMapping {
    /// True when a top-level table reading `pattern` (a name, or `*` wildcards) reads the file
    /// `name` (case-insensitive).
    static func file(_ name: String, matches pattern: String) -> Bool {
        fnmatch(pattern.lowercased(), name.lowercased(), 0) == 0
    }

    /// Per table: whether a file named `fileName` feeds it. A top-level table does when its file
    /// pattern matches the name; a nested table when its parent does. XML and OSM PBF input
    /// (matched as its `.osm` name) both ask this.
    func activeTables(forFileNamed fileName: String) -> [Bool] {
        var active: [Bool] = []
        for table in tables {
            if let parent = table.parent {
                active.append(active[parent])
            } else {
                active.append(table.filePattern.map { Self.file(fileName, matches: $0) } ?? false)
            }
        }
        return active
    }
}
