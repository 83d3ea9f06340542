import Foundation

/// Where a journey starts or ends.
public enum Place: Sendable, Hashable {
    /// A stop by its `stop_id`; in a region seed `FEED:STOP_ID`. A station is its platforms.
    case stop(String)
    /// A point: the rider walks to or from the stops within the walking distance.
    case coordinate(latitude: Double, longitude: Double)

    /// Reads `LAT,LON` as a coordinate, anything else as a stop.
    public init(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
            abs(lat) <= 90, abs(lon) <= 180
        {
            self = .coordinate(latitude: lat, longitude: lon)
        } else {
            self = .stop(text)
        }
    }
}

/// One part of a journey: a walk or a ride on one trip.
public struct Leg: Sendable, Hashable {
    /// How the leg is travelled.
    public enum Mode: String, Sendable {
        /// On foot, along a footpath (see the querying guide).
        case walk
        /// On a trip, from boarding to alighting.
        case ride
    }

    /// Walk or ride.
    public let mode: Mode
    /// Where it starts: a stop (`stop_id`, `FEED:STOP_ID` in a region seed) or `LAT,LON`.
    public let from: String
    /// Where it ends, named as `from`.
    public let to: String
    /// When it leaves.
    public let departure: Date
    /// When it arrives.
    public let arrival: Date
    /// The time zone of `from` (the stop's `stop_timezone`, else its feed's), for showing `departure`.
    public let departureZone: TimeZone
    /// The time zone of `to`, for showing `arrival`.
    public let arrivalZone: TimeZone
    /// A ride's `route_id`.
    public let routeID: String?
    /// A ride's `trip_id`.
    public let tripID: String?
}

/// A way from one place to another: its legs in order.
public struct Journey: Sendable, Hashable {
    /// When the first leg leaves (for a first walk: as late as still reaches the first ride).
    public let departure: Date
    /// When the last leg arrives.
    public let arrival: Date
    /// The number of changes between rides (rides minus one; 0 for a walk).
    public let transfers: Int
    /// The legs, in order.
    public let legs: [Leg]
}
