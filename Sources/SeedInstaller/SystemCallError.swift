#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, on which path, and the `errno` it set. Internal: the
/// installer turns it into a ``SeedInstallerError`` that says what it was trying to do.
struct SystemCallError: Error {
    let call: String
    let path: String
    let errno: Int32

    var text: String { "\(call) failed: \(String(cString: strerror(errno)))" }

    /// The disk or the file-size limit is full.
    var isOutOfSpace: Bool { errno == ENOSPC || errno == EFBIG || errno == EDQUOT }

    func installerError(_ message: String) -> SeedInstallerError {
        SeedInstallerError(code: isOutOfSpace ? .diskFull : .fileSystem, message: message, path: path, systemError: text, errno: errno)
    }
}
