/// Bounds on what one input may hold, so that hostile or broken data ends in a clear error
/// instead of unbounded time or memory. The defaults are far above real data; each can be
/// raised with a `seedgen build` option (Documentation/building.md, "Bad input").
public struct InputLimits: Sendable, Equatable {
    /// The largest CSV record (all its fields, as bytes in the file) or GeoJSON feature:
    /// `--max-record-size`. The readers' buffers never grow past it, so it also bounds the
    /// memory one file takes.
    public var recordBytes: Int
    /// The longest key value (a table's key or a reference's key), in bytes: `--max-key-size`.
    public var keyBytes: Int
    /// The deepest element nesting an XML file may have: `--max-xml-depth`.
    public var xmlDepth: Int

    /// 16 MiB: GTFS records are well under 1 KiB, a long shape or description a few KiB.
    public static let defaultRecordBytes = 16 << 20
    /// 64 KiB: ids in real feeds are a few dozen bytes.
    public static let defaultKeyBytes = 64 << 10
    /// 10,000: OpenStreetMap is 3 deep, StackExchange dumps 2.
    public static let defaultXMLDepth = 10_000

    public init(
        recordBytes: Int = InputLimits.defaultRecordBytes, keyBytes: Int = InputLimits.defaultKeyBytes,
        xmlDepth: Int = InputLimits.defaultXMLDepth
    ) {
        self.recordBytes = recordBytes
        self.keyBytes = keyBytes
        self.xmlDepth = xmlDepth
    }
}
