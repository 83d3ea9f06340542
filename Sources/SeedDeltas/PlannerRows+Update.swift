import SeedSQLite

extension PlannerRows {
    /// The recipes of `affected` (those a delta's changes to `changedTables` affect) that
    /// ``updatePatterns(trips:connection:)`` brings up to date in place of deriving them again:
    /// a seed of one feed's `trip_patterns` and `pattern_stops`, both the known recipes reading
    /// no more than `stop_times` and each other, when the delta leaves the recipes alone.
    package static func patchable(_ affected: [DeriveRecipe], changedTables: Set<String>) -> [DeriveRecipe] {
        guard !changedTables.contains(DeriveRecipe.tableName) else { return [] }
        let names: Set<String> = ["trip_patterns", "pattern_stops"]
        let recipes = affected.filter { recipe in
            guard let known = known(recipe), !known.region, names.contains(known.target) else { return false }
            return Set(recipe.reads).isSubset(of: ["stop_times", "trip_patterns"])
        }
        return Set(recipes.map(\.target)) == names && recipes.count == 2 ? recipes : []
    }

    /// Brings a seed of one feed's `trip_patterns` and `pattern_stops` up to date after a delta
    /// changed the `stop_times` rows of `trips` (and no others): the rows the two recipes would
    /// give again, written by touching only the trips whose pattern moved. A touched trip is
    /// grouped again by its timed stops; a pattern that lost or gained a trip is named again by
    /// its smallest trip (its other trips' rows, and its `pattern_stops`, follow when that
    /// changes). At 3M stop_times and 6 % of trips replaced, a few thousand trips are read, not
    /// every stop time.
    ///
    /// Both tables must hold the base seed's rows (not cleared). The patched seed's content
    /// digest proves the result, as it proves a derivation whole.
    /// - Returns: false when the base's tables do not agree (a trip's pattern without stops):
    ///   the caller then derives both whole.
    package func updatePatterns(trips touched: Set<Int64>, connection: Connection) throws(SQLiteError) -> Bool {
        // Every pattern's stops (pattern_stops is small: a few stops a pattern).
        var keyOf: [Int64: PatternKey] = [:]
        let stopsRead = try connection.prepare("SELECT pattern, stop_ref FROM pattern_stops ORDER BY pattern, position")
        while try stopsRead.step() {
            keyOf[stopsRead.int64(at: 0), default: PatternKey(feed: 0)].append(stopsRead.int64(at: 1))
        }
        var idOf = [PatternKey: Int64](minimumCapacity: keyOf.count)
        for (id, key) in keyOf { idOf[key] = id }

        // The touched trips' patterns before, and their timed stops now.
        let oldPattern = try connection.prepare("SELECT pattern FROM trip_patterns WHERE trip_ref = ?")
        let timedStops = try connection.prepare(
            """
            SELECT stop_ref FROM stop_times
             WHERE trip_ref = ? AND stop_ref IS NOT NULL AND coalesce(arrival_time, departure_time) IS NOT NULL
             ORDER BY stop_sequence
            """)
        var groups: [PatternKey: Group] = [:]
        let removed = try connection.prepare("DELETE FROM trip_patterns WHERE trip_ref = ?")
        for trip in touched.sorted() {
            oldPattern.reset()
            try oldPattern.bind(trip, at: 1)
            if try oldPattern.step() {
                guard let key = keyOf[oldPattern.int64(at: 0)] else { return false }
                if groups[key] == nil { groups[key] = Group(before: idOf[key]) }
                removed.reset()
                try removed.bind(trip, at: 1)
                _ = try removed.step()
            }
            timedStops.reset()
            try timedStops.bind(trip, at: 1)
            var key = PatternKey(feed: 0)
            while try timedStops.step() { key.append(timedStops.int64(at: 0)) }
            if key.stops.count >= 2 { groups[key, default: Group(before: idOf[key])].joined.insert(trip) }
        }
        try collectStayers(&groups, touched: touched, connection: connection)
        try write(groups, connection: connection)
        return true
    }

    /// A pattern a touched trip left or joined: its id before (nil: a new pattern), the trips
    /// that joined it, and those that stayed (its untouched trips).
    struct Group {
        var before: Int64?
        var joined: Set<Int64> = []
        var stayed: [Int64] = []

        /// The pattern's id now: its smallest trip; nil once it has none.
        var after: Int64? { min(stayed.min() ?? .max, joined.min() ?? .max).nonMaxValue }
    }

    /// Fills each group's untouched trips, by one pass over `trip_patterns` (it has no index by
    /// pattern), for the groups whose id before is known.
    private func collectStayers(
        _ groups: inout [PatternKey: Group], touched: Set<Int64>, connection: Connection
    ) throws(SQLiteError) {
        var keyOfBefore: [Int64: PatternKey] = [:]
        for (key, group) in groups { if let before = group.before { keyOfBefore[before] = key } }
        guard !keyOfBefore.isEmpty else { return }
        let read = try connection.prepare("SELECT trip_ref, pattern FROM trip_patterns")
        while try read.step() {
            let trip = read.int64(at: 0)
            if let key = keyOfBefore[read.int64(at: 1)], !touched.contains(trip) { groups[key]?.stayed.append(trip) }
        }
    }

    /// Writes what the groups changed: the joined trips' rows; when a pattern's id changed, its
    /// stayers' rows and its stops (all old stops dropped first: a new id may be another
    /// pattern's old one, its trip having moved).
    private func write(_ groups: [PatternKey: Group], connection: Connection) throws(SQLiteError) {
        let renamed = groups.filter { $0.value.after != $0.value.before }
            .sorted {
                ($0.value.before ?? .max, $0.value.after ?? .max) < ($1.value.before ?? .max, $1.value.after ?? .max)
            }
        let dropStops = try connection.prepare("DELETE FROM pattern_stops WHERE pattern = ?")
        for before in renamed.compactMap(\.value.before) {
            dropStops.reset()
            try dropStops.bind(before, at: 1)
            _ = try dropStops.step()
        }
        let rename = try connection.prepare("UPDATE trip_patterns SET pattern = ?1 WHERE trip_ref = ?2")
        let stopRows = try IntegerRowInserter(
            into: "pattern_stops", columns: ["pattern", "position", "stop_ref"], connection: connection)
        for (key, group) in renamed {
            guard let after = group.after else { continue }
            for trip in group.stayed {
                rename.reset()
                try rename.bind(after, at: 1)
                try rename.bind(trip, at: 2)
                _ = try rename.step()
            }
            for (position, stop) in key.stops.enumerated() { try stopRows.insert(after, Int64(position), stop) }
        }
        try stopRows.flush()
        let tripRows = try IntegerRowInserter(
            into: "trip_patterns", columns: ["trip_ref", "pattern"], connection: connection)
        for group in groups.values.sorted(by: { ($0.after ?? .max) < ($1.after ?? .max) }) {
            guard let after = group.after else { continue }
            for trip in group.joined.sorted() { try tripRows.insert(trip, after) }
        }
        try tripRows.flush()
    }
}

extension Int64 {
    /// Nil for `Int64.max` (no value), else the value.
    fileprivate var nonMaxValue: Int64? { self == .max ? nil : self }
}
