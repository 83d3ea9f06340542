#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SeedArchive

/// What the installer last put in place, kept outside the seed (the seed stays byte for byte
/// the shipped file) in `<dest>.seedgen-install`, written atomically.
///
/// Deciding "up to date" compares the shipped seed's versions with `seedVersion` and
/// `schemaVersion`, and the installed file's device, inode, size and modification time with
/// `file`: a replaced, touched or rewritten seed no longer matches and is installed again.
/// An unstamped gzip without a manifest has no versions to compare before decompressing: its
/// `gzip` trailer (CRC-32 and size of the content, and the file's size) is compared instead.
struct InstallRecord: Codable, Equatable {
    var seedVersion: String
    var schemaVersion: Int
    var sha256: String
    var size: Int64
    var file: FileStatus
    /// The shipped gzip file's trailer and size (nil when a plain `.sqlite` was installed).
    var gzip: GzipTrailer?

    /// The record at `path`, or nil when there is none or it cannot be parsed (then the seed is
    /// installed again, which is always safe).
    static func read(path: String) -> InstallRecord? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        return try? JSONDecoder().decode(InstallRecord.self, from: data)
    }

    /// The record as JSON.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array(try! encoder.encode(self)) + [0x0A]
    }
}
