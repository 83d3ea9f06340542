import SeedSQLite

/// Why the router could not open a seed or answer a question: a code, what was asked, and the
/// cause (SQLite's error, when reading the seed failed).
public struct RouterError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, by kind.
    public enum Code: String, Sendable {
        /// The seed could not be read (not a transit seed, or SQLite failed).
        case unreadableSeed = "unreadable_seed"
        /// A place names no stop of the seed and is not `LAT,LON`.
        case unknownPlace = "unknown_place"
        /// A feed's time zone is not one the system knows.
        case unknownTimeZone = "unknown_time_zone"
        /// The seed has no stop with a position, so a coordinate has no time zone.
        case noStops = "no_stops"
    }

    /// The kind of failure.
    public let code: Code
    /// What was asked or read, in the user's terms.
    public let message: String
    /// SQLite's error, when one caused it.
    public let cause: SQLiteError?

    init(_ code: Code, _ message: String, cause: SQLiteError? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The message, the code and the cause.
    public var description: String {
        var text = "\(message) [\(code.rawValue)]"
        if let cause { text += ": \(cause)" }
        return text
    }
}
