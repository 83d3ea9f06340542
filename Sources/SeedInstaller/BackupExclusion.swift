#if canImport(Darwin)
import Foundation
#endif

/// Keeps the installed seed out of iCloud and iTunes backups on Apple platforms: it is a copy of
/// what the app ships, so backing it up (often 100 MB or more) only costs the user space.
///
/// The flag is an extended attribute of the file, which a `rename` keeps; it is set on each new
/// seed before it is renamed into place, so every install sets it again. Elsewhere it does nothing.
enum BackupExclusion {
    /// Marks the file at `path` as excluded from backups. Best effort: a file system without
    /// extended attributes is no reason to refuse a seed.
    static func exclude(_ path: String) {
        #if canImport(Darwin)
        var url = URL(fileURLWithPath: path)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? url.setResourceValues(values)
        #endif
    }
}
