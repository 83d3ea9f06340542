/// The walks of a region seed between stops of different feeds: `footpaths` rows of kind 0 that
/// no feed's recipe gives (each feed's rows are derived from that feed's rows alone), by the
/// same rule across feeds (stops that may be within the walking distance, by the same cells and
/// arithmetic as the transit schema's `footpaths` recipe, kept when a trip serves one of the
/// two). A row is stored once, from the smaller id, and belongs to the feed of its
/// `from_stop_ref` (its `feed_ref`). Only a region seed whose `footpaths` recipe is the one
/// the build computes in Swift gets them (`PlannerTables`, SeedKit): a seed of one feed is unchanged.
///
/// The seed records them as a recipe of their own (`rows`, after the table's: its rows are those
/// whose two stops are of different feeds), run once over every feed's stops, so the installer
/// derives them again after a delta to any feed; the build computes the same rows in Swift
/// (`FootpathRows.fillCrossFeed`), as the installer does when the recipe is this one (``PlannerRows``).
package enum CrossFeedFootpaths {
    /// The table the rows go to.
    package static let table = "footpaths"

    /// The recipe the seed records, after the table's own.
    package static var recipe: DeriveRecipe {
        DeriveRecipe(kind: .rows, target: table, reads: ["pattern_stops", "stops"], rows: rows, fill: fill)
    }

    /// The rows it derives: those whose stops are of different feeds.
    package static let rows = #""feed_ref" IS NOT (SELECT "feed_ref" FROM "stops" WHERE "id" = "to_stop_ref")"#

    /// The statement: the recipe's cells over the stops of every feed, pairs of different feeds.
    package static let fill = """
        INSERT INTO "footpaths" ("feed_ref", "from_stop_ref", "to_stop_ref", "kind", "min_transfer_time")
        WITH RECURSIVE
          served(stop) AS (SELECT DISTINCT stop_ref FROM pattern_stops),
          placed(id, feed, lat, lon, x, y, cc, reach, served) AS (
            SELECT id, feed_ref, lat, lon, CAST(lat / 0.004 AS INTEGER) - (lat < CAST(lat / 0.004 AS INTEGER) * 0.004),
                   CAST(lon / 0.004 AS INTEGER) - (lon < CAST(lon / 0.004 AS INTEGER) * 0.004), c * c,
                   CAST(0.9016 / max(c, 0.01) AS INTEGER) + 1, id IN served
              FROM (SELECT id, feed_ref, stop_lat AS lat, stop_lon AS lon,
                           1 + r * (-1 / 2.0 + r * (1 / 24.0 + r * (-1 / 720.0 + r * (1 / 40320.0 \
        + r * (-1 / 3628800.0 + r / 479001600.0)))))
                             AS c
                      FROM (SELECT id, feed_ref, stop_lat, stop_lon, \
        (abs(stop_lat) + 0.004) * (abs(stop_lat) + 0.004) * 0.00030461741978670857 AS r
                              FROM stops WHERE stop_lat IS NOT NULL AND stop_lon IS NOT NULL))
             GROUP BY id
          ),
          steps(d) AS (
            SELECT -(SELECT max(reach) FROM placed) UNION ALL SELECT d + 1 FROM steps \
        WHERE d < (SELECT max(reach) FROM placed)
          ),
          band(dx) AS (VALUES (0), (1))
        SELECT CASE WHEN p.id < q.id THEN p.feed ELSE q.feed END, min(p.id, q.id), max(p.id, q.id), 0, NULL
          FROM placed AS p CROSS JOIN band CROSS JOIN steps CROSS JOIN placed AS q
         WHERE abs(steps.d) <= p.reach AND (band.dx = 1 OR steps.d > 0 OR steps.d = 0 AND q.id > p.id)
           AND q.x = p.x + band.dx AND q.y = p.y + steps.d AND q.feed <> p.feed AND (p.served OR q.served)
           AND (q.lat - p.lat) * (q.lat - p.lat) + (q.lon - p.lon) * (q.lon - p.lon) * p.cc <= 160801 / 12364311703.0
         ORDER BY 1, 2, 3
        """
}
