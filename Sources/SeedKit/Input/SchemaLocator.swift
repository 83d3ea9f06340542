import Foundation

/// Finds the schema for a build when none is given.
///
/// Lookup order: (1) `--schema FILE`; (2) a `seedgen.yaml` inside an input folder;
/// (3) a built-in schema recognised from the input files, tried in the order of `builtIns`:
/// GTFS feeds use the transit schema, OpenStreetMap `.osm` files the osm schema, XML files
/// whose root is NeTEx's `PublicationDelivery` (in the NeTEx namespace) the netex schema, and
/// those whose root is `TransXChange` the transxchange schema.
public enum SchemaLocator {
    /// A schema compiled into seedgen, with the test that recognises its inputs.
    public struct BuiltIn: Sendable {
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
            inputs.files.contains { $0.name.lowercased().hasSuffix(".osm") }
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
            file: inputPaths.joined(separator: " "),
            message:
                """
                no schema: pass --schema FILE, put a \(folderSchemaName) in the input folder, or give a GTFS feed, \
                an .osm file, NeTEx or TransXChange XML (which use the built-in transit, osm, netex and \
                transxchange schemas)
                """
        )
    }
}
