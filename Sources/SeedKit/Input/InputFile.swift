/// One input file, wherever it lives (a folder, a zip archive).
public struct InputFile: Sendable {
    /// The file's name as the schema knows it: `stops.txt`, `Posts.xml`.
    public let name: String
    /// Where it is, for messages: `feed/stops.txt`, `feed.zip:stops.txt`.
    public let displayPath: String
    /// Its size in bytes (uncompressed), for progress.
    public let size: Int64
    /// The folder inside a zip archive that the entry is in (`GTFS 2020` for
    /// `feed.zip:GTFS 2020/stops.txt`, read as if at the root); nil at the root or outside an archive.
    public let subfolder: String?
    let opener: @Sendable () throws(InputError) -> ByteSource

    init(
        name: String, displayPath: String, size: Int64, subfolder: String? = nil,
        opener: @escaping @Sendable () throws(InputError) -> ByteSource
    ) {
        self.name = name
        self.displayPath = displayPath
        self.size = size
        self.subfolder = subfolder
        self.opener = opener
    }

    /// Opens the file for reading from the start.
    public func open() throws(InputError) -> ByteSource { try opener() }
}
