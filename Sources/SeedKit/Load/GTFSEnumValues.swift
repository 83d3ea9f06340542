/// `unexpected_enum_value` (MobilityData's WARNING): a GTFS field the reference enumerates
/// (route_type, location_type, pickup_type, ...) holding a whole number it does not define
/// (route_type 700, say: the validator knows the basic route types only). Found while loading,
/// in each batch of rows as the loader hands it to the writer (no pass over the table after:
/// stop_times has millions of rows; nor a test of every number as it is read: that cost the
/// 3M feed's load 3 % of its CPU), at the row's line; a warning whatever the flags, the value
/// stored as written. A value that is not a whole number is `invalid_integer`, as before;
/// calendar.txt's days are booleans in the transit schema (a 2 there is `invalid_integer`).
enum GTFSEnumValues {
    /// The values of each enumerated field, by table (as MobilityData's validator defines them).
    static let values: [String: [String: [Int64]]] = [
        "agency": ["cemv_support": [0, 1, 2]],
        "stops": ["location_type": [0, 1, 2, 3, 4], "wheelchair_boarding": [0, 1, 2], "stop_access": [0, 1]],
        "routes": [
            "route_type": [0, 1, 2, 3, 4, 5, 6, 7, 11, 12], "continuous_pickup": [0, 1, 2, 3],
            "continuous_drop_off": [0, 1, 2, 3], "cemv_support": [0, 1, 2]
        ],
        "trips": [
            "direction_id": [0, 1], "wheelchair_accessible": [0, 1, 2], "bikes_allowed": [0, 1, 2],
            "cars_allowed": [0, 1, 2]
        ],
        "stop_times": [
            "pickup_type": [0, 1, 2, 3], "drop_off_type": [0, 1, 2, 3], "continuous_pickup": [0, 1, 2, 3],
            "continuous_drop_off": [0, 1, 2, 3], "timepoint": [0, 1]
        ],
        "calendar_dates": ["exception_type": [1, 2]],
        "frequencies": ["exact_times": [0, 1]],
        "transfers": ["transfer_type": [0, 1, 2, 3, 4, 5]],
        "fare_attributes": ["payment_method": [0, 1], "transfers": [0, 1, 2]],
        "rider_categories": ["is_default_fare_category": [0, 1]],
        "fare_media": ["fare_media_type": [0, 1, 2, 3, 4]],
        "fare_transfer_rules": ["duration_limit_type": [0, 1, 2, 3], "fare_transfer_type": [0, 1, 2]],
        "pathways": ["pathway_mode": [1, 2, 3, 4, 5, 6, 7], "is_bidirectional": [0, 1]],
        "booking_rules": ["booking_type": [0, 1, 2]],
        "attributions": ["is_producer": [0, 1], "is_operator": [0, 1], "is_authority": [0, 1]]
    ]

    /// Per column of `table`, the bits of the values it allows (bit n: n is allowed; 0: not
    /// an enumerated field); nil when the table has none or the schema is not the transit
    /// schema read from CSV. Every value defined is below 64.
    static func masks(for table: Table, schema: Schema) -> [UInt64]? {
        guard schema.name == "transit", schema.format == .csv, let fields = values[table.name] else { return nil }
        let masks = table.columns.map { column -> UInt64 in
            guard column.type == .integer, let allowed = fields[column.name] else { return 0 }
            return allowed.reduce(0) { $0 | 1 << UInt64($1) }
        }
        return masks.contains { $0 != 0 } ? masks : nil
    }

    /// Whether `value` is one of the values of `mask`.
    @inline(__always)
    static func allows(_ mask: UInt64, _ value: Int64) -> Bool {
        value >= 0 && value < 64 && mask & 1 << UInt64(value) != 0
    }

    /// Records `unexpected_enum_value` for each number of `batch` (the rows the loader accepted)
    /// outside its column's `masks`, at its row's line.
    static func report(_ batch: RowBatch, masks: [UInt64], table: Table, fields: SourceFields, issues: IssueLog) {
        for (index, mask) in masks.enumerated() where mask != 0 {
            for row in 0..<batch.count {
                let cell = row * batch.columnCount + index
                guard batch.tags[cell] == RowBatch.Tag.integer.rawValue, !allows(mask, batch.words[cell]) else {
                    continue
                }
                let place = fields.place(of: index), name = table.columns[index].name
                issues.record(
                    BuildIssue(
                        kind: .bestPractice, file: place.file, line: Int(batch.lines[row]), field: place.field ?? name,
                        value: String(batch.words[cell]), message: message(table: table.name, field: name),
                        code: NoticeCode.unexpectedEnumValue))
            }
        }
    }

    /// What a value of `field` of `table` that is not one of its values says.
    static func message(table: String, field: String) -> String {
        let allowed = (values[table]?[field] ?? []).map(String.init).joined(separator: ", ")
        return "is not one of the values the reference defines for \(field) (\(allowed)): kept as written"
    }
}
