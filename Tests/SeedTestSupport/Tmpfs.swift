import Foundation
import Testing

/// A small tmpfs the disk-full tests mount to fill a real disk.
public enum Tmpfs {
    /// Whether this machine lets the tests mount a tmpfs (root in a permissive sandbox); the
    /// tests that need one are disabled elsewhere, saying so (`.enabled(if: Tmpfs.canMount, ...)`).
    public static let canMount: Bool = {
        let probe = NSTemporaryDirectory() + "/seedgen-mount-probe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard (try? ChildProcess.shell("mount -t tmpfs -o size=64k tmpfs '\(probe)'"))?.status == 0 else { return false }
        _ = try? ChildProcess.shell("umount '\(probe)'")
        return true
    }()

    /// Why a test that needs a tmpfs did not run.
    public static let unavailable: Comment = "mounting a tmpfs is not permitted here"
}
