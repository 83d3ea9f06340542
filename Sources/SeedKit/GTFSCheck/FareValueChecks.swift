import SeedSQLite

/// The canonical validator's ERRORs on fares' values, reported as warnings (errors under
/// `--strict`): the seed keeps the rows as written, only a fare shown from them is off.
///
/// - `invalid_currency_amount`: a fare_attributes price or a fare_products amount written with
///   other decimals than its currency's minor unit (ISO 4217: `1.50` in USD, `150` in JPY), as
///   the validator reads it (the written scale, not the value: `1.5` USD is flagged). Checked
///   on the text of the input file (the seed stores a number, so `seedgen report` cannot).
/// - `duplicate_fare_rule_zone_id_fields`: a fare rule whose route_id, origin_id,
///   destination_id and contains_id are an earlier rule's, of another fare_id (the same fare_id
///   is a duplicate key, found while loading): which of the two fares applies is ambiguous.
struct FareValueChecks {
    let checks: GTFSChecks

    /// The tables whose amount is a currency amount: (table, its key, amount, currency).
    static let amounts = [
        ("fare_attributes", ["fare_id"], "price", "currency_type"),
        ("fare_products", ["fare_product_id", "rider_category_id", "fare_media_id"], "amount", "currency")
    ]

    func run() throws {
        let kind = BuildIssue.Kind.misleading(strict: checks.options.strict)
        for (table, key, amount, currency) in Self.amounts {
            try checkAmounts(of: table, key: key, amount: amount, currency: currency, kind: kind)
        }
        try checkZoneFields(kind: kind)
    }

    private func checkAmounts(
        of table: String, key: [String], amount: String, currency: String, kind: BuildIssue.Kind
    ) throws {
        let columns = key + [amount, currency]
        guard columns.allSatisfy({ checks.has(table: table, column: $0) }), let file = checks.file(of: table) else {
            return
        }
        let rows = try checks.connection.rows(
            """
            SELECT \(key.map(quoted).joined(separator: ", ")) FROM \(quoted(table)) \
            WHERE \(quoted(amount)) IS NOT NULL AND \(quoted(currency)) IS NOT NULL
            """)
        let keys = Set(rows.map { $0.map(CSVRowLocator.key) })
        try checks.places.locate(table, matching: key, keys: keys, showing: [amount, currency]) { _, row in
            // A seed's row shows the stored number, not the written text: not checked there.
            guard row.line != nil, let written = row.fields[amount], let code = row.fields[currency]?.text,
                let digits = Self.minorUnit(of: code), Self.decimals(of: written.text) != digits
            else { return }
            checks.issues.record(
                BuildIssue(
                    kind: kind, file: file, line: row.line, row: row.key, column: written.column, field: amount,
                    value: written.text,
                    message:
                        "is written with \(Self.decimals(of: written.text)) decimals; \(code) has \(digits) "
                        + "(ISO 4217): the amount may be shown wrongly",
                    code: NoticeCode.invalidCurrencyAmount))
        }
    }

    /// The decimals `text` is written with: the digits after its point (before an exponent).
    static func decimals(of text: String) -> Int {
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text[text.index(after: point)...].prefix { $0.isASCII && $0.isNumber }.count
    }

    /// The digits of `currency`'s minor unit (ISO 4217, as Java's `Currency` gives them); nil for
    /// a code that is not a currency of ISO 4217 (`invalid_currency`) or has no minor unit (gold, XXX).
    static func minorUnit(of currency: String) -> Int? {
        guard FieldFormatChecks.currencies.contains(currency), !withoutMinorUnit.contains(currency) else { return nil }
        return minorUnits[currency] ?? 2
    }

    /// ISO 4217's currencies whose minor unit is not 2 digits.
    static let minorUnits: [String: Int] = {
        var units: [String: Int] = [:]
        for code in "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF".split(separator: " ") {
            units[String(code)] = 0
        }
        for code in "BHD IQD JOD KWD LYD OMR TND".split(separator: " ") { units[String(code)] = 3 }
        for code in "CLF UYW".split(separator: " ") { units[String(code)] = 4 }
        return units
    }()

    /// ISO 4217's codes without a minor unit (precious metals, units of account, testing).
    static let withoutMinorUnit: Set<String> = Set(
        "XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XTS XUA XXX".split(separator: " ").map(String.init))

    private func checkZoneFields(kind: BuildIssue.Kind) throws {
        let fields = ["fare_id", "route_id", "origin_id", "destination_id", "contains_id"]
        guard fields.allSatisfy({ checks.has(table: "fare_rules", column: $0) }),
            let file = checks.file(of: "fare_rules"), let table = checks.schema.table(named: "fare_rules")
        else { return }
        let zones = fields.dropFirst().map(quoted).joined(separator: ", ")
        // Every rule after the first of its route and zones (by row id), with the first's fare_id.
        let rows = try checks.connection.rows(
            """
            SELECT \(fields.map(quoted).joined(separator: ", ")), earliest FROM (SELECT \
            \(fields.map(quoted).joined(separator: ", ")), row_number() OVER zones AS n, \
            first_value(fare_id) OVER zones AS earliest FROM fare_rules WINDOW zones AS (PARTITION BY \(zones) \
            ORDER BY \(quoted(table.rowID)))) WHERE n > 1
            """)
        var earlier: [[String]: String] = [:]
        for row in rows { earlier[row[0..<5].map(CSVRowLocator.key)] = CSVRowLocator.key(row[5]) }
        try checks.places.locate("fare_rules", matching: fields, keys: Set(earlier.keys), showing: ["fare_id"]) {
            key, row in
            checks.issues.record(
                row.issue(
                    kind, file: file, field: "fare_id", value: row.fields["fare_id"]?.text ?? key[0],
                    message:
                        "has the route_id, origin_id, destination_id and contains_id of an earlier rule of fare_id "
                        + "'\(earlier[key] ?? "")': which of the two fares applies is ambiguous",
                    code: NoticeCode.duplicateFareRuleZoneIdFields))
        }
    }
}
