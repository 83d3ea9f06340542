import Foundation

/// Loads a GeoJSON `FeatureCollection` (GTFS `locations.geojson`) into a table: one row per
/// feature. A column whose source is `id` gets the feature's id, `properties` and `geometry`
/// get that member as JSON text (keys sorted, so the seed is deterministic), any other source
/// the property of that name. In messages, the "line" of a row is the feature's number.
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
        let reader = GeoJSONFeatureReader(
            source: source, file: file.displayPath, maximumValueBytes: loader.context.limits.recordBytes)
        progress?.started(file: file.name, table: loader.table.name, bytes: file.size)
        let columns = loader.table.columns
        var features = 0
        do {
            while let item = try reader.next() {
                features += 1
                loader.beginRow(line: features)
                let feature = item as? [String: Any] ?? [:]
                let properties = feature["properties"] as? [String: Any] ?? [:]
                for (index, column) in columns.enumerated() {
                    if column.source == [Schema.feedSource] {
                        try loader.setFeed(index)
                        continue
                    }
                    let text = column.source.lazy.compactMap { Self.value(of: $0, in: feature, properties: properties) }
                        .first
                    if let text {
                        var bytes = text
                        try bytes.withUTF8 { try loader.set(index, UnsafeRawBufferPointer($0)) }
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

    /// The text of `source` in a feature: its `id`, its `properties` or `geometry` as JSON, or
    /// one property.
    static func value(of source: String, in feature: [String: Any], properties: [String: Any]) -> String? {
        switch source {
        case "id": return feature["id"].flatMap(scalarText)
        case "properties", "geometry": return feature[source].flatMap(json)
        default: return properties[source].flatMap { scalarText($0) ?? json($0) }
        }
    }

    private static func scalarText(_ value: Any) -> String? {
        switch value {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    private static func json(_ value: Any) -> String? {
        guard !(value is NSNull), JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
