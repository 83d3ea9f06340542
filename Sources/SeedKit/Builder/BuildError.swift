/// Why a build failed.
public enum BuildError: Error, CustomStringConvertible {
    /// The schema is not usable.
    case schema(SchemaError)
    /// An input cannot be read.
    case input(InputError)
    /// The input has errors; the log has every one, grouped.
    case invalidInput(IssueLog)
    /// The output cannot be written.
    case output(path: String, message: String)

    public var description: String {
        switch self {
        case .schema(let error): return error.description
        case .input(let error): return "error: \(error)"
        case .invalidInput(let log):
            let count = log.errorCount
            return log.report(errors: true) + "\n\(count) error\(count == 1 ? "" : "s"); no seed was written."
        case .output(let path, let message): return "error: \(path): \(message)"
        }
    }
}
