import SeedKit
import SeedSQLite

/// Stops added and removed since the previous seed, drawn on the map in their own colours.
struct MapOverlay {
    var added: [MapMark] = []
    var removed: [MapMark] = []
}

/// The map: every spatial layer of the seed drawn as SVG in Web Mercator over the seed's extent
/// (points as dots with their names on hover, lines in their route's colour), the outliers
/// marked and listed. The page's script pans and zooms it by changing the view box.
enum MapSection {
    /// The section, and the number of dots drawn for the layer named `stops` (for the tests). A
    /// region seed gets a map per feed, each over its feed's extent.
    static func html(
        _ seed: ReportSeed, overlay: MapOverlay?, maxPoints: Int
    ) throws(ShipError) -> (html: String, stopMarks: Int) {
        let layers: [MapLayer]
        do { layers = try MapLayer.find(in: seed) } catch { throw seed.failure("the map's layers", error) }
        let feeds: [(id: Int64, name: String)?] = seed.isRegion ? seed.feeds.map { $0 } : [nil]
        var body = "", stopMarks = 0
        for (index, feed) in feeds.enumerated() {
            var points: [PointsData] = []
            var lines: [LinesData] = []
            do {
                for layer in layers {
                    if layer.kind == .points {
                        points.append(try PointsData(layer, in: seed, feed: feed?.id, limit: maxPoints))
                    } else {
                        lines.append(try LinesData(layer, in: seed, feed: feed?.id))
                    }
                }
            } catch {
                throw seed.failure("the map's coordinates", error)
            }
            if let feed { body += "<h3>Feed \(HTMLText.escape(feed.name))</h3>\n" }
            let name = feed?.name ?? ""
            let ownOverlay = overlay.map {
                MapOverlay(added: $0.added.filter { $0.feed == name }, removed: $0.removed.filter { $0.feed == name })
            }
            let map = figure(points: points, lines: lines, overlay: ownOverlay, number: index)
            body += map.html ?? HTMLText.note(noMap(layers))
            stopMarks += map.stopMarks
        }
        return (HTMLText.section(id: "map", title: "Map", body: body), stopMarks)
    }

    private static func noMap(_ layers: [MapLayer]) -> String {
        layers.isEmpty
            ? "No map: the seed has no table with coordinates (no spatial index, no lat and lon columns)."
            : "No map: the tables with coordinates (\(layers.map(\.table).joined(separator: ", "))) have no rows."
    }

    /// One map: its figure and its outliers' table (nil when nothing has coordinates), and its stops' dots.
    private static func figure(
        points: [PointsData], lines: [LinesData], overlay: MapOverlay?, number: Int
    ) -> (html: String?, stopMarks: Int) {
        guard points.contains(where: { !$0.marks.isEmpty }) || lines.contains(where: { !$0.lines.isEmpty }) else {
            return (nil, 0)
        }
        let framePoints =
            points.contains(where: { !$0.marks.isEmpty })
            ? points.flatMap { $0.marks.map(\.point) } : lines.flatMap { $0.lines.flatMap(\.points) }
        let frame = MapFrame(points: framePoints)
        var svg = ""
        var captions: [String] = []
        var outliers: [(String, MapMark)] = []
        for data in lines where !data.lines.isEmpty {
            let (text, caption) = linesSVG(data, frame: frame)
            svg += text
            captions.append(caption)
        }
        // A layer without a located row is left out, but the stops' (the tests count its dots).
        for data in points where data.total > 0 || data.layer.table == "stops" {
            let (text, caption, found) = pointsSVG(data, frame: frame)
            svg += text
            captions.append(caption)
            outliers += found.map { (data.layer.table, $0) }
        }
        if let overlay {
            svg += overlaySVG(overlay.removed, className: "removed", frame: frame)
            svg += overlaySVG(overlay.added, className: "added", frame: frame)
            captions.append(
                """
                Stops added since the previous seed: \(overlay.added.count) (green rings); removed: \
                \(overlay.removed.count) (red rings).
                """)
        }
        let stopMarks = points.first { $0.layer.table == "stops" }?.marks.count ?? 0
        return (figure(svg: svg, frame: frame, captions: captions, number: number) + outlierTable(outliers), stopMarks)
    }

    private static func figure(svg: String, frame: MapFrame, captions: [String], number: Int) -> String {
        let height = HTMLText.number(frame.height)
        let summary = captions.joined(separator: " ")
        return """
            <figure class="map">
            <div class="map-tools" role="group" aria-label="Map view">\
            <button type="button" data-zoom="in" aria-label="Zoom in">+</button>\
            <button type="button" data-zoom="out" aria-label="Zoom out">&#8722;</button>\
            <button type="button" data-zoom="reset">Reset view</button></div>
            <svg class="map-svg" id="map-\(number)" viewBox="0 0 1000 \(height)" data-width="1000" \
            data-height="\(height)" role="img" aria-labelledby="map-\(number)-title map-\(number)-desc">
            <title id="map-\(number)-title">Map of the seed's points and lines (Web Mercator)</title>
            <desc id="map-\(number)-desc">\(HTMLText.escape(summary))</desc>
            \(svg)</svg>
            <figcaption>\(HTMLText.escape(summary)) Drag to pan, scroll or use the buttons to zoom; \
            hover a mark for its name. Outliers (more than three times the size of the box of the middle \
            half of the points beyond it) are drawn in orange.</figcaption>
            </figure>

            """
    }

    /// The lines, simplified: a point closer than 0.25 units to the last one kept is left out.
    private static func linesSVG(_ data: LinesData, frame: MapFrame) -> (String, String) {
        var svg = ""
        var drawnPoints = 0, offPoints = 0, linesOff = 0
        for line in data.lines {
            var path = ""
            var last: (x: Double, y: Double)?
            var off = 0
            for (index, point) in line.points.enumerated() {
                if frame.isOutlier(point) || line.isOffRoute(point) { off += 1 }
                let projected = frame.project(point)
                if let last, index < line.points.count - 1,
                    abs(projected.x - last.x) + abs(projected.y - last.y) < 0.25
                {
                    continue
                }
                path += (last == nil ? "M" : "L") + HTMLText.number(projected.x) + " " + HTMLText.number(projected.y)
                last = projected
                drawnPoints += 1
            }
            offPoints += off
            if off > 0 { linesOff += 1 }
            let color = line.color.map { " stroke=\"\($0)\"" } ?? ""
            svg +=
                "<path\(off > 0 ? " class=\"off\"" : "") d=\"\(path)\"\(color)>"
                + "<title>\(HTMLText.escape(line.name))</title></path>\n"
        }
        let table = HTMLText.escape(data.layer.table)
        let caption =
            """
            \(data.layer.table): \(HTMLText.count(data.lines.count)) lines of \(HTMLText.count(data.pointCount)) \
            points (\(HTMLText.count(drawnPoints)) drawn), in their route's colour; \
            \(HTMLText.count(offPoints)) points of \(linesOff) lines are outliers or off their route (outside \
            the box of the stops their trips serve, grown by a quarter and at least 0.01°), drawn dashed.
            """
        let open =
            """
            <g class="lines" data-table="\(table)" data-total="\(data.lines.count)" \
            data-points="\(data.pointCount)" data-drawn-points="\(drawnPoints)" data-outliers="\(offPoints)">

            """
        return (open + svg + "</g>\n", caption)
    }

    private static func pointsSVG(_ data: PointsData, frame: MapFrame) -> (String, String, [MapMark]) {
        var svg = ""
        var outliers: [MapMark] = []
        for mark in data.marks {
            let (x, y) = frame.project(mark.point)
            let outlier = frame.isOutlier(mark.point)
            if outlier { outliers.append(mark) }
            svg +=
                "<circle\(outlier ? " class=\"o\"" : "") cx=\"\(HTMLText.number(x))\" cy=\"\(HTMLText.number(y))\">"
                + "<title>\(HTMLText.escape(mark.label))</title></circle>\n"
        }
        let table = HTMLText.escape(data.layer.table)
        let sampled =
            data.step > 1
            ? "one in \(data.step), \(HTMLText.count(data.marks.count)) drawn" : "all drawn"
        let caption =
            """
            \(data.layer.table): \(HTMLText.count(data.total)) points (\(sampled)), \(outliers.count) outliers.
            """
        let open =
            """
            <g class="points" data-table="\(table)" data-total="\(data.total)" data-drawn="\(data.marks.count)" \
            data-step="\(data.step)" data-outliers="\(outliers.count)">

            """
        return (open + svg + "</g>\n", caption, outliers)
    }

    private static func overlaySVG(_ marks: [MapMark], className: String, frame: MapFrame) -> String {
        var svg = "<g class=\"\(className)\" data-count=\"\(marks.count)\">\n"
        for mark in marks {
            let (x, y) = frame.project(mark.point)
            svg +=
                "<circle cx=\"\(HTMLText.number(x))\" cy=\"\(HTMLText.number(y))\">"
                + "<title>\(className): \(HTMLText.escape(mark.label))</title></circle>\n"
        }
        return svg + "</g>\n"
    }

    private static func outlierTable(_ outliers: [(String, MapMark)]) -> String {
        guard !outliers.isEmpty else { return HTMLText.note("No point is an outlier.") }
        let rows = outliers.prefix(50).map { table, mark in
            [table, mark.label, String(mark.lat), String(mark.lon)]
        }
        let more = outliers.count > 50 ? " (the first 50 of \(outliers.count))" : ""
        return HTMLText.table(
            caption: "Outliers: points far outside the box most points are in\(more)",
            headers: ["table", "name", "latitude", "longitude"], rows: rows)
    }
}
