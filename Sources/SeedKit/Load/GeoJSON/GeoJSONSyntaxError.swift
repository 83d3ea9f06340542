/// A GeoJSON input that cannot be read: not a FeatureCollection, not valid JSON, or a feature
/// longer than the limit.
struct GeoJSONSyntaxError: Error, Sendable {
    /// The issue the build reports: a malformed row, with the file, the line and column where
    /// the problem begins, and what is wrong.
    var issue: BuildIssue
    /// The notice code of its issue.
    var code: String { issue.noticeCode }
}
