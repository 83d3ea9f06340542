#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the installer compares to tell whether a file is the one it installed: device, inode,
/// size and modification time (nanoseconds).
struct FileStatus: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modificationSeconds: Int64
    var modificationNanoseconds: Int64
    var isRegularFile: Bool

    init(device: UInt64, inode: UInt64, size: Int64, modificationSeconds: Int64, modificationNanoseconds: Int64,
         isRegularFile: Bool) {
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
