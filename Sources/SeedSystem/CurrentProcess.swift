#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(MachO)
import MachO // _NSGetExecutablePath (mach-o/dyld.h)
#endif

/// What the running process knows about itself: its id, environment, executable and home
/// folder, without Foundation.
public enum CurrentProcess {
    /// The process id (used to name temporary files).
    public static var id: Int32 { getpid() }

    /// Whether a process `pid` exists (`kill(pid, 0)`: only a process that is gone answers
    /// `ESRCH`; one of another user's still exists).
    public static func processExists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }

    /// Fixes glibc's malloc mmap threshold at 128 KiB (elsewhere: nothing), as
    /// `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072` would. By default glibc raises the threshold each time a
    /// large block is freed, so later large blocks stay in the heap after they are freed: a build's loader, digest
    /// and checks threads then hold more memory than they use (the 3M stop_times build peaked at 72 MB with the
    /// default, 62–66 MB with the threshold fixed, for the same CPU time). A `GLIBC_TUNABLES` or
    /// `MALLOC_MMAP_THRESHOLD_` in the environment is left to decide.
    public static func fixMallocMmapThreshold() {
        #if canImport(Glibc)
        // Swift's Glibc module leaves malloc.h out: mallopt is looked up; -3 is its M_MMAP_THRESHOLD.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard getenv("GLIBC_TUNABLES") == nil, getenv("MALLOC_MMAP_THRESHOLD_") == nil,
            let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
        else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-3, 128 * 1024)
        #endif
    }

    /// Gives the system back the pages of freed memory that glibc's malloc keeps (`malloc_trim(0)`:
    /// the top of each arena, and whole free pages inside them); elsewhere nothing. Looked up by
    /// name: Swift's Glibc module leaves out `malloc.h`. The builder calls it after each stage.
    public static func returnFreedMemory() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    /// The value of an environment variable.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The running executable's path, when the system says.
    public static func executablePath() -> String? {
        #if canImport(Darwin)
        // dyld knows the path the process was started from, whatever argv[0] says.
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return String(cString: buffer)
        #else
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments.first }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }

    /// The home directory: `environmentHome` (the caller's `HOME`), else the user database's
    /// entry for the process's user (a service started without `HOME`).
    public static func homeDirectory(environmentHome: String?) -> String? {
        if let environmentHome, !environmentHome.isEmpty { return environmentHome }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }
}
