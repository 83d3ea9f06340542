/// One input file, wherever it lives (a folder, a zip archive).
public struct InputFile: Sendable {
    /// The file's name as the schema knows it: `stops.txt`, `Posts.xml`.
    public let name: String
    /// Where it is, for messages: `feed/stops.txt`, `feed.zip:stops.txt`.
    public let displayPath: String
    /// Its size in bytes (uncompressed), for progress.
    public let size: Int64
    let opener: @Sendable () throws(InputError) -> ByteSource

    init(
        name: String, displayPath: String, size: Int64, opener: @escaping @Sendable () throws(InputError) -> ByteSource
    ) {
        self.name = name
        self.displayPath = displayPath
        self.size = size
        self.opener = opener
    }

    /// Opens the file for reading from the start.
    public func open() throws(InputError) -> ByteSource { try opener() }
}
