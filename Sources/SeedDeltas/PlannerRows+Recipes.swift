import SeedArchive
import SeedSQLite

extension PlannerRows {
    /// A recipe this computes: its target, its kind, and whether it is a region seed's.
    package struct KnownRecipe: Equatable, Sendable {
        package var target: String
        package var kind: DeriveRecipe.Kind
        package var region: Bool
    }

    /// The SHA-256 of each recipe's `fill` computed here, as the build records them from
    /// Schema/transit.yaml: of a seed of one feed, and of a region seed (each feed's rows from
    /// its own, and the walks between feeds).
    package static let knownRecipes: [String: KnownRecipe] = [
        "919ad74430fd37116330d708490edf69034d15b783e373aade813bc591893bf0":
            KnownRecipe(target: "trip_patterns", kind: .table, region: false),
        "c41a307ae1a57aa77b248a36f3ec2d1c85b41e56e6f4bc141e4a76d85c310dfb":
            KnownRecipe(target: "trip_patterns", kind: .table, region: true),
        "9dcfce15969aee813fc99b7c35f9b40674b31d250f1584ce37bd5f20267b8c66":
            KnownRecipe(target: "pattern_stops", kind: .table, region: false),
        "b27a8291d1fadb9590533388363a88467018cd815fdc44a107bc6aae63ea7247":
            KnownRecipe(target: "pattern_stops", kind: .table, region: true),
        "6aa863f5e25224d1eb1486bc013d0abf628ac011d22ffecf4ac728e39e685be1":
            KnownRecipe(target: "footpaths", kind: .table, region: false),
        "9a559e63fb1c878e5f9953ac0b26439494ed901fbab21e20e0596e046ffcba29":
            KnownRecipe(target: "footpaths", kind: .table, region: true),
        "f2347afdcdbc12dd529d52c0b25a83a8255dd940176f248ce473f182495dff6d":
            KnownRecipe(target: "footpaths", kind: .rows, region: true)
    ]

    /// What `recipe` is, when its statement is exactly one computed here (and its kind and
    /// target those of that statement); nil otherwise.
    package static func known(_ recipe: DeriveRecipe) -> KnownRecipe? {
        var hash = SHA256()
        hash.update(Array(recipe.fill.utf8))
        guard let known = knownRecipes[hash.hexDigest()], known.target == recipe.target, known.kind == recipe.kind
        else { return nil }
        return known
    }

    /// Writes `recipe`'s rows, as its `fill` would, and returns true; or returns false, with
    /// nothing written, when the recipe is not one computed here or its inputs hold what the
    /// Swift does not model (the caller then runs the recipe's SQL). The target must be empty
    /// of the recipe's rows (``DeriveRecipe/clear(_:)``). It reads and writes what the recipe's
    /// SQL does (the same columns; no other table written), so an error here is the SQL's too:
    /// it is thrown, not retried.
    package func derive(_ recipe: DeriveRecipe, connection: Connection) throws(SQLiteError) -> Bool {
        guard let known = Self.known(recipe) else { return false }
        switch (known.target, known.kind) {
        case ("trip_patterns", _):
            try fillTripPatterns(region: known.region, connection: connection)
            return true
        case ("pattern_stops", _): return try fillPatternStops(region: known.region, connection: connection)
        case ("footpaths", .table): return try fillFootpaths(region: known.region, connection: connection)
        case ("footpaths", .rows): return try FootpathRows.fillCrossFeed(connection)
        default: return false
        }
    }
}
