import Foundation
@testable import SeedDeltas
import SeedSQLite
import SeedTestSupport
import Testing

/// After a delta changes some trips' stop times, the installer brings `trip_patterns` and
/// `pattern_stops` up to date by those trips alone (`PlannerRows.updatePatterns`): the rows
/// must be the ones both recipes give when derived whole.
@Suite("The planner's patterns brought up to date after a delta")
struct PlannerPatternUpdateTests {
    let folder = TemporaryFolder()

    /// Trips 1, 4, 7 stop at 10, 11, 12; trips 2, 5 at 10, 12; trips 3, 6, 9 at 20, 21; trip 8
    /// has one stop; trip 10 runs 12, 11, 10; trip 11's middle stop has no time (its pattern: 10, 12).
    static let feed = """
        CREATE TABLE stop_times (trip_ref INTEGER NOT NULL, stop_sequence INTEGER NOT NULL, stop_ref INTEGER,
          arrival_time INTEGER, departure_time INTEGER, PRIMARY KEY (trip_ref, stop_sequence)) WITHOUT ROWID;
        CREATE TABLE trip_patterns (trip_ref INTEGER NOT NULL PRIMARY KEY, pattern INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE pattern_stops (pattern INTEGER NOT NULL, position INTEGER NOT NULL, stop_ref INTEGER NOT NULL,
          PRIMARY KEY (pattern, position)) WITHOUT ROWID;
        INSERT INTO stop_times VALUES
          (1, 1, 10, 100, 100), (1, 2, 11, 200, 200), (1, 3, 12, 300, 300),
          (4, 1, 10, 400, 400), (4, 2, 11, 500, 500), (4, 3, 12, 600, 600),
          (7, 1, 10, 700, 700), (7, 2, 11, 800, 800), (7, 3, 12, 900, 900),
          (2, 1, 10, 100, 100), (2, 2, 12, 300, 300), (5, 1, 10, 400, 400), (5, 2, 12, 600, 600),
          (3, 1, 20, 100, 100), (3, 2, 21, 200, 200), (6, 1, 20, 300, 300), (6, 2, 21, 400, 400),
          (9, 1, 20, 500, 500), (9, 2, 21, 600, 600), (8, 1, 10, 100, 100),
          (10, 1, 12, 100, 100), (10, 2, 11, 200, 200), (10, 3, 10, 300, 300),
          (11, 1, 10, 100, 100), (11, 2, 11, NULL, NULL), (11, 3, 12, 300, 300);
        """

    /// Both tables' rows, in key order.
    func rows(_ connection: Connection) throws -> [[Value]] {
        try connection.rows("SELECT 'trip', trip_ref, pattern, 0 FROM trip_patterns ORDER BY trip_ref")
            + connection.rows("SELECT 'stop', pattern, position, stop_ref FROM pattern_stops ORDER BY pattern, position")
    }

    func deriveWhole(_ connection: Connection) throws {
        try connection.execute("DELETE FROM trip_patterns; DELETE FROM pattern_stops")
        let planner = PlannerRows()
        try planner.fillTripPatterns(region: false, connection: connection)
        #expect(try planner.fillPatternStops(region: false, connection: connection))
    }

    @Test("each kind of change gives the rows derived whole: a pattern named again, merged, split, emptied, new")
    func changes() throws {
        let connection = try Connection(path: folder.file("seed.sqlite"))
        try connection.execute(Self.feed)
        try deriveWhole(connection)
        #expect(try connection.scalar("SELECT count(*) FROM pattern_stops")?.integer == 10, "4 patterns, 10 stops")
        let changes: [(String, String, Set<Int64>)] = [
            ("the trip that names its pattern leaves it", "DELETE FROM stop_times WHERE trip_ref = 1", [1]),
            (
                "a trip takes another pattern's stops and names it; its old pattern is named by the next",
                "DELETE FROM stop_times WHERE trip_ref = 2; INSERT INTO stop_times VALUES (2, 1, 20, 1, 1), (2, 2, 21, 2, 2)",
                [2]
            ),
            ("a new trip with a smaller id joins", "INSERT INTO stop_times VALUES (0, 1, 20, 1, 1), (0, 2, 21, 2, 2)", [0]),
            ("a trip left with one timed stop", "UPDATE stop_times SET arrival_time = NULL, departure_time = NULL WHERE trip_ref = 5 AND stop_sequence = 2", [5]),
            ("a trip given a second timed stop", "INSERT INTO stop_times VALUES (8, 2, 12, 200, 200)", [8]),
            ("a new pattern", "INSERT INTO stop_times VALUES (13, 1, 30, 1, 1), (13, 2, 31, 2, 2), (13, 3, 32, 3, 3)", [13]),
            ("only times change", "UPDATE stop_times SET arrival_time = arrival_time + 60 WHERE trip_ref = 7", [7]),
            ("a pattern loses its only trip", "DELETE FROM stop_times WHERE trip_ref = 10", [10]),
            ("a stop gets its time: the trip joins another pattern", "UPDATE stop_times SET arrival_time = 200 WHERE trip_ref = 11 AND stop_sequence = 2", [11]),
            (
                "all at once",
                """
                DELETE FROM stop_times WHERE trip_ref IN (1, 2, 10);
                INSERT INTO stop_times VALUES (2, 1, 20, 1, 1), (2, 2, 21, 2, 2), (0, 1, 10, 1, 1), (0, 2, 12, 2, 2),
                  (13, 1, 12, 1, 1), (13, 2, 11, 2, 2), (13, 3, 10, 3, 3)
                """,
                [0, 1, 2, 10, 13]
            ),
            ("nothing touched", "SELECT 1", []),
        ]
        for (name, sql, trips) in changes {
            try connection.execute("SAVEPOINT change")
            try connection.execute(sql)
            #expect(try PlannerRows().updatePatterns(trips: trips, connection: connection), "\(name)")
            let updated = try rows(connection)
            try deriveWhole(connection)
            #expect(updated == (try rows(connection)), "\(name)")
            try connection.execute("ROLLBACK TO change; RELEASE change")
        }
    }

    @Test("base tables that disagree (a trip's pattern without stops): false, for the caller to derive whole")
    func disagreeing() throws {
        let connection = try Connection(path: folder.file("seed.sqlite"))
        try connection.execute(Self.feed)
        try deriveWhole(connection)
        try connection.execute("DELETE FROM pattern_stops WHERE pattern = 3")
        #expect(try PlannerRows().updatePatterns(trips: [6], connection: connection) == false)
    }
}
