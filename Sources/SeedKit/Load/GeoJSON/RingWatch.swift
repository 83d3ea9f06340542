import Foundation

/// What `CanonicalJSONWriter` notes of a feature's geometry as it writes it (`writeGeometry`),
/// so that `invalid_geometry` takes no second pass over the geometry's text (that pass,
/// `PolygonRings`, was 3.5% of a 256 MB GeoJSON build, on the reader's thread, which bounds
/// it). A geometry's `type` comes before its `coordinates` in the usual file: the lists of the
/// coordinates are then read as that type has them (polygons, rings, positions) while they are
/// written, each level keeping what `PolygonRings` looks for there. A repeated member's last
/// value counts, as in the text written.
struct RingWatch {
    /// How the coordinates' lists are read: what the list of each level holds.
    enum Reading {
        case polygon, multiPolygon

        init?(type: String?) {
            switch type {
            case "Polygon": self = .polygon
            case "MultiPolygon": self = .multiPolygon
            default: return nil
            }
        }
    }

    /// How deep the geometry is; -1 when no geometry is being written.
    var objectDepth = -1
    /// The geometry's `type`, the last one written, when it is a string.
    var type: String?
    /// The reading of the coordinates being written; nil outside them.
    private(set) var reading: Reading?
    /// Lists of the coordinates entered and not left.
    var level = 0
    /// The reading of the geometry's last `coordinates` (nil: none, its type not known before
    /// it), and what is wrong with its rings so read.
    private(set) var coordinatesReading: Reading?
    private(set) var coordinatesProblem: String?
    /// What the last list written at each level was.
    var lastIsPosition = false
    var lastRing: RingFault?
    var lastPolygon: PolygonFault?
    var lastPolygons: (polygon: Int, fault: PolygonFault)?

    /// Whether the lists written now are a geometry's coordinates read as polygons.
    var shaping: Bool {
        @inline(__always) get { reading != nil }
    }

    /// What a list at `level` of the coordinates holds.
    enum Role { case polygons, polygon, ring, position, other }

    /// The role of the list entered at the current level.
    var role: Role {
        @inline(__always) get {
            switch level + (reading == .polygon ? 1 : 0) {
            case 0: return .polygons
            case 1: return .polygon
            case 2: return .ring
            case 3: return .position
            default: return .other
            }
        }
    }

    /// Before the value of the geometry's member `key`.
    mutating func enter(_ key: String) {
        reading = key == "coordinates" ? Reading(type: type) : nil
        level = 0
    }

    /// After the value of the geometry's member `key`, written at `value` of `output`.
    mutating func leave(_ key: String, value: Int, _ output: JSONBytes) {
        let first = output.base[value]
        if key == "coordinates" {
            coordinatesReading = reading
            let isList = first == UInt8(ascii: "[")
            switch reading {
            case .polygon:
                coordinatesProblem =
                    isList ? lastPolygon.map { Self.text(of: $0, place: "") } : Self.text(of: .notAList, place: "")
            case .multiPolygon:
                coordinatesProblem =
                    isList
                    ? lastPolygons.map { Self.text(of: $0.fault, place: " of polygon \($0.polygon)") }
                    : "has coordinates that are not a list of polygons"
            case nil: coordinatesProblem = nil
            }
        } else if key == "type" {
            type =
                first == UInt8(ascii: "\"")
                ? String(
                    decoding: UnsafeBufferPointer(start: output.base + value + 1, count: output.count - value - 2),
                    as: UTF8.self) : nil
        }
        reading = nil
    }

    /// What is wrong with the rings of the geometry written, `written`: what the coordinates
    /// read as its type say when they were so read, else what `PolygonRings` reads in the text
    /// (the type came after the coordinates: another reading).
    func problem(in written: UnsafeBufferPointer<UInt8>) -> String? {
        // The type as PolygonRings takes it: from the writer's form when it is in it, else the member's.
        guard let reading = Reading(type: PolygonRings.writerFormType(of: written) ?? type) else { return nil }
        return reading == coordinatesReading ? coordinatesProblem : PolygonRings.problem(in: written)
    }

    // MARK: Faults

    /// What is wrong with a ring.
    enum RingFault {
        case notAList
        /// The first position that is not two or three numbers (1-based).
        case position(Int)
        /// Fewer than 4 positions: how many.
        case tooFew(Int)
        case notClosed
    }

    /// What is wrong with a polygon (a list of rings).
    enum PolygonFault {
        case notAList
        /// Ring `ring` (the first not sound, 1-based) and what is wrong with it.
        case ring(Int, RingFault)
    }

    private static func text(of fault: PolygonFault, place: String) -> String {
        switch fault {
        case .notAList: return "has\(place) coordinates that are not a list of rings"
        case .ring(let ring, let fault): return "has ring \(ring)\(place) \(text(of: fault))"
        }
    }

    private static func text(of fault: RingFault) -> String {
        switch fault {
        case .notAList: return "that is not a list of positions"
        case .position(let number): return "with position \(number) that is not two or three numbers"
        case .tooFew(let count): return "of \(count) positions, fewer than 4"
        case .notClosed: return "that is not closed (its last position is not its first)"
        }
    }
}

/// What `CanonicalJSONWriter.writeList` tells of each item it writes.
protocol ListItemObserver {
    /// The item whose text begins at `start` of `writer.output` was written.
    mutating func wrote(itemAt start: Int, _ writer: CanonicalJSONWriter)
}

/// Tells nothing: a list outside a geometry's coordinates, or below its positions.
struct NoListItems: ListItemObserver {
    @inline(__always)
    mutating func wrote(itemAt start: Int, _ writer: CanonicalJSONWriter) {}
}

/// The items of a position: two or three numbers.
struct PositionItems: ListItemObserver {
    private var count = 0
    private var numbers = true

    @inline(__always)
    mutating func wrote(itemAt start: Int, _ writer: CanonicalJSONWriter) {
        count += 1
        let byte = writer.output.base[start]
        if byte != UInt8(ascii: "-") && byte &- UInt8(ascii: "0") >= 10 { numbers = false }
    }

    var isPosition: Bool { numbers && (count == 2 || count == 3) }
}

/// The items of a ring: positions, 4 or more, the last the same as the first.
struct RingItems: ListItemObserver {
    private var count = 0
    /// The first item that is not a position; 0 when all are.
    private var notPosition = 0
    /// Where the first position's text is in the writer's output, and the last one's.
    private var first = 0..<0
    private var last = 0..<0

    @inline(__always)
    mutating func wrote(itemAt start: Int, _ writer: CanonicalJSONWriter) {
        count += 1
        if writer.output.base[start] == UInt8(ascii: "[") && writer.rings.lastIsPosition {
            if count == 1 { first = start..<writer.output.count }
            last = start..<writer.output.count
        } else if notPosition == 0 {
            notPosition = count
        }
    }

    /// What is wrong with the ring, its positions written in `output`; nil when it is sound.
    func fault(in output: UnsafePointer<UInt8>) -> RingWatch.RingFault? {
        if notPosition > 0 { return .position(notPosition) }
        if count < 4 { return .tooFew(count) }
        let closed =
            first.count == last.count && memcmp(output + first.lowerBound, output + last.lowerBound, first.count) == 0
        return closed ? nil : .notClosed
    }
}

/// The items of a polygon: rings.
struct PolygonItems: ListItemObserver {
    private var count = 0
    /// The first ring not sound.
    private(set) var fault: RingWatch.PolygonFault?

    @inline(__always)
    mutating func wrote(itemAt start: Int, _ writer: CanonicalJSONWriter) {
        count += 1
        guard fault == nil else { return }
        if writer.output.base[start] != UInt8(ascii: "[") {
            fault = .ring(count, .notAList)
        } else if let ring = writer.rings.lastRing {
            fault = .ring(count, ring)
        }
    }
}

/// The items of a MultiPolygon's coordinates: polygons.
struct PolygonsItems: ListItemObserver {
    private var count = 0
    /// The first polygon not sound.
    private(set) var fault: (polygon: Int, fault: RingWatch.PolygonFault)?

    @inline(__always)
    mutating func wrote(itemAt start: Int, _ writer: CanonicalJSONWriter) {
        count += 1
        guard fault == nil else { return }
        if writer.output.base[start] != UInt8(ascii: "[") {
            fault = (count, .notAList)
        } else if let polygon = writer.rings.lastPolygon {
            fault = (count, polygon)
        }
    }
}
