/// Receives progress while a build runs (the command line shows it on a terminal).
public protocol BuildProgress: AnyObject {
    /// A file starts loading into a table.
    func started(file: String, table: String, bytes: Int64)
    /// Rows loaded and bytes read so far in the current file; called every few thousand rows.
    func advanced(rows: Int, bytes: Int64)
    /// The current file is done.
    func finished(file: String, rows: Int)
    /// A step after loading: indexing, analyzing, vacuuming.
    func phase(_ name: String)
}
