import SeedSQLite

/// The canonical validator's ERRORs about the form of one value, reported as warnings (errors
/// under `--strict`): the seed keeps the value as written, only what uses it (a mail link, a
/// translation's language, a price's currency, a stop on a map) is off (see the GTFS guide's
/// table).
///
/// - `invalid_email`: agency_email, feed_contact_email, attribution_email not of the form
///   `name@host.tld`.
/// - `invalid_language_code`: agency_lang, feed_lang, default_lang, translations' language not
///   an IETF BCP 47 tag (`en`, `pt-BR`, `zh-Hant`).
/// - `invalid_currency`: fare_attributes' currency_type, fare_products' currency not an ISO 4217
///   code.
/// - `invalid_phone_number`: agency_phone, attribution_phone, booking_rules' phone_number with a
///   character other than digits, spaces and `+-().`, or fewer than two digits (`isPhoneNumber`).
/// - `point_near_origin` (within a degree of 0, 0), `point_near_pole` (89 degrees or more of
///   latitude): a stop's coordinates (shapes' points: `ShapePointChecks`).
struct FieldFormatChecks {
    let checks: GTFSChecks

    static let emailFields = [
        ("agency", "agency_email"), ("feed_info", "feed_contact_email"), ("attributions", "attribution_email")
    ]
    static let languageFields = [
        ("agency", "agency_lang"), ("feed_info", "feed_lang"), ("feed_info", "default_lang"),
        ("translations", "language")
    ]
    static let currencyFields = [("fare_attributes", "currency_type"), ("fare_products", "currency")]
    static let phoneFields = [
        ("agency", "agency_phone"), ("attributions", "attribution_phone"), ("booking_rules", "phone_number")
    ]

    func run() throws {
        let kind = BuildIssue.Kind.misleading(strict: checks.options.strict)
        for (table, field) in Self.emailFields {
            try checks.flagValues(
                of: field, in: table, kind: kind, code: NoticeCode.invalidEmail,
                message: { _ in "is not an email address (name@host.example): a mail to it cannot be sent" },
                isFlagged: { !Self.isEmail($0) })
        }
        for (table, field) in Self.languageFields {
            try checks.flagValues(
                of: field, in: table, kind: kind, code: NoticeCode.invalidLanguageCode,
                message: { _ in "is not a language code (IETF BCP 47, such as en or pt-BR)" },
                isFlagged: { !Self.isLanguageTag($0) })
        }
        for (table, field) in Self.currencyFields {
            try checks.flagValues(
                of: field, in: table, kind: kind, code: NoticeCode.invalidCurrency,
                message: { _ in "is not a currency code of ISO 4217 (such as EUR or USD): prices cannot be shown" },
                isFlagged: { !Self.currencies.contains($0) })
        }
        for (table, field) in Self.phoneFields {
            try checks.flagValues(
                of: field, in: table, kind: kind, code: NoticeCode.invalidPhoneNumber,
                message: { _ in "is not a phone number (digits, spaces and + - ( ) . only): it cannot be dialled" },
                isFlagged: { !Self.isPhoneNumber($0) })
        }
        try checkStopPoints(kind: kind)
    }

    /// Whether `text` reads as a phone number without knowing the feed's country: ASCII digits,
    /// spaces and `+`, `-`, `(`, `)`, `.` only, two digits or more (as gtfs-guru reads one when given
    /// a country; the validator asks libphonenumber, and only when given the feed's country).
    static func isPhoneNumber(_ text: String) -> Bool {
        var digits = 0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "0"..."9": digits += 1
            case " ", "+", "-", "(", ")", ".": continue
            default: return false
            }
        }
        return digits >= 2
    }

    private func checkStopPoints(kind: BuildIssue.Kind) throws {
        let columns = ["stop_lat", "stop_lon"]
        try checks.flagRows(
            of: "stops", key: "stop_id", columns: columns, condition: Self.nearOrigin("stop_lat", "stop_lon"),
            field: "stop_lat", kind: kind, code: NoticeCode.pointNearOrigin
        ) { _, _ in "and stop_lon are within a degree of 0, 0: coordinates left at zero, not the stop's place" }
        try checks.flagRows(
            of: "stops", key: "stop_id", columns: columns, condition: Self.nearPole("stop_lat"),
            field: "stop_lat", kind: kind, code: NoticeCode.pointNearPole
        ) { _, _ in "is 89 degrees or more from the equator: latitude and longitude swapped, most likely" }
    }

    /// SQL true when the point is within a degree of latitude and longitude 0, 0.
    static func nearOrigin(_ latitude: String, _ longitude: String) -> String {
        "abs(\(latitude)) <= 1 AND abs(\(longitude)) <= 1"
    }

    /// SQL true when the latitude is 89 degrees or more from the equator.
    static func nearPole(_ latitude: String) -> String { "abs(\(latitude)) >= 89" }

    /// Whether `text` reads as an email address: one `@`, a name before it without spaces, a
    /// host after it of dot-separated labels (letters, digits, hyphens), its last two letters or more.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(where: \.isWhitespace),
            !parts[0].hasPrefix("."), !parts[0].hasSuffix(".")
        else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, last.count >= 2, last.allSatisfy(\.isLetter) else {
            return false
        }
        return labels.allSatisfy { label in
            !label.isEmpty && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0 == "-" || $0.isLetter || $0.isNumber }
        }
    }

    /// Whether `text` is a well-formed IETF BCP 47 tag: a language of 2 to 8 ASCII letters, then
    /// subtags of 1 to 8 ASCII letters or digits, joined by hyphens.
    static func isLanguageTag(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = subtags.first, (2...8).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// The codes of ISO 4217 (current currencies and funds).
    static let currencies: Set<String> = Set(
        """
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD \
        CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP \
        GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW \
        KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD \
        NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE \
        SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED \
        VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWG \
        ZWL
        """.split(whereSeparator: \.isWhitespace).map(String.init))
}
