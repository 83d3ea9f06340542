import Foundation
import SeedDeltas
import SeedSQLite

/// The planner's derived tables of a built seed (`trip_patterns`, `pattern_stops`, `footpaths`:
/// computed in Swift by the build) against their recorded recipes' SQL, run on a copy of the
/// same seed as the installer runs them after a delta, in order (each from the tables the SQL
/// derived before it; a target's recipes all, as a region seed's footpaths have two): every row
/// of one is a row of the other, both ways.
enum PlannerRecipeCheck {
    static let tables = ["trip_patterns", "pattern_stops", "footpaths"]

    /// The tables compared (those the seed records a recipe for) and what differs, said.
    static func compare(_ seed: String) throws -> (checked: [String], differences: [String]) {
        let copy = seed + ".by-sql"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: seed, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let db = try Connection(path: copy)
        var (checked, differences) = ([String](), [String]())
        let recipes = try DeriveRecipe.read(db)
        // A target's recipes in order (a region seed's footpaths: each feed's, then across feeds).
        for target in tables where recipes.contains(where: { $0.target == target }) {
            let name = quoted(target)
            let own = recipes.filter { $0.target == target }
            try db.execute("CREATE TEMP TABLE built AS SELECT * FROM main.\(name)")
            for recipe in own.reversed() { try recipe.clear(db) }
            for recipe in own { try recipe.derive(db) }
            func count(_ sql: String) throws -> Int64 { try db.scalar(sql)?.integer ?? -1 }
            let built = try count("SELECT count(*) FROM temp.built")
            let bySQL = try count("SELECT count(*) FROM main.\(name)")
            let onlyBuilt = try count(
                "SELECT count(*) FROM (SELECT * FROM temp.built EXCEPT SELECT * FROM main.\(name))")
            let onlySQL = try count("SELECT count(*) FROM (SELECT * FROM main.\(name) EXCEPT SELECT * FROM temp.built)")
            if built != bySQL || onlyBuilt != 0 || onlySQL != 0 {
                differences.append(
                    "\(target): \(built) rows built, \(bySQL) by the recipe's SQL; \(onlyBuilt) only built, "
                        + "\(onlySQL) only by SQL")
            }
            checked.append(target)
            try db.execute("DROP TABLE temp.built")
        }
        return (checked, differences)
    }
}
