/// What to build and how.
public struct BuildOptions: Sendable {
    /// Input folders, `.zip` archives or files.
    public var inputs: [String]
    /// The seed file to write.
    public var output: String
    /// The schema file; nil to look it up (see `SchemaLocator`).
    public var schemaPath: String?
    /// The seed version to stamp; nil for the default, a digest of the schema and inputs.
    public var seedVersion: String?
    /// Keep rows whose references name no row (with a NULL reference) instead of failing.
    public var allowDangling: Bool
    /// Overrides the lookup cache size of every reference.
    public var cacheSize: Int?
    /// Bounds on record, key and nesting sizes (see `InputLimits`).
    public var limits = InputLimits()
    /// Mapping mistakes (a table with no rows, a source that matched nothing) fail the
    /// build instead of being warnings.
    public var strict: Bool = false

    public init(inputs: [String], output: String, schemaPath: String? = nil, seedVersion: String? = nil,
                allowDangling: Bool = false, cacheSize: Int? = nil) {
        self.inputs = inputs
        self.output = output
        self.schemaPath = schemaPath
        self.seedVersion = seedVersion
        self.allowDangling = allowDangling
        self.cacheSize = cacheSize
    }
}
