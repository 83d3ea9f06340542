import Foundation

/// Paths in this checkout, found from this file (the tests may run from any folder).
public enum Repository {
    /// The folder holding `Package.swift`.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    /// `relative` resolved against the repository root.
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
