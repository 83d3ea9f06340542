#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's identity, size and modification time (`stat`): what the installer compares to tell
/// whether a file is the one it installed.
public struct FileStatus: Equatable, Sendable {
    /// The device the file is on (`st_dev`).
    public var device: UInt64
    /// Its inode number (`st_ino`).
    public var inode: UInt64
    /// Its size in bytes.
    public var size: Int64
    /// Its modification time: seconds since 1970 ...
    public var modificationSeconds: Int64
    /// ... and nanoseconds.
    public var modificationNanoseconds: Int64
    /// True for a regular file (not a folder, device or socket).
    public var isRegularFile: Bool

    public init(
        device: UInt64, inode: UInt64, size: Int64, modificationSeconds: Int64, modificationNanoseconds: Int64,
        isRegularFile: Bool
    ) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
        self.isRegularFile = isRegularFile
    }

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        #if canImport(Darwin)
        modificationSeconds = Int64(st.st_mtimespec.tv_sec)
        modificationNanoseconds = Int64(st.st_mtimespec.tv_nsec)
        #else
        modificationSeconds = Int64(st.st_mtim.tv_sec)
        modificationNanoseconds = Int64(st.st_mtim.tv_nsec)
        #endif
        isRegularFile = (st.st_mode & S_IFMT) == S_IFREG
    }
}
