import Testing
@testable import SeedKit

/// The block checks keep every blocked trip's ends for the whole pass in 16 bytes
/// (`PackedEnds`); what does not pack is kept as it is, so the answers never change.
@Suite("A blocked trip's ends, packed")
struct PackedEndsTests {
    let ends = TripEnds(firstArrival: 25_200, firstDeparture: 25_260, lastArrival: 90_000, lastDeparture: 90_000)

    @Test("16 bytes, and the ends read back as they were")
    func roundTrip() throws {
        #expect(MemoryLayout<PackedEnds>.stride == 16)
        let packed = try #require(PackedEnds(trip: 4_000_000_000, ends))
        let back = packed.ends
        #expect(packed.trip == 4_000_000_000)
        #expect([back.firstArrival, back.firstDeparture, back.lastArrival, back.lastDeparture] == [25_200, 25_260, 90_000, 90_000])
    }

    @Test("a row id past 2^32 or a dwell beyond 0...65,535 s does not pack (the caller keeps it whole)")
    func unpacked() {
        #expect(PackedEnds(trip: 1 << 32, ends) == nil)
        #expect(PackedEnds(trip: -1, ends) == nil)
        var long = ends
        long.lastDeparture = long.lastArrival + 65_536
        #expect(PackedEnds(trip: 1, long) == nil)
        var backwards = ends
        backwards.firstDeparture = backwards.firstArrival - 1
        #expect(PackedEnds(trip: 1, backwards) == nil)
    }
}
