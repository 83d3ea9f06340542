/// Loads a GeoJSON `FeatureCollection` (GTFS `locations.geojson`) into a table: one row per
/// feature. A column whose source is `id` gets the feature's id, `properties` and `geometry`
/// get that member as JSON text (keys sorted, so the seed is deterministic: the form
/// `CanonicalJSONWriter` writes), any other source the property of that name. In messages,
/// the "line" of a row is the feature's number.
///
/// The file is read one feature at a time (`GeoJSONFeatureReader`), so memory stays bounded
/// whatever its size; a feature longer than `--max-record-size` is an error.
struct GeoJSONImporter {
    let file: InputFile
    let loader: TableLoader
    let progress: BuildProgress?

    /// The file name endings read as GeoJSON.
    static func reads(_ name: String) -> Bool { name.lowercased().hasSuffix(".geojson") }

    /// Reads every feature, one at a time; returns the input's record for the seed's metadata.
    func run() throws(BuildError) -> InputRecord {
        let source: MeasuredByteSource
        do { source = MeasuredByteSource(try file.open()) } catch { throw .input(error) }
        let columns = loader.table.columns
        let named = columns.contains {
            $0.source.contains { !["id", "properties", "geometry", Schema.feedSource].contains($0) }
        }
        let reader = GeoJSONFeatureReader(
            source: source, file: file.displayPath,
            maximumValueBytes: loader.context.limits.recordBytes, namedProperties: named)
        progress?.started(file: file.name, table: loader.table.name, bytes: file.size)
        var features = 0
        do {
            while let feature = try reader.next() {
                features += 1
                loader.beginRow(line: features)
                if feature.type != "Feature" { reportFeatureType(feature.type, feature: features) }
                if let problem = feature.geometryProblem { reportGeometry(problem, of: feature, number: features) }
                for (index, column) in columns.enumerated() {
                    if column.source == [Schema.feedSource] {
                        try loader.setFeed(index)
                        continue
                    }
                    if let text = column.source.lazy.compactMap({ feature.value(of: $0) }).first {
                        try text.withUnsafeBytes { try loader.set(index, $0) }
                    } else {
                        try loader.set(index, nil)
                    }
                }
                try loader.finishRow()
            }
            try loader.finish()
        } catch let error as GeoJSONSyntaxError {
            loader.context.issues.record(error.issue)
        } catch let error as InputError {
            throw .input(error)
        } catch {
            throw .seed(error)
        }
        progress?.finished(file: file.name, rows: loader.rowCount)
        return InputRecord(
            name: file.name, sha256: source.sha256, bytes: source.bytesRead, rows: loader.rowCount,
            rejected: max(0, features - loader.rowCount))
    }

    /// `invalid_geometry`: a Polygon or MultiPolygon whose rings are not closed, too short or
    /// not of positions (`PolygonRings`), kept as written (a warning, an error under `--strict`).
    private func reportGeometry(_ problem: String, of feature: GeoJSONFeature, number: Int) {
        loader.context.issues.record(
            BuildIssue(
                kind: loader.context.strict ? .misleadingDataError : .misleadingData, file: file.displayPath,
                line: number, field: "geometry",
                message: "of the feature with id '\(feature.id ?? "")' \(problem): the zone an app draws is off",
                code: NoticeCode.invalidGeometry))
    }

    /// `unsupported_feature_type`: a feature whose `type` is not `Feature`, read as one all the
    /// same (a warning, an error under `--strict`).
    private func reportFeatureType(_ type: String?, feature: Int) {
        let strict = loader.context.strict
        loader.context.issues.record(
            BuildIssue(
                kind: strict ? .misleadingDataError : .misleadingData, file: file.displayPath, line: feature,
                field: "type", value: type,
                message: "of this feature is \(type.map { "'\($0)'" } ?? "missing"), not 'Feature': read as a feature",
                code: NoticeCode.unsupportedFeatureType))
    }
}
