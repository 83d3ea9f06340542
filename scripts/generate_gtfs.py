#!/usr/bin/env python3
"""Write a synthetic GTFS feed shaped like a big city's, at any size.

    scripts/generate_gtfs.py --stop-times 3000000 --out bench/work/gtfs-3M [--seed 1] [--crlf]
    scripts/generate_gtfs.py --stop-times 3000000 --churn 0.06 --day 1 --out bench/work/gtfs-3M-day1

About 13,000 stops (parent stations with child platforms, some children listed before
their parent, a few entrances), a few hundred bus/tram/subway/rail routes with one or two
stop patterns per direction, and N stop_times (exactly N) in trips of 10..40 stops, 25 on
average, grouped by trip. Times are HH:MM:SS, increasing along each trip, some past
midnight (24:15:00, 25:40:00); non-timepoint stops have blank times. The output is
byte-identical for a given seed and size: one random.Random(seed) drives everything.

With --churn C --day N the feed is the one of day N of a timetable where, every day, a
fraction C of the trips is replaced: a replaced trip gets a new trip_id (`<id>D<day>`), a
new departure time and service, and new stop_times, in the same place of the files; every
other row is the same. Day 0 is the feed without --churn. Whether a trip is replaced on a
given day depends only on the seed, the trip and the day (a hash, not the main random
stream), so day N and day N+1 differ in about C of their trips, and any two days are
byte-identical wherever they agree. For measuring seed updates (`seedgen delta`).

Speed matters (30 M stop_times should take a few minutes): every stop_times row is built
from precomputed strings (time-of-day table, per-pattern row suffixes), and files are
written with large buffers.
"""

import argparse
import math
import os
import random
import sys

CITY_LAT, CITY_LON = 52.5200, 13.4050      # a Berlin-sized city
CITY_RADIUS_DEG = 0.20
METRES_PER_DEG_LAT = 111_320.0
METRES_PER_DEG_LON = METRES_PER_DEG_LAT * math.cos(math.radians(CITY_LAT))

MIN_TRIP_STOPS, MAX_TRIP_STOPS = 10, 40

# Blank-time trick: the time table maps every offset >= BLANK to "", so a non-timepoint
# stop costs no branch in the hot loop.
BLANK = 200_000
TIME_TABLE_SIZE = 2 * BLANK

NAME_STEMS = ["Linden", "Eichen", "Birken", "Mühlen", "Schloss", "Kirch", "Markt", "Rosen",
              "Garten", "Berg", "Wald", "See", "Brücken", "Hafen", "Turm", "Wiesen",
              "Ahorn", "Buchen", "Kastanien", "Friedrich", "Luisen", "Wilhelm", "Kaiser",
              "Königs", "Sonnen", "Tannen", "Weiden", "Ulmen", "Dorf", "Feld", "Grenz",
              "Heide", "Insel", "Kanal", "Lager", "Moor", "Nord", "Süd", "Ost", "West",
              "Ring", "Spree", "Havel", "Zoo", "Rathaus", "Stern", "Amsel", "Falken", "Biber"]
NAME_SUFFIXES = ["str.", "straße", "platz", "allee", "weg", "damm", "ufer", "chaussee",
                 "ring", "brücke", "park", "markt", "steig", "gasse"]
STATION_PREFIXES = ["S ", "U ", "S+U ", ""]
LONG_NAME_PLACES = ["Hauptbahnhof", "Flughafen BER", "Zoologischer Garten", "Alexanderplatz",
                    "Ostkreuz", "Südkreuz", "Spandau", "Köpenick", "Wannsee", "Pankow",
                    "Marzahn", "Tegel", "Rudow", "Zehlendorf", "Lichtenberg", "Gesundbrunnen"]


def csv_field(value):
    """Quotes a field as RFC 4180 does: only when it holds a comma, quote or line break."""
    text = str(value)
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_csv(path, header, rows, newline):
    with open(path, "w", encoding="utf-8", newline=newline, buffering=1 << 20) as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(csv_field(v) for v in row) + "\n")
    return len(rows)


def gtfs_time(seconds):
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{s:02d}"


def unique_ids(rng, count, start, max_gap):
    """Increasing numeric ids with random gaps, as real feeds' database ids look."""
    ids, current = [], start
    for _ in range(count):
        current += rng.randint(1, max_gap)
        ids.append(current)
    return ids


class Stop:
    __slots__ = ("stop_id", "name", "lat", "lon", "location_type", "parent", "row")


def make_stop_name(rng):
    name = rng.choice(NAME_STEMS) + rng.choice(NAME_SUFFIXES)
    roll = rng.random()
    if roll < 0.08:
        name += ", " + rng.choice(["Bhf", "Ecke " + rng.choice(NAME_STEMS) + "weg", "Nord", "Süd"])
    elif roll < 0.10:
        name += ' "' + rng.choice(NAME_STEMS) + 'hof"'
    elif roll < 0.15:
        name += "/" + rng.choice(NAME_STEMS) + rng.choice(NAME_SUFFIXES)
    return name


def random_point(rng):
    # Denser towards the centre, as cities are.
    r = CITY_RADIUS_DEG * math.sqrt(rng.random()) * (0.4 + 0.6 * rng.random())
    a = rng.random() * 2 * math.pi
    return CITY_LAT + r * math.sin(a) * 0.62, CITY_LON + r * math.cos(a)


def make_stops(rng, stop_count):
    """Returns (all stops in file order, the platforms and stops that trips serve).

    Stations (location_type 1) get 2..6 platforms and sometimes an entrance; about one
    station in five lists its platforms before itself, a forward reference.
    """
    groups, remaining = [], stop_count
    while remaining > 0:
        if rng.random() < 0.09 and remaining >= 8:
            size = rng.randint(2, 6)
            entrance = rng.random() < 0.15
            groups.append(("station", size, entrance))
            remaining -= 1 + size + entrance
        else:
            groups.append(("stop", 1, False))
            remaining -= 1
    parent_id, child_id = 900_000_000, 100_000
    stops_in_file, served = [], []
    for kind, size, has_entrance in groups:
        child_id += rng.randint(1, 3)
        if kind == "stop":
            stop = Stop()
            stop.stop_id, stop.name = str(child_id), make_stop_name(rng)
            stop.lat, stop.lon = random_point(rng)
            stop.location_type, stop.parent, stop.row = 0, "", ""
            stops_in_file.append(stop)
            served.append(stop)
            continue
        parent_id += rng.randint(1, 50)
        parent = Stop()
        parent.stop_id = str(parent_id)
        parent.lat, parent.lon = random_point(rng)
        parent.name = rng.choice(STATION_PREFIXES) + make_stop_name(rng)
        parent.location_type, parent.parent, parent.row = 1, "", ""
        members = []
        for k in range(size):
            child = Stop()
            child.stop_id = str(child_id + k)
            child.name = parent.name
            child.lat = parent.lat + rng.uniform(-0.0006, 0.0006)
            child.lon = parent.lon + rng.uniform(-0.0009, 0.0009)
            child.location_type, child.parent, child.row = 0, parent.stop_id, str(k + 1)
            members.append(child)
            served.append(child)
        child_id += size
        if has_entrance:
            entrance = Stop()
            entrance.stop_id = f"{parent.stop_id}E{rng.randint(1, 4)}"
            entrance.name = parent.name + " (Eingang)"
            entrance.lat, entrance.lon = parent.lat + 0.0004, parent.lon - 0.0004
            entrance.location_type, entrance.parent, entrance.row = 2, parent.stop_id, ""
            members.append(entrance)
        if rng.random() < 0.2:
            stops_in_file.extend(members)
            stops_in_file.append(parent)
        else:
            stops_in_file.append(parent)
            stops_in_file.extend(members)
    return stops_in_file, served


def distance_m(a, b):
    dy = (a.lat - b.lat) * METRES_PER_DEG_LAT
    dx = (a.lon - b.lon) * METRES_PER_DEG_LON
    return math.hypot(dx, dy)


CENTRE = Stop()
CENTRE.lat, CENTRE.lon = CITY_LAT, CITY_LON


class StopGrid:
    """Nearest-stop lookup on a coarse grid, to lay routes along roughly straight lines."""

    CELL = 0.006

    def __init__(self, stops):
        self.cells = {}
        for s in stops:
            self.cells.setdefault(self._key(s.lat, s.lon), []).append(s)

    def _key(self, lat, lon):
        return int(math.floor(lat / self.CELL)), int(math.floor(lon / self.CELL))

    def nearest(self, lat, lon, exclude):
        ci, cj = self._key(lat, lon)
        for radius in range(1, 80):
            best, best_d = None, None
            for i in range(ci - radius, ci + radius + 1):
                for j in range(cj - radius, cj + radius + 1):
                    for s in self.cells.get((i, j), ()):
                        if s.stop_id in exclude:
                            continue
                        d = (s.lat - lat) ** 2 + ((s.lon - lon) * 0.62) ** 2
                        if best_d is None or d < best_d:
                            best, best_d = s, d
            if best is not None:
                return best
        return None


# route_type: (share of routes, speed m/s, stop spacing m, name style)
ROUTE_TYPES = [
    (3, 0.80, 5.5, 450),    # bus
    (0, 0.12, 6.0, 500),    # tram
    (1, 0.05, 9.0, 900),    # subway
    (2, 0.03, 14.0, 1800),  # rail
]


def make_routes(rng, route_count, agency_ids):
    routes = []
    route_ids = unique_ids(rng, route_count, 10_000, 40)
    counters = {0: 10, 1: 1, 2: 1, 3: 100}
    for rid in route_ids:
        roll, acc = rng.random(), 0.0
        for route_type, share, speed, spacing in ROUTE_TYPES:
            acc += share
            if roll < acc:
                break
        n = counters[route_type]
        counters[route_type] += rng.randint(1, 3)
        short = {0: f"M{n}" if rng.random() < 0.4 else str(n), 1: f"U{n}", 2: f"S{n}",
                 3: f"N{n}" if rng.random() < 0.08 else str(n)}[route_type]
        a, b = rng.sample(LONG_NAME_PLACES, 2)
        long_name = f"{a} - {b}"
        if rng.random() < 0.1:
            long_name = f"{a}, {rng.choice(NAME_STEMS)}platz - {b}"
        routes.append({
            "route_id": f"{rid}_{700 + route_type}",
            "agency_id": agency_ids[0] if route_type in (0, 1, 3) and rng.random() < 0.9 else agency_ids[-1],
            "short": short, "long": long_name, "type": route_type,
            "speed": speed, "spacing": spacing,
            "color": f"{rng.randrange(0x1000000):06X}",
        })
    return routes


class Pattern:
    """One stop sequence of a route in one direction, and the trips that run it."""
    __slots__ = ("route", "direction", "stops", "dist", "hop_secs", "dwell", "timepoint",
                 "seq", "shape_id", "headsign", "weight", "trip_count", "variants")


def make_patterns(rng, routes, platforms, grid):
    patterns = []
    shape_ids = iter(unique_ids(rng, len(routes) * 4, 1_000_000, 5))
    for route in routes:
        base_len = rng.randint(MIN_TRIP_STOPS + 1, MAX_TRIP_STOPS)  # short turns bring the mean to ~25
        start = rng.choice(platforms)
        angle = rng.random() * 2 * math.pi
        step = route["spacing"] / METRES_PER_DEG_LAT
        line = []
        lat, lon = start.lat, start.lon
        used = set()
        for _ in range(base_len):
            s = grid.nearest(lat, lon, used)
            if s is None:
                break
            used.add(s.stop_id)
            line.append(s)
            angle += rng.uniform(-0.35, 0.35)
            if math.hypot(lat - CITY_LAT, (lon - CITY_LON) * 0.62) > CITY_RADIUS_DEG * 0.8:
                # Near the edge of the city: turn back towards the centre.
                angle = math.atan2(CITY_LAT - lat, (CITY_LON - lon) * 0.62) + rng.uniform(-0.5, 0.5)
            lat += step * math.sin(angle)
            lon += step * math.cos(angle) / 0.62
        variants = [line]
        if rng.random() < 0.5 and len(line) > MIN_TRIP_STOPS + 2:
            cut = rng.randint(1, min(4, len(line) - MIN_TRIP_STOPS))   # a short-turn variant
            variants.append(line[cut:] if rng.random() < 0.5 else line[:-cut])
        weight = rng.choice([0.3, 0.6, 1.0, 1.0, 1.5, 2.0, 3.0])
        for variant in variants:
            for direction in (0, 1):
                stops = variant if direction == 0 else variant[::-1]
                p = Pattern()
                p.route, p.direction, p.stops = route, direction, stops
                p.shape_id = str(next(shape_ids))
                p.weight = weight * (1.0 if variant is line else 0.4)
                dist, total = [0.0], 0.0
                for a, b in zip(stops, stops[1:]):
                    total += distance_m(a, b) * rng.uniform(1.1, 1.35)
                    dist.append(total)
                p.dist = dist
                p.hop_secs = [max(30, int((dist[i + 1] - dist[i]) / route["speed"]) + 20)
                              for i in range(len(stops) - 1)]
                long_dwell = route["type"] in (1, 2)
                p.dwell = [30 if long_dwell and 0 < i < len(stops) - 1 else 0
                           for i in range(len(stops))]
                # Some bus patterns leave intermediate stops untimed (blank in the feed).
                untimed = route["type"] == 3 and rng.random() < 0.3
                p.timepoint = [1 if (not untimed or i in (0, len(stops) - 1) or i % 4 == 0) else 0
                               for i in range(len(stops))]
                p.seq = list(range(1, len(stops) + 1)) if rng.random() < 0.85 \
                    else list(range(0, len(stops)))
                last = stops[-1].name
                p.headsign = last if rng.random() < 0.8 else f"{last} via {stops[len(stops) // 2].name}"
                patterns.append(p)
    return patterns


def plan_trip_counts(rng, patterns, stop_times):
    """Trips per pattern so that the feed has exactly `stop_times` rows.

    Returns the pattern list and an optional (pattern, length) short-turn trip that takes
    up the last few rows.
    """
    load = sum(p.weight * len(p.stops) for p in patterns)
    scale = stop_times / load
    rows = 0
    for p in patterns:
        p.trip_count = int(p.weight * scale)
        rows += p.trip_count * len(p.stops)
    remaining = stop_times - rows
    order = list(range(len(patterns)))
    rng.shuffle(order)
    progress = True
    while progress:
        progress = False
        for i in order:
            p = patterns[i]
            if len(p.stops) <= remaining:
                p.trip_count += 1
                remaining -= len(p.stops)
                progress = True
    short_turn = None
    if 0 < remaining < MIN_TRIP_STOPS:
        # Too few rows for a trip of its own: trade one full trip for a longer short-turn one.
        donor = next(p for p in patterns
                     if p.trip_count > 0 and len(p.stops) + remaining <= MAX_TRIP_STOPS)
        donor.trip_count -= 1
        remaining += len(donor.stops)
    if remaining > 0:
        host = max(patterns, key=lambda p: len(p.stops))
        if remaining > len(host.stops):
            sys.exit("generate_gtfs: could not plan an exact row count")
        short_turn = (host, remaining)
    return short_turn


def mix64(x):
    """splitmix64's finaliser: a well-mixed 64-bit hash of an integer."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


class Churn:
    """Which day last replaced each trip (its generation): 0 for never, else the latest day
    d <= day whose hash of (seed, trip, d) falls under the churn rate."""

    def __init__(self, seed, rate, day):
        self.seed, self.day = seed, day
        self.threshold = int(rate * (1 << 64))

    def generation(self, slot):
        for d in range(self.day, 0, -1):
            if mix64(mix64(self.seed * 1_000_003 + d) ^ slot) < self.threshold:
                return d
        return 0


def time_variants(p):
    """Per time-of-day factor, the (arrival, departure) offsets of each stop in seconds."""
    variants = []
    for factor in (0.9, 1.0, 1.15, 1.3):
        offsets, t = [], 0
        for i in range(len(p.stops)):
            if i > 0:
                hop = int(p.hop_secs[i - 1] * factor)
                t += hop - hop % 60 if hop >= 90 else 60   # timetables are in whole minutes
            arrive, depart = t, t + p.dwell[i]
            t = depart
            if not p.timepoint[i]:
                arrive = depart = BLANK
            offsets.append((arrive, depart))
        variants.append(offsets)
    return variants


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stop-times", type=int, required=True, help="number of stop_times rows")
    parser.add_argument("--out", required=True, help="output folder (created)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stops", type=int, default=13_000, help="number of stops (default 13000)")
    parser.add_argument("--routes", type=int, default=400, help="number of routes (default 400)")
    parser.add_argument("--crlf", action="store_true", help="CRLF line endings, as many real feeds")
    parser.add_argument("--no-shapes", action="store_true", help="omit shapes.txt and shape_dist_traveled")
    parser.add_argument("--churn", type=float, default=0.0,
                        help="fraction of trips replaced from one day to the next (e.g. 0.06)")
    parser.add_argument("--day", type=int, default=0, help="with --churn: the day whose feed to write (default 0)")
    args = parser.parse_args()
    if args.stop_times < 100:
        parser.error("--stop-times must be at least 100")
    if not 0.0 <= args.churn <= 1.0:
        parser.error("--churn must be between 0 and 1")
    if args.day < 0 or (args.day > 0 and args.churn == 0.0):
        parser.error("--day needs --churn and must be 0 or more")

    rng = random.Random(args.seed)
    nl = "\r\n" if args.crlf else "\n"
    os.makedirs(args.out, exist_ok=True)
    path = lambda name: os.path.join(args.out, name)
    counts = {}

    agencies = [("1", "Stadtverkehr Metropol AG", "https://www.example.org/stadtverkehr"),
                ("796", "S-Bahn Metropol GmbH", "https://www.example.org/s-bahn"),
                ("108", "Regionalbus \"Umland\", Nord", "https://www.example.org/umland")]
    counts["agency"] = write_csv(
        path("agency.txt"),
        ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang", "agency_phone"],
        [(a, n, u, "Europe/Berlin", "de", f"+49 30 {rng.randint(1000000, 9999999)}") for a, n, u in agencies],
        nl)

    stops, platforms = make_stops(rng, args.stops)
    counts["stops"] = write_csv(
        path("stops.txt"),
        ["stop_id", "stop_code", "stop_name", "stop_desc", "stop_lat", "stop_lon", "zone_id",
         "location_type", "parent_station", "wheelchair_boarding", "platform_code"],
        [(s.stop_id, "", s.name, "", f"{s.lat:.6f}", f"{s.lon:.6f}",
          "ABC"[min(2, int(distance_m(s, CENTRE) / 8000))],
          s.location_type, s.parent, rng.choice(("0", "1", "1", "2")), s.row) for s in stops],
        nl)

    routes = make_routes(rng, args.routes, [a[0] for a in agencies])
    counts["routes"] = write_csv(
        path("routes.txt"),
        ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type",
         "route_color", "route_text_color"],
        [(r["route_id"], r["agency_id"], r["short"], r["long"], r["type"], r["color"],
          "FFFFFF" if r["type"] != 3 else "000000") for r in routes],
        nl)

    services = [("1", (1, 1, 1, 1, 1, 0, 0)), ("2", (0, 0, 0, 0, 0, 1, 0)),
                ("3", (0, 0, 0, 0, 0, 0, 1)), ("4", (1, 1, 1, 1, 0, 0, 0)),
                ("5", (0, 0, 0, 0, 1, 1, 0)), ("6", (1, 1, 1, 1, 1, 1, 1))]
    counts["calendar"] = write_csv(
        path("calendar.txt"),
        ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
         "sunday", "start_date", "end_date"],
        [(sid, *days, "20260105", "20261212") for sid, days in services], nl)
    holidays = ["20260403", "20260406", "20260501", "20260514", "20260525", "20261003"]
    calendar_dates = []
    for day in holidays:
        calendar_dates.append(("1", day, 2))
        calendar_dates.append(("3", day, 1))
    calendar_dates += [("7", "20261224", 1), ("7", "20261231", 1)]    # calendar_dates only
    counts["calendar_dates"] = write_csv(
        path("calendar_dates.txt"), ["service_id", "date", "exception_type"], calendar_dates, nl)

    patterns = make_patterns(rng, routes, platforms, StopGrid(platforms))
    short_turn = plan_trip_counts(rng, patterns, args.stop_times)

    times = [gtfs_time(t) for t in range(BLANK)] + [""] * (TIME_TABLE_SIZE - BLANK)
    with_shapes = not args.no_shapes
    trip_ids = iter(unique_ids(rng, sum(p.trip_count for p in patterns) + 1, 100_000_000, 9))
    service_choices = ["1"] * 10 + ["2"] * 3 + ["3"] * 3 + ["4", "5", "6", "7"]
    frequency_trips = []
    trips_written = stop_times_written = 0
    churn = Churn(args.seed, args.churn, args.day)

    st_header = ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence",
                 "pickup_type", "drop_off_type"] + (["shape_dist_traveled"] if with_shapes else []) + ["timepoint"]
    with open(path("trips.txt"), "w", encoding="utf-8", newline=nl, buffering=1 << 20) as trips_f, \
         open(path("stop_times.txt"), "w", encoding="utf-8", newline=nl, buffering=1 << 24) as st_f:
        trips_f.write("route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id,"
                      "wheelchair_accessible,bikes_allowed\n")
        st_f.write(",".join(st_header) + "\n")
        write_trip, write_st = trips_f.write, st_f.write

        def trips_of(p, count, length):
            nonlocal trips_written, stop_times_written
            n = length
            suffixes = []
            for i in range(n):
                pickup = 1 if i == n - 1 else (3 if p.timepoint[i] == 0 and i % 8 == 3 else 0)
                drop_off = 1 if i == 0 else (3 if p.timepoint[i] == 0 and i % 8 == 3 else 0)
                dist = f",{p.dist[i]:.1f}" if with_shapes else ""
                suffixes.append(f",{p.stops[i].stop_id},{p.seq[i]},{pickup},{drop_off}{dist},{p.timepoint[i]}\n")
            variants = [[(a, d, suffixes[i]) for i, (a, d) in enumerate(v[:n])] for v in time_variants(p)]
            span = 86_400 + 5_400 - 16_200                  # first departures 04:30 .. 25:30
            starts = sorted(16_200 + rng.randrange(span // 60) * 60 for _ in range(count))
            route = p.route
            prefix = f"{route['route_id']},"
            tail = f",{csv_field(p.headsign)},{p.direction},"
            for start in starts:
                base_id = next(trip_ids)
                trip_id = str(base_id)
                # Drawn for every trip, replaced or not, so the main stream stays the same.
                block = f"{route['route_id']}-{rng.randint(1, 60)}" if rng.random() < 0.3 else ""
                service, wheelchair = rng.choice(service_choices), rng.choice(('1', '1', '2', ''))
                generation = churn.generation(base_id)
                if generation:
                    own = random.Random(mix64(base_id) ^ generation)
                    trip_id = f"{base_id}D{generation}"
                    start = 16_200 + own.randrange(span // 60) * 60
                    service = own.choice(service_choices)
                hour = start // 3600
                variant = variants[2 if hour in (7, 8, 16, 17, 18) else (0 if hour < 6 or hour >= 22 else 1)]
                write_trip(f"{prefix}{service},{trip_id}{tail}{block},"
                           f"{p.shape_id if with_shapes else ''},{wheelchair},1\n")
                write_st("".join([f"{trip_id},{times[start + a]},{times[start + d]}{sfx}"
                                  for a, d, sfx in variant]))
                if len(frequency_trips) < 6 and rng.random() < 0.002:
                    frequency_trips.append(trip_id)
            trips_written += count
            stop_times_written += count * n

        for p in patterns:
            if p.trip_count:
                trips_of(p, p.trip_count, len(p.stops))
        if short_turn:
            host, length = short_turn
            trips_of(host, 1, length)
    counts["trips"], counts["stop_times"] = trips_written, stop_times_written
    assert stop_times_written == args.stop_times, (stop_times_written, args.stop_times)

    if with_shapes:
        with open(path("shapes.txt"), "w", encoding="utf-8", newline=nl, buffering=1 << 20) as f:
            f.write("shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\n")
            rows = 0
            for p in patterns:
                seq = 0
                for i, s in enumerate(p.stops):
                    seq += 1
                    f.write(f"{p.shape_id},{s.lat:.6f},{s.lon:.6f},{seq},{p.dist[i]:.1f}\n")
                    rows += 1
                    if i + 1 < len(p.stops):     # one bend between stops
                        t = p.stops[i + 1]
                        seq += 1
                        f.write(f"{p.shape_id},{(s.lat + t.lat) / 2 + 0.0001:.6f},"
                                f"{(s.lon + t.lon) / 2 - 0.0001:.6f},{seq},"
                                f"{(p.dist[i] + p.dist[i + 1]) / 2:.1f}\n")
                        rows += 1
        counts["shapes"] = rows

    frequencies = []
    for k, trip_id in enumerate(frequency_trips):
        start = 6 * 3600 + k * 1800
        frequencies.append((trip_id, gtfs_time(start), gtfs_time(start + 3 * 3600),
                            rng.choice((300, 600, 900)), rng.choice(("0", "1"))))
    counts["frequencies"] = write_csv(
        path("frequencies.txt"), ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"],
        frequencies, nl)

    transfers = []
    stations = {}
    for s in platforms:
        if s.parent:
            stations.setdefault(s.parent, []).append(s.stop_id)
    for parent in sorted(stations)[:30]:
        members = stations[parent]
        if len(members) >= 2:
            transfers.append((members[0], members[1], "", "", "", "", 2, rng.choice((120, 180, 300))))
    for a, b in zip(frequency_trips[:2], frequency_trips[2:4]):
        transfers.append(("", "", "", "", a, b, 1, ""))
    counts["transfers"] = write_csv(
        path("transfers.txt"),
        ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id",
         "to_trip_id", "transfer_type", "min_transfer_time"],
        transfers, nl)

    counts["feed_info"] = write_csv(
        path("feed_info.txt"),
        ["feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date",
         "feed_end_date", "feed_version"],
        [("seedgen synthetic feed", "https://github.com/", "de", "20260105", "20261212",
          f"synthetic-{args.stop_times}-seed{args.seed}" + (f"-day{args.day}" if args.day else ""))], nl)

    total = sum(counts.values())
    print(f"{args.out}: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f" (total {total} rows)")


if __name__ == "__main__":
    main()
