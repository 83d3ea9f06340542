import SeedSystem

/// The names of a destination seed's own files. The installer creates, replaces or removes
/// these and nothing else in the folder:
///
/// - `seed.sqlite`: the installed seed, byte for byte the shipped one but for the
///   `publication_sequence` row the installer stamps into it when it knows a sequence;
/// - `seed.sqlite-wal`, `seed.sqlite-shm`, `seed.sqlite-journal`: SQLite's sidecars of the
///   seed, removed (exact names) just before a new seed is renamed into place;
/// - `seed.sqlite.seedgen-install`: the install record (a few lines of text), see ``InstallRecord``;
/// - `seed.sqlite.seedgen-lock`: the lock file installers `flock`; never removed;
/// - `.seed.sqlite.seedgen-tmp-<pid>-<16 hex digits>`: temporary files; those a crash left
///   behind are removed by the next install (an up-to-date check never lists the folder).
struct SeedFiles {
    /// The installed seed's absolute path.
    let destination: String
    /// Its folder.
    let directory: String
    /// Its file name.
    let name: String

    init(destination: String) {
        self.destination = FileSystem.absolute(destination)
        self.directory = FileSystem.parentDirectory(of: self.destination)
        let slash = self.destination.utf8.lastIndex(of: UInt8(ascii: "/"))!
        self.name = String(self.destination[self.destination.utf8.index(after: slash)...])
    }

    var recordPath: String { destination + ".seedgen-install" }
    var lockPath: String { destination + ".seedgen-lock" }
    /// SQLite's sidecar files for the destination: these exact names, nothing else.
    var sidecarPaths: [String] { ["-wal", "-shm", "-journal"].map { destination + $0 } }

    private var temporaryPrefix: String { "." + name + ".seedgen-tmp-" }

    /// A fresh temporary path in the destination's folder (same file system, so `rename` is atomic).
    func newTemporaryPath() -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(generator.next() as UInt64, radix: 16)
        let padded = String(repeating: "0", count: 16 - random.count) + random
        return directory + "/" + temporaryPrefix + "\(CurrentProcess.id)-" + padded
    }

    /// True when `fileName` is exactly one of this seed's temporary names, or SQLite's
    /// `-journal`, `-wal` or `-shm` beside one (patching a delta opens a temporary copy).
    func isTemporaryName(_ fileName: String) -> Bool {
        guard fileName.hasPrefix(temporaryPrefix) else { return false }
        var name = Substring(fileName)
        if let sidecar = ["-journal", "-wal", "-shm"].first(where: { name.hasSuffix($0) }) {
            name = name.dropLast(sidecar.count)
        }
        let rest = name.dropFirst(temporaryPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard rest.count == 2, !rest[0].isEmpty, rest[0].allSatisfy(\.isASCIIDigit), rest[1].count == 16,
            rest[1].allSatisfy(\.isASCIIHexDigit)
        else { return false }
        return true
    }

    /// Removes temporary files a crashed install left behind. Call only while holding the lock
    /// (then no other installer is writing one).
    func removeLeftoverTemporaryFiles() throws(SystemCallError) {
        for entry in try FileSystem.directoryEntries(directory) where isTemporaryName(entry) {
            try FileSystem.remove(directory + "/" + entry)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isASCIIHexDigit: Bool { isASCII && isHexDigit && (isNumber || isLowercase) }
}
