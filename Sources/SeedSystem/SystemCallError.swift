#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, on which path, and the `errno` it set.
///
/// Every module turns it into its own error, which says what it was trying to do: the
/// installer into a `SeedInstallerError`, the gzip code into a `GzipError`, the builder into an
/// `InputError` or a `BuildError`.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed: `open`, `read`, `fsync`, ...
    public let call: String
    /// The file or folder it was called on.
    public let path: String
    /// The `errno` it set.
    public let errno: Int32

    /// - Parameters:
    ///   - call: the call that failed.
    ///   - path: the file or folder it was called on.
    ///   - errno: the `errno` it set.
    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// The operating system's text for `errno` (`strerror`): "No such file or directory".
    public var reason: String { String(cString: strerror(errno)) }

    /// The call and the reason: "open failed: No such file or directory".
    public var text: String { "\(call) failed: \(reason)" }

    /// `<path>: <what failed and why>`.
    public var description: String { "\(path): \(text)" }

    /// The disk or the file-size limit is full.
    public var isOutOfSpace: Bool { errno == ENOSPC || errno == EFBIG || errno == EDQUOT }
}
