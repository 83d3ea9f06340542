import SeedKit
import SeedSQLite
import SeedShip

/// What `seedgen inspect` says of the seed, as tables: versions and digest, rows and bytes per
/// table, the query features' cost and, for a region seed, each feed.
enum SummarySection {
    static func html(_ seed: ReportSeed) -> String {
        let report = seed.inspection
        var facts: [[String]] = [
            ["file", seed.path],
            [
                "schema",
                "\(report.schemaName.map { "'\($0)' " } ?? "")version \(report.schemaVersion.map(String.init) ?? "?")"
            ],
            ["seed version", report.seedVersion ?? "?"]
        ]
        if let tool = report.toolVersion { facts.append(["built by", "seedgen \(tool)"]) }
        if let digest = report.contentSha256 { facts.append(["content sha256", digest]) }
        if let digest = report.schemaSha256, !digest.isEmpty { facts.append(["schema sha256", digest]) }
        if let size = report.size {
            facts.append(["size", "\(HTMLText.bytes(size)) (\(HTMLText.count(size)) bytes)"])
        }
        if let gzip = report.gzip { facts.append(["gzip", HTMLText.bytes(gzip.size)]) }
        let rows = report.tables.values.reduce(0, +)
        facts.append(["rows", "\(HTMLText.count(rows)) in \(report.tables.count) tables"])
        var html = "<div class=\"cols\"><div>"
        html += HTMLText.table(caption: "The seed", headers: ["fact", "value"], rows: facts)
        if let costs = report.queryIndexes, !costs.isEmpty { html += costsHTML(costs, seedBytes: report.size) }
        html += "</div><div>" + tablesHTML(report) + "</div></div>\n"
        if let feeds = report.feeds, !feeds.isEmpty { html += feedsHTML(feeds) }
        return HTMLText.section(id: "summary", title: "Summary", body: html)
    }

    private static func tablesHTML(_ report: SeedReport) -> String {
        let details =
            report.tableDetails?.map { ($0.name, $0.rows, $0.bytes, $0.columns.count) }
            ?? report.tables.sorted { $0.key < $1.key }.map { ($0.key, $0.value, nil, 0) }
        // The empty tables in one line, so that the tables with rows and the map stay in view.
        let rows = details.filter { $0.1 > 0 }.map { name, count, bytes, columns in
            [name, HTMLText.count(count), bytes.map(HTMLText.bytes) ?? "", columns > 0 ? String(columns) : ""]
        }
        let empty = details.filter { $0.1 == 0 }.map(\.0)
        return HTMLText.table(
            caption: "Tables with rows: rows and bytes (pages of the table, its indexes not included)",
            headers: ["table", "rows", "bytes", "columns"], rows: rows, numeric: [1, 2, 3])
            + (empty.isEmpty
                ? ""
                : HTMLText.note("\(empty.count) empty tables: \(empty.joined(separator: ", ")).", className: "empty"))
    }

    private static func costsHTML(_ costs: [QueryIndexCost], seedBytes: Int64?) -> String {
        let rows = costs.map { cost in
            let share = cost.bytes.flatMap { bytes in
                seedBytes.map { String(format: "%.1f %%", Double(bytes) * 100 / Double(max($0, 1))) }
            }
            return [
                cost.name, cost.kind.rawValue, cost.table ?? "", HTMLText.count(cost.rows),
                cost.bytes.map(HTMLText.bytes) ?? "", share ?? ""
            ]
        }
        return HTMLText.table(
            caption: "Query features: search, spatial, derived tables, indexes beyond a reference's",
            headers: ["name", "kind", "table", "rows", "bytes", "of the seed"], rows: rows, numeric: [3, 4, 5])
    }

    private static func feedsHTML(_ feeds: [FeedSummary]) -> String {
        var html = "<h3>Feeds</h3>\n"
        let rows = feeds.map { feed in
            [
                feed.name, feed.source, "\(feed.startDate ?? "?") to \(feed.endDate ?? "?")", feed.publisher ?? "",
                feed.version ?? "", HTMLText.count(feed.totalRows)
            ]
        }
        html += HTMLText.table(
            caption: "The feeds of this region seed",
            headers: ["feed", "source", "validity", "publisher", "version", "rows"],
            rows: rows, numeric: [5])
        for feed in feeds {
            let tables = feed.tablesBySize.map { [$0.name, HTMLText.count($0.rows)] }
            html += "<details><summary>Rows of feed \(HTMLText.escape(feed.name))</summary>\n"
            html += HTMLText.table(
                caption: "Rows of feed \(feed.name) by table", headers: ["table", "rows"], rows: tables, numeric: [1])
            html += "</details>\n"
        }
        return html
    }
}

/// The first rows of each table, for a seed of any schema.
enum SamplesSection {
    static func html(_ seed: ReportSeed, rows limit: Int) throws(ShipError) -> String {
        var html = HTMLText.note("The first \(limit) rows of each table, in storage order; long values are cut.")
        for table in seed.tables.sorted() {
            do {
                let columns = try seed.columns(of: table)
                let rows = try seed.connection.rows("SELECT * FROM \(quoted(table)) LIMIT \(limit)").map { row in
                    row.map { value in
                        let text = value.description
                        return text.count > 80 ? String(text.prefix(77)) + "..." : text
                    }
                }
                html += "<details><summary>\(HTMLText.escape(table))</summary>\n"
                html += HTMLText.table(caption: "The first rows of \(table)", headers: columns, rows: rows)
                html += "</details>\n"
            } catch {
                throw seed.failure("the rows of \(table)", error)
            }
        }
        return HTMLText.section(id: "samples", title: "Sample rows", body: html)
    }
}
