#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system calls of the builder, the gzip code and the installer, in one place, so the
/// rest never sees `errno`: opening files (as a ``FileDescriptor``), flushing, renaming,
/// removing, listing.
public enum FileSystem {
    /// Opens an existing file for reading.
    public static func openForReading(_ path: String) throws(SystemCallError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError(call: "open", path: path, errno: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Opens an existing file for reading; nil when it does not exist.
    public static func openIfExists(_ path: String) throws(SystemCallError) -> FileDescriptor? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(call: "open", path: path, errno: errno)
        }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Creates a file for writing, or truncates the one there.
    public static func create(_ path: String, mode: mode_t = 0o644) throws(SystemCallError) -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemCallError(call: "open", path: path, errno: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Creates a new file that must not exist yet.
    public static func createExclusively(_ path: String, mode: mode_t = 0o644) throws(SystemCallError) -> FileDescriptor
    {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemCallError(call: "open", path: path, errno: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Opens (creating when missing) a file used only for locking; never truncates it. In a
    /// folder the process may not write, an existing lock file is opened read-only (`flock`
    /// works on it), so checking an installed seed still works.
    public static func openLockFile(_ path: String) throws(SystemCallError) -> FileDescriptor {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd >= 0 { return FileDescriptor(path: path, fd: fd) }
        let createError = errno
        if createError == EACCES || createError == EROFS {
            let readOnly = open(path, O_RDONLY | O_CLOEXEC)
            if readOnly >= 0 { return FileDescriptor(path: path, fd: readOnly) }
            // No lock file yet in a folder the process may not write: the real error is the
            // one creating it (EROFS, EACCES), not the ENOENT of the read-only fallback.
            if errno != ENOENT { throw SystemCallError(call: "open", path: path, errno: errno) }
        }
        throw SystemCallError(call: "open", path: path, errno: createError)
    }

    /// The whole content of a small file, or nil when it does not exist.
    /// - Throws: when it cannot be read, or has more than `limit` bytes (`EFBIG`).
    public static func readSmallFile(_ path: String, limit: Int) throws(SystemCallError) -> [UInt8]? {
        guard let file = try openIfExists(path) else { return nil }
        let size = try file.status().size
        guard size <= limit else { throw SystemCallError(call: "read", path: path, errno: EFBIG) }
        return try file.readBytes(Int(size), at: 0)
    }

    /// Opens a directory so that it can be flushed with ``FileDescriptor/sync()``.
    public static func openDirectory(_ path: String) throws(SystemCallError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError(call: "open", path: path, errno: errno) }
        return FileDescriptor(path: path, fd: fd)
    }

    /// Flushes a written (and closed) file's data to the storage device, as
    /// ``FileDescriptor/sync()`` does.
    public static func syncFile(_ path: String) throws(SystemCallError) {
        try openForReading(path).sync()
    }

    /// Flushes a directory's entries (renames, removals) to the storage device.
    public static func syncDirectory(_ path: String) throws(SystemCallError) {
        try openDirectory(path).sync()
    }

    /// The status of `path` (following symbolic links), or nil when it does not exist.
    public static func status(_ path: String) throws(SystemCallError) -> FileStatus? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(call: "stat", path: path, errno: errno)
        }
        return FileStatus(st)
    }

    /// True when `path` is a directory (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Renames `from` to `to` atomically, replacing `to`.
    public static func rename(_ from: String, to: String) throws(SystemCallError) {
        guard systemRename(from, to) == 0 else { throw SystemCallError(call: "rename", path: to, errno: errno) }
    }

    /// Removes a file. Returns false when it did not exist.
    @discardableResult
    public static func remove(_ path: String) throws(SystemCallError) -> Bool {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw SystemCallError(call: "unlink", path: path, errno: errno)
        }
        return true
    }

    /// Copies `source` into the new file `destination` (refused when it exists), 256 KiB at a
    /// time, stopping with `EFBIG` once more than `limit` bytes were read. The copy is not
    /// flushed to disk: the caller decides (a scratch copy needs no flush).
    public static func copy(_ source: String, to destination: String, limit: Int64) throws(SystemCallError) {
        let input = try openForReading(source)
        input.adviseSequentialReading()
        let output = try createExclusively(destination)
        var size: Int64 = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer)
            if count == 0 { break }
            size += Int64(count)
            guard size <= limit else { throw SystemCallError(call: "read", path: source, errno: EFBIG) }
            try output.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        try output.closeNow()
    }

    /// Bytes available to unprivileged writers on the file system holding `path`.
    public static func availableBytes(_ path: String) throws(SystemCallError) -> Int64 {
        var vfs = statvfs()
        guard statvfs(path, &vfs) == 0 else { throw SystemCallError(call: "statvfs", path: path, errno: errno) }
        return Int64(vfs.f_bavail) * Int64(vfs.f_frsize)
    }

    /// Creates `path` and its missing parents.
    public static func createDirectories(_ path: String) throws(SystemCallError) {
        if try status(path) != nil { return }
        let parent = parentDirectory(of: path)
        if parent != path { try createDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw SystemCallError(call: "mkdir", path: path, errno: errno)
        }
    }

    /// The names of the entries in a directory (without `.` and `..`).
    public static func directoryEntries(_ path: String) throws(SystemCallError) -> [String] {
        try directoryEntryNames(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The names of the entries in a directory (without `.` and `..`) as bytes, as `readdir`
    /// gives them: a name that is not UTF-8 keeps its real bytes.
    public static func directoryEntryNames(_ path: String) throws(SystemCallError) -> [[UInt8]] {
        guard let dir = opendir(path) else { throw SystemCallError(call: "opendir", path: path, errno: errno) }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { names.append(name) }
        }
        return names
    }

    /// The current working directory.
    public static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// The folder part of `path` (`/a/b` for `/a/b/c`, `/` for `/c`, `.` for `c`).
    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` made absolute against the current directory.
    public static func absolute(_ path: String) -> String {
        path.utf8.first == UInt8(ascii: "/") ? path : currentDirectory() + "/" + path
    }
}

// `FileSystem.rename` hides the C function inside the enum; this reaches it.
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
