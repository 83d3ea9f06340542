import Foundation

/// Finds the schema for a build when none is given.
///
/// Lookup order: (1) `--schema FILE`; (2) a `seedgen.yaml` inside an input folder;
/// (3) a built-in schema recognised from the input files, tried in the order of `builtIns`:
/// GTFS feeds use the transit schema, OpenStreetMap `.osm` files (XML, or PBF recognised by its
/// content) the osm schema, XML files
/// whose root is NeTEx's `PublicationDelivery` (in the NeTEx namespace) the netex schema, and
/// those whose root is `TransXChange` the transxchange schema.
public enum SchemaLocator {
    /// A schema compiled into seedgen, with the test that recognises its inputs.
    public struct BuiltIn: Sendable {
        /// The schema's name (`transit`, `osm`, ...).
        public let name: String
        let bytes: [UInt8]
        let recognises: @Sendable (InputSet) -> Bool

        /// The parsed schema.
        public func load() throws(SchemaError) -> Schema {
            try Schema.parse(bytes, file: "<built-in \(name) schema>")
        }
    }

    /// The built-in schemas, tried in order.
    public static let builtIns: [BuiltIn] = [
        BuiltIn(name: "transit", bytes: PackageResources.transit_yaml) { inputs in
            ["stop_times.txt", "stops.txt", "trips.txt", "routes.txt"].contains { inputs.file(named: $0) != nil }
        },
        BuiltIn(name: "osm", bytes: PackageResources.osm_yaml) { inputs in
            // `.osm` XML, or OpenStreetMap PBF recognised by its content (any name but `.xml`).
            inputs.files.contains { $0.name.lowercased().hasSuffix(".osm") }
                || inputs.files.contains { !$0.name.lowercased().hasSuffix(".xml") && OSMPBFFile.recognises($0) }
        },
        BuiltIn(name: "netex", bytes: PackageResources.netex_yaml) { inputs in
            rootElements(of: inputs).contains {
                $0.localName == "PublicationDelivery" && $0.namespace?.lowercased() == "http://www.netex.org.uk/netex"
            }
        },
        BuiltIn(name: "transxchange", bytes: PackageResources.transxchange_yaml) { inputs in
            rootElements(of: inputs).contains { $0.localName == "TransXChange" }
        }
    ]

    /// The root elements of the `.xml` inputs (NeTEx, TransXChange are recognised by them).
    static func rootElements(of inputs: InputSet) -> [XMLRootElement] {
        inputs.files.lazy.filter { $0.name.lowercased().hasSuffix(".xml") }.compactMap(XMLRootElement.of)
    }

    /// True for a schema compiled into seedgen (loaded by `BuiltIn.load`).
    static func isBuiltIn(_ schema: Schema) -> Bool {
        schema.places.file.hasPrefix("<built-in ")
    }

    /// The file name looked for inside input folders.
    public static let folderSchemaName = "seedgen.yaml"

    /// The schema for `inputs`, following the lookup order.
    public static func schema(
        explicit path: String?, inputPaths: [String], inputs: InputSet
    ) throws(SchemaError) -> Schema {
        if let path { return try Schema.load(path: path) }
        for input in inputPaths {
            let candidate = (input as NSString).appendingPathComponent(folderSchemaName)
            if FileManager.default.fileExists(atPath: candidate) { return try Schema.load(path: candidate) }
        }
        if let builtIn = builtIns.first(where: { $0.recognises(inputs) }) { return try builtIn.load() }
        throw SchemaError(
            code: .noSchema, file: inputPaths.joined(separator: " "),
            message:
                """
                no schema: pass --schema FILE, put a \(folderSchemaName) in the input folder, or give a GTFS feed, \
                an .osm or .osm.pbf file, NeTEx or TransXChange XML (which use the built-in transit, osm, netex and \
                transxchange schemas)
                """
        )
    }

    /// For a folder that is no feed itself but holds feed folders one or two levels down
    /// (`gtfs/metro/feed`): a message naming them and the command that builds them as one
    /// region seed. Nil when there are none.
    static func feedsBelow(_ folder: String) -> String? {
        func folders(in path: String) -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().filter { name in
                var isFolder: ObjCBool = false
                let full = (path as NSString).appendingPathComponent(name)
                return FileManager.default.fileExists(atPath: full, isDirectory: &isFolder) && isFolder.boolValue
            }
        }
        func isFeed(_ path: String) -> Bool {
            guard let inputs = try? InputSet(paths: [path]) else { return false }
            return builtIns.contains { $0.recognises(inputs) }
        }
        var feeds: [String] = [] // relative to `folder`
        for child in folders(in: folder) {
            let path = (folder as NSString).appendingPathComponent(child)
            if isFeed(path) { feeds.append(child); continue }
            let below = folders(in: path).filter { isFeed((path as NSString).appendingPathComponent($0)) }
            feeds += below.map { child + "/" + $0 }
        }
        guard !feeds.isEmpty else { return nil }
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let shown = feeds.prefix(3).joined(separator: ", ") + (feeds.count > 3 ? " and \(feeds.count - 3) more" : "")
        let last = Set(feeds.map { ($0 as NSString).lastPathComponent })
        let uniform = feeds.count > 1 && last.count == 1 && feeds.allSatisfy { $0.split(separator: "/").count == 2 }
        let arguments = uniform ? "\(base)/*/\(last.first ?? "")" : feeds.map { "\(base)/\($0)" }.joined(separator: " ")
        let what =
            feeds.count == 1
            ? "1 feed folder below it (\(shown)); build it: seedgen build \(arguments) --out seed.sqlite"
            : "\(feeds.count) feed folders below it (\(shown)); build them as one region seed: "
                + "seedgen build \(arguments) --out region.sqlite"
        return "no schema: the folder is not a feed itself, but holds \(what)"
    }
}
