import Foundation

/// What the load stage sees of a feed's `stop_times` for the journey planner's `trip_patterns`
/// and `pattern_stops` (`PlannerTables`): each trip's timed stops (a stop and a time) as the
/// reader converted them, grouped into patterns on the reader's thread (which waits on the
/// writer's: the work is free in wall time), and each trip's id as the writer resolved it (one
/// comparison a row there). The derive stage then fills both tables without reading
/// `stop_times` again, once it has checked that the rows stored are the rows seen
/// (`isComplete`); otherwise it reads `stop_times` as before.
///
/// It keeps the distinct patterns (their stops' `stop_id` text) and one number a trip (its
/// pattern); trip ids as runs of consecutive ids (trips.txt and stop_times.txt in the same
/// order: one run).
final class TripStopLog: @unchecked Sendable {
    // @unchecked: the reader's half is used on the reader's thread only, the writer's half on
    // the writer thread only, and the derive stage reads both once the load stage has joined them.

    /// The columns of `stop_times` read, by index in `table.columns`.
    struct Columns {
        var trip, stop, sequence, arrival, departure: Int
    }

    let columns: Columns
    /// The index of the reference `trip_ref` in `table.references`.
    let tripReference: Int

    /// A trip with fewer than two timed stops: no pattern.
    static let noPattern = UInt32.max

    // The reader's half.
    @exclusivity(unchecked) private var tripKey: [UInt8] = []
    @exclusivity(unchecked) private var tripTag: UInt8 = 0xFF
    @exclusivity(unchecked) private var lastSequence: Int64?
    /// The current trip's timed stops: each `stop_id` as its length (4 bytes) and its bytes.
    @exclusivity(unchecked) private var stops: [UInt8] = []
    @exclusivity(unchecked) private var stopCount = 0
    @exclusivity(unchecked) private var patternIndex: [Encoded: UInt32] = [:]
    /// Each distinct pattern's stops (encoded as `stops`), in the order met.
    @exclusivity(unchecked) private(set) var patterns: [[UInt8]] = []
    /// Per trip, in input order (a trip's rows together): its pattern's index, or `noPattern`.
    @exclusivity(unchecked) private(set) var tripPatterns = PatternNumbers()
    @exclusivity(unchecked) private(set) var readRows = 0
    /// False once a row breaks what the log relies on: a trip's rows in ascending integer
    /// stop_sequence, a stop_id as text.
    @exclusivity(unchecked) private(set) var readAsExpected = true

    // The writer's half.
    @exclusivity(unchecked) private var lastTripID: Int64?
    /// The trip ids met, in input order, as runs of consecutive ids.
    @exclusivity(unchecked) private(set) var tripRuns: [(first: Int64, count: Int64)] = []
    @exclusivity(unchecked) private(set) var writtenRows = 0
    @exclusivity(unchecked) private(set) var everyTripResolved = true

    /// A log for `table` (`stop_times` of the transit schema), or nil when it lacks a column
    /// or a reference the log reads.
    init?(stopTimes table: Table) {
        let names = table.columns.map(\.name)
        guard let trip = names.firstIndex(of: "trip_id"), let stop = names.firstIndex(of: "stop_id"),
            let sequence = names.firstIndex(of: "stop_sequence"),
            let arrival = names.firstIndex(of: "arrival_time"), let departure = names.firstIndex(of: "departure_time"),
            let tripReference = table.references.firstIndex(where: {
                $0.column == "trip_ref" && $0.from == ["trip_id"] && $0.to == "trips"
            }),
            table.references.contains(where: { $0.column == "stop_ref" && $0.from == ["stop_id"] && $0.to == "stops" })
        else { return nil }
        columns = Columns(trip: trip, stop: stop, sequence: sequence, arrival: arrival, departure: departure)
        self.tripReference = tripReference
    }

    /// Reader's thread: a row accepted by the reader (`TableLoader.finishRow`).
    @inline(__always)
    func read(_ batch: RowBatch, row: Int) {
        readRows += 1
        let trip = batch.cell(row, columns.trip)
        if !isCurrentTrip(batch, trip) {
            endTrip()
            tripTag = batch.tags[trip]
            tripKey.removeAll(keepingCapacity: true)
            if tripTag == RowBatch.Tag.text.rawValue {
                tripKey.append(contentsOf: batch.text(trip))
            } else {
                withUnsafeBytes(of: batch.words[trip]) { tripKey.append(contentsOf: $0) }
            }
            lastSequence = nil
        }
        let sequence = batch.cell(row, columns.sequence)
        guard batch.tags[sequence] == RowBatch.Tag.integer.rawValue, batch.words[sequence] > (lastSequence ?? .min)
        else {
            readAsExpected = false
            return
        }
        lastSequence = batch.words[sequence]
        let stop = batch.cell(row, columns.stop)
        guard batch.tags[stop] != RowBatch.Tag.null.rawValue,
            batch.tags[batch.cell(row, columns.arrival)] != RowBatch.Tag.null.rawValue
                || batch.tags[batch.cell(row, columns.departure)] != RowBatch.Tag.null.rawValue
        else { return }
        guard batch.tags[stop] == RowBatch.Tag.text.rawValue else {
            readAsExpected = false
            return
        }
        let text = batch.text(stop)
        withUnsafeBytes(of: UInt32(text.count).littleEndian) { stops.append(contentsOf: $0) }
        stops.append(contentsOf: text)
        stopCount += 1
    }

    @inline(__always)
    private func isCurrentTrip(_ batch: RowBatch, _ cell: Int) -> Bool {
        let tag = batch.tags[cell]
        guard tag == tripTag else { return false }
        if tag == RowBatch.Tag.text.rawValue {
            let text = batch.text(cell)
            guard text.count == tripKey.count else { return false }
            return text.count == 0
                || tripKey.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }
        }
        return tripKey.count == 8 && tripKey.withUnsafeBytes { $0.load(as: Int64.self) } == batch.words[cell]
    }

    /// The current trip's pattern, recorded.
    private func endTrip() {
        guard tripTag != 0xFF else { return }
        if stopCount < 2 {
            tripPatterns.append(Self.noPattern)
        } else {
            let key = Encoded(stops)
            if let index = patternIndex[key] {
                tripPatterns.append(index)
            } else {
                let index = UInt32(patterns.count)
                patternIndex[key] = index
                patterns.append(stops)
                tripPatterns.append(index)
            }
        }
        stops.removeAll(keepingCapacity: true)
        stopCount = 0
        tripTag = 0xFF
    }

    /// A pattern's encoded stops as a key: hashed 8 bytes at a time (`[UInt8]` hashes byte by
    /// byte: 0.07 CPU-s at 3M stop_times).
    private struct Encoded: Hashable {
        let bytes: [UInt8]
        let mixed: UInt64

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var mixed: UInt64 = 0xcbf2_9ce4_8422_2325
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset + 8 <= raw.count {
                    mixed = (mixed ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                    mixed ^= mixed >> 29
                    offset += 8
                }
                while offset < raw.count {
                    mixed = (mixed ^ UInt64(raw[offset])) &* 0x100_0000_01b3
                    offset += 1
                }
            }
            self.mixed = mixed
        }

        static func == (a: Encoded, b: Encoded) -> Bool { a.mixed == b.mixed && a.bytes == b.bytes }

        func hash(into hasher: inout Hasher) {
            hasher.combine(mixed)
            hasher.combine(bytes.count)
        }
    }

    /// Once the reader is done (the derive stage): records the last trip.
    func endOfInput() {
        endTrip()
        patternIndex = [:]
    }

    /// Writer thread: a row whose references resolved, with its trip's id (nil: none).
    @inline(__always)
    func wrote(tripID: Int64?) {
        writtenRows += 1
        guard let tripID else {
            everyTripResolved = false
            return
        }
        guard tripID != lastTripID else { return }
        lastTripID = tripID
        if let last = tripRuns.last, last.first + last.count == tripID {
            tripRuns[tripRuns.count - 1].count += 1
        } else {
            tripRuns.append((tripID, 1))
        }
    }

    /// The stops of pattern `index`, each as its `stop_id` text (a slice of `patterns[index]`).
    func stopIDs(ofPattern index: Int) -> [ArraySlice<UInt8>] {
        let bytes = patterns[index]
        var stops: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
            stops.append(bytes[(offset + 4)..<(offset + 4 + length)])
            offset += 4 + length
        }
        return stops
    }

    /// Lets the memory go once the derive stage is done with it.
    func discard() {
        patterns = []
        tripPatterns = PatternNumbers()
        tripRuns = []
        patternIndex = [:]
        stops = []
    }
}

/// One number a trip (`TripStopLog.tripPatterns`), in blocks of a fixed size: the log grows to
/// a million trips and more, and an array that doubles holds its old and new storage at once
/// (13 MB at the peak of a 30M stop_times load, for 4.6 MB of numbers). At most one block
/// (256 KiB) is unused.
struct PatternNumbers {
    private static let blockShift = 16
    private var blocks: [[UInt32]] = []
    private(set) var count = 0

    mutating func append(_ number: UInt32) {
        if count & (1 << Self.blockShift - 1) == 0 {
            blocks.append([])
            blocks[blocks.count - 1].reserveCapacity(1 << Self.blockShift)
        }
        blocks[blocks.count - 1].append(number)
        count += 1
    }

    subscript(index: Int) -> UInt32 {
        blocks[index >> Self.blockShift][index & (1 << Self.blockShift - 1)]
    }
}
