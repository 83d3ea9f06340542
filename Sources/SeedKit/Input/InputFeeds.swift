import Foundation

/// The feeds of one build: `seedgen build A.zip B/ C.zip`, `--feed NAME=PATH`, or a folder
/// whose entries are feeds. Each feed is a folder or `.zip` of its own (or, named with
/// `--feed`, one file: a NeTEx or TransXChange export in one XML file), whose ids are its own.
///
/// One feed (or plain files beside one) is today's build: the seed is the same bytes as
/// before. Two or more make a *region* seed (`Schema.scopedByFeed`): a `feeds` table, and a
/// `feed_ref` in every row.
public struct InputFeeds: Sendable {
    /// One feed: its name, where it is, its id in the seed's `feeds` table, its files.
    public struct Feed: Sendable {
        /// The feed's name (`--feed NAME=PATH`, else its file or folder name without `.zip`, or
        /// the name of the folder it is in when that name is another feed's too).
        public var name: String
        /// The path as given.
        public var source: String
        /// What the seed records as the feed's source: the file or folder name, not the folders
        /// around it, so that the seed does not depend on where the inputs are.
        public var sourceName: String { ((source as NSString).standardizingPath as NSString).lastPathComponent }
        /// Its row id in `feeds` (and every row's `feed_ref`); see `assignIDs`.
        public var id: Int64
        public var inputs: InputSet
    }

    /// The feeds, by name.
    public private(set) var feeds: [Feed]
    /// Every file of every feed (file names may repeat across feeds).
    public private(set) var all: InputSet

    /// True when the build makes a region seed: two feeds or more.
    public var isRegion: Bool { feeds.count > 1 }

    /// The longest feed name accepted.
    public static let maximumNameLength = 64

    /// - Parameters:
    ///   - paths: the positional inputs. Several folders or zips are several feeds; one
    ///     folder holding only zips and folders is a feed per entry; anything else (one
    ///     feed, plain files) is one feed, as before.
    ///   - named: `--feed NAME=PATH` values.
    public init(paths: [String], named: [String] = []) throws(InputError) {
        var sources: [(name: String?, path: String)] = []
        for value in named {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex,
                value.index(after: equals) != value.endIndex
            else {
                throw InputError(path: value, message: "--feed takes NAME=PATH (a name, '=', a feed's folder or .zip)")
            }
            sources.append((String(value[..<equals]), String(value[value.index(after: equals)...])))
        }
        let containers = paths.filter(Self.isFeedContainer)
        if named.isEmpty && paths.count == 1, let only = paths.first, let entries = try Self.feedEntries(of: only) {
            sources += entries.map { (nil, $0) }
        } else if sources.count + containers.count > 1 {
            if let plain = paths.first(where: { !Self.isFeedContainer($0) }) {
                throw InputError(
                    path: plain,
                    message: "is a file given beside several feeds: it belongs to no feed (put it in its feed's folder)"
                )
            }
            sources += paths.map { (nil, $0) }
        }
        guard !sources.isEmpty else {
            // One feed, as before: every path together, under the name of the first.
            let inputs = try InputSet(paths: paths)
            feeds = [
                Feed(name: paths.first.map(Self.name(of:)) ?? "feed", source: paths.first ?? "", id: 1, inputs: inputs)
            ]
            all = inputs
            return
        }
        var names = sources.map { $0.name ?? Self.name(of: $0.path) }
        // Unnamed feeds whose names clash (`gtfs/*/feed`) are named after the folder they are in.
        let unnamed = Dictionary(grouping: sources.indices.filter { sources[$0].name == nil }, by: { names[$0] })
        for indices in unnamed.values where indices.count > 1 {
            for index in indices {
                names[index] = Self.name(
                    of: ((sources[index].path as NSString).standardizingPath as NSString).deletingLastPathComponent)
            }
        }
        var feeds: [Feed] = []
        var byName: [String: String] = [:]
        for ((given, path), name) in zip(sources, names) {
            try Self.check(name: name, path: path, given: given != nil)
            if let other = byName[name] {
                throw InputError(
                    path: path,
                    message: "is a feed named '\(name)', and so is \(other): name them apart with --feed NAME=PATH")
            }
            byName[name] = path
            feeds.append(Feed(name: name, source: path, id: 0, inputs: try InputSet(paths: [path])))
        }
        feeds.sort { $0.name < $1.name }
        for index in feeds.indices { feeds[index].id = Int64(index + 1) }
        self.feeds = feeds
        all = InputSet(files: feeds.flatMap(\.inputs.files), paths: feeds.map(\.source))
    }

    /// Each file's feed, by the path messages show (`InputFile.displayPath`).
    func feedNames() -> [String: String] {
        Dictionary(
            feeds.flatMap { feed in feed.inputs.files.map { ($0.displayPath, feed.name) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// Takes `files` (compared by path) out of every feed.
    mutating func remove(_ files: [InputFile]) {
        guard !files.isEmpty else { return }
        for index in feeds.indices { feeds[index].inputs = feeds[index].inputs.removing(files) }
        all = all.removing(files)
    }

    /// Gives each feed the id it had in the previous seed (`previous`: name -> id), and the
    /// others ids above `highWater` (the largest id the previous seed gave), in name order:
    /// what `StableIDs` would give the `feeds` rows, known before any row is read, so that
    /// every row is written with its final `feed_ref`.
    mutating func assignIDs(previous: [String: Int64], highWater: Int64) {
        var next = max(highWater, previous.values.max() ?? 0)
        for index in feeds.indices {
            if let id = previous[feeds[index].name] {
                feeds[index].id = id
            } else {
                next += 1
                feeds[index].id = next
            }
        }
    }

    /// The feed named by `path`'s last component, without `.zip`.
    static func name(of path: String) -> String {
        var name = ((path as NSString).standardizingPath as NSString).lastPathComponent
        if name.lowercased().hasSuffix(".zip") { name = String(name.dropLast(4)) }
        return name
    }

    private static func check(name: String, path: String, given: Bool) throws(InputError) {
        let how = given ? "" : " (from its path; name it with --feed NAME=PATH)"
        guard !name.isEmpty, name.count <= maximumNameLength,
            name.unicodeScalars.allSatisfy({
                !$0.properties.isWhitespace && $0.value >= 0x20 && $0 != "/" && $0 != "\u{7F}"
            })
        else {
            throw InputError(
                path: path,
                message:
                    """
                    '\(name)' cannot name a feed\(how): a name is 1 to \(maximumNameLength) characters, without \
                    spaces, '/' or control characters
                    """
            )
        }
    }

    /// A folder or a `.zip`: what a feed is.
    static func isFeedContainer(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        return isDirectory.boolValue || path.lowercased().hasSuffix(".zip")
    }

    /// The entries of a folder whose entries are feeds: it holds zips and folders and nothing
    /// else (hidden files aside). Nil for any other path.
    private static func feedEntries(of path: String) throws(InputError) -> [String]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: path))?.filter { !$0.hasPrefix(".") }.sorted() ?? []
        let entries = names.map { (path as NSString).appendingPathComponent($0) }
        guard !entries.isEmpty, entries.allSatisfy(isFeedContainer) else { return nil }
        return entries
    }
}
