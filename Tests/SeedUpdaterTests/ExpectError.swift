import SeedUpdater
import Testing

/// Runs an update that must fail with `code`; records an issue otherwise.
/// - Returns: the error, for more expectations.
@discardableResult
func expectError(_ code: SeedUpdaterError.Code, _ body: () async throws(SeedUpdaterError) -> SeedUpdateResult) async -> SeedUpdaterError? {
    do {
        let result = try await body()
        Issue.record("expected \(code), got \(result)")
        return nil
    } catch {
        #expect(error.code == code, "\(error)")
        return error
    }
}
