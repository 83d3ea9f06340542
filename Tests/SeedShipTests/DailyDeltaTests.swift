import Foundation
import SeedDeltas
import SeedInstaller
import SeedKitTestSupport
import SeedSQLite
import SeedTestSupport
import Testing
@testable import SeedKit
@testable import SeedShip

/// Issue 28 on real data: the eight published days of the Renfe long-distance feed, each built
/// with `--previous` of the day before, as a channel would publish them. A day's delta carries
/// the source rows that changed (not the service_days and index blocks they feed), so it is a
/// small share of the full seed; applied by the installer, it gives the seed CI built, which the
/// guide's queries answer alike.
@Suite("Daily deltas of a real feed", .realData("gtfs-daily-renfe-ld"), .serialized)
struct DailyDeltaTests {
    static let days = DailyArchives.renfe

    let folder = TemporaryFolder()

    /// Builds every day with --previous of the one before; returns the seeds.
    func chain() throws -> [String] {
        var seeds: [String] = []
        for (index, day) in Self.days.enumerated() {
            let seed = folder.file("day\(index).sqlite")
            var options = BuildOptions(inputs: [day], output: seed)
            options.previous = seeds.last
            _ = try SeedBuilder(options: options).build()
            seeds.append(seed)
        }
        return seeds
    }

    func packed(_ seed: String) throws -> Int64 {
        try SeedPacker().pack(seed: seed, to: seed + ".gz").manifest.gzipSize
    }

    /// The guide's four queries on `seed`, with parameters the seed has.
    func answers(_ path: String) throws -> [String] {
        let db = try Connection(path: path, mode: .readOnly)
        let date = try #require(try db.scalar("SELECT date FROM (\(ServiceDays.expanded)) GROUP BY date ORDER BY count(*) DESC, date LIMIT 1")?.text)
        let stop = try #require(try db.scalar("SELECT stop_ref FROM stop_times GROUP BY stop_ref ORDER BY count(*) DESC, stop_ref LIMIT 1"))
        let place = try #require(try db.rows("SELECT stop_lat, stop_lon, substr(stop_name, 1, 4) FROM stops WHERE id = ?", [stop]).first)
        var lines: [String] = []
        for (name, values) in [("services-on-a-date", ["date": Value.text(date)]),
                               ("departures", ["stop": stop, "date": .text(date), "from": .integer(6 * 3600), "to": .integer(12 * 3600)]),
                               ("stops-matching", ["typed": place[2]]),
                               ("nearest-stops", ["lat": place[0], "lon": place[1], "lon_scale": .real(0.77), "limit": .integer(5)])] {
            let rows = try QueryingGuide.run(name, on: db, values)
            #expect(!rows.isEmpty, "the guide's \(name) query answers nothing on \(path)")
            lines += rows.map { name + ": " + $0.map(\.description).joined(separator: " | ") }
        }
        return lines
    }

    /// The bound of a day's delta was 8 % while a seed held a row per service date; the whole
    /// calendar as day bitmaps made the full .gz a quarter smaller (1.71 MB for 03-17, was
    /// 2.23 MB) and left the deltas as they were (138 KB), which are now 7.4 to 8.4 % of it.
    static let dailyBound = 0.085

    @Test("each daily delta is at most 8.5 % of the full .gz, a week apart at most 15 %; applied, it gives the seed CI built")
    func eightDays() throws {
        try #require(Self.days.count == 8, "the shared data has eight days")
        let seeds = try chain()
        var sizes: [String] = []
        let destination = folder.file("installed/seed.sqlite")
        _ = try SeedInstaller(source: seeds[0], destination: destination).install()
        for index in 1..<seeds.count {
            let delta = folder.file("\(index - 1)-\(index).delta")
            let summary = try SeedDeltaWriter().write(old: seeds[index - 1], new: seeds[index], to: delta)
            let full = try packed(seeds[index])
            let share = Double(summary.size) / Double(full)
            sizes.append(String(format: "%d->%d %.1f%%", index - 1, index, share * 100))
            #expect(share <= Self.dailyBound, "day \(index - 1) -> \(index): the delta is \(summary.size) bytes, \(share * 100) % of the \(full)-byte .gz")
            // Applied to the installed seed, day after day, as an app on a channel would.
            let result = try SeedInstaller(source: delta, destination: destination).install()
            #expect(result.status == .patched)
            let built = try Connection(path: seeds[index], mode: .readOnly)
            #expect(try ContentDigest.compute(path: destination) == built.scalar("SELECT value FROM seedgen_metadata WHERE key = 'content_sha256'")?.text)
        }
        #expect(try answers(destination) == answers(seeds.last!), "the guide's queries answer alike on the patched and the built seed")
        let week = try SeedDeltaWriter().write(old: seeds[0], new: seeds[7], to: folder.file("0-7.delta"))
        let share = Double(week.size) / Double(try packed(seeds[7]))
        #expect(share <= 0.15, "a week apart: \(share * 100) % of the full .gz")
        print("daily deltas of Renfe (share of the full .gz): \(sizes.joined(separator: ", ")); a week apart \(String(format: "%.1f%%", share * 100))")
    }
}
