import Foundation
import SeedTestSupport

/// The eight daily archives of one feed in the shared data (`gtfs-daily-renfe-ld`), oldest
/// first; empty where the data is absent.
public enum DailyArchives {
    public static let renfe =
        (try? FileManager.default.contentsOfDirectory(atPath: RealData.path("gtfs-daily-renfe-ld")))?
        .filter { $0.hasSuffix(".zip") }.sorted().map { RealData.path("gtfs-daily-renfe-ld/" + $0) } ?? []
}
