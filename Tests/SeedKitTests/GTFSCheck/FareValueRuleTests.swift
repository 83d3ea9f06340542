import Foundation
import SeedKitTestSupport
import SeedTestSupport
import Testing
@testable import SeedKit

@Suite("the canonical validator's rules on fares' amounts and zones, phone numbers, transfers above 2 km")
struct FareValueRuleTests {
    @Test("invalid_currency_amount: an amount written with other decimals than its currency's, in both fare files")
    func currencyAmount() throws {
        let attributes = """
            fare_id,price,currency_type,payment_method,transfers
            F1,2.50,EUR,0,
            F2,2.5,EUR,0,
            F3,250,JPY,0,
            F4,250.0,JPY,0,
            F5,1.250,KWD,0,
            F6,2.505,USD,0,
            F7,2,EURO,0,

            """
        let products = "fare_product_id,amount,currency\nP1,2.75,USD\nP2,3,USD\nP3,100,KRW\n"
        let build = try Checked(["fare_attributes.txt": attributes, "fare_products.txt": products])
        #expect(build.built, "a warning: the amount is kept as written")
        let found = build.found(NoticeCode.invalidCurrencyAmount)
        #expect(found.map(\.line) == [3, 5, 7, 3], "2.5 EUR, 250.0 JPY, 2.505 USD; 3 USD (not an unknown currency)")
        #expect(found.map(\.value) == ["2.5", "250.0", "2.505", "3"] && found.allSatisfy { $0.severity == "WARNING" })
        #expect(Set(found.compactMap(\.field)) == ["price", "amount"])
        let strict = try Checked(["fare_products.txt": products], strict: true)
        #expect(!strict.built && strict.found(NoticeCode.invalidCurrencyAmount).first?.severity == "ERROR")
        #expect(FareValueChecks.decimals(of: "1.25e2") == 2 && FareValueChecks.decimals(of: "3") == 0)
        #expect(FareValueChecks.minorUnit(of: "XAU") == nil && FareValueChecks.minorUnit(of: "BHD") == 3)
    }

    @Test("duplicate_fare_rule_zone_id_fields: a rule with an earlier rule's route and zones under another fare")
    func fareRuleZones() throws {
        let stops = "stop_id,stop_name,stop_lat,stop_lon,zone_id\nS1,One,52.5,13.4,Z1\nS2,Two,52.6,13.5,Z2\n"
        let attributes = "fare_id,price,currency_type,payment_method,transfers\nF1,2.50,EUR,0,\nF2,3.00,EUR,0,\n"
        let rules = """
            fare_id,route_id,origin_id,destination_id,contains_id
            F1,R1,Z1,Z2,
            F2,R1,Z1,Z2,
            F2,R1,Z2,Z1,
            F1,,Z1,,
            F2,,Z1,,
            F2,R1,,,

            """
        let changes: [String: String?] = ["stops.txt": stops, "fare_attributes.txt": attributes, "fare_rules.txt": rules]
        let build = try Checked(changes)
        #expect(build.built)
        let found = build.found(NoticeCode.duplicateFareRuleZoneIdFields)
        #expect(found.map(\.line) == [3, 6], "the second of R1 Z1-Z2, and of origin Z1 alone; other zones are not")
        #expect(found.allSatisfy { $0.field == "fare_id" && $0.value == "F2" && $0.severity == "WARNING" })
        #expect(build.found(NoticeCode.duplicateKey).isEmpty)
        let strict = try Checked(changes, strict: true)
        #expect(!strict.built && strict.found(NoticeCode.duplicateFareRuleZoneIdFields).count == 2)
    }

    @Test("invalid_phone_number: characters other than digits and + - ( ) . space, or fewer than two digits")
    func phoneNumbers() throws {
        let agency = """
            agency_id,agency_name,agency_url,agency_timezone,agency_phone
            A,Agency,http://a.example,Europe/Berlin,+49 (30) 123-456.78
            B,Bgency,http://b.example,Europe/Berlin,1-800-FLOWERS
            C,Cgency,http://c.example,Europe/Berlin,+1
            D,Dgency,http://d.example,Europe/Berlin,911

            """
        let attributions = "attribution_id,organization_name,is_producer,attribution_phone\nX,Org,1,n/a\n"
        let build = try Checked(["agency.txt": agency, "attributions.txt": attributions])
        let found = build.found(NoticeCode.invalidPhoneNumber)
        #expect(found.map(\.value) == ["1-800-FLOWERS", "+1", "n/a"], "letters, one digit; 911 is a number")
        #expect(found.map(\.line) == [3, 4, 2] && found.allSatisfy { $0.severity == "WARNING" })
        #expect(FieldFormatChecks.isPhoneNumber("0143-45-2131") && !FieldFormatChecks.isPhoneNumber("030/123456"))
    }

    @Test("transfer_distance_above_2_km between 2 and 10 km; more is transfer_distance_too_large")
    func transferAbove2km() throws {
        // 0.1 degrees of latitude is 11.1 km; 0.03 is 3.3 km; 0.01 is 1.1 km.
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon
            S1,One,52.5,13.4
            S2,Two,52.6,13.4
            S3,Three,52.53,13.4
            S4,Four,52.51,13.4

            """
        let build = try Checked([
            "stops.txt": stops, "transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S2,0\nS1,S3,0\nS1,S4,0\n"
        ])
        #expect(build.built)
        #expect(build.found(NoticeCode.transferDistanceTooLarge).map(\.line) == [2])
        let above = build.found(NoticeCode.transferDistanceAbove2km)
        #expect(above.map(\.line) == [3] && above.first?.value == "S3" && above.first?.severity == "WARNING")
    }
}
