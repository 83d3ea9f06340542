#!/usr/bin/env python3
"""An independent earliest-arrival reference for `seedgen journeys` and SeedRouter.

A Connection Scan (Dibbelt, Pajor, Strasser, Wagner: "Intriguingly Simple and Fast Transit
Routing", 2013) over the feeds' CSV files, with Python's csv, datetime and zoneinfo only: no
SQLite, no code of the Swift router. It follows the rules of Documentation/querying.md
("Journeys"):

- a trip instance runs on a service date of its service (calendar + calendar_dates); its times
  count from noon of that date minus 12 hours in the feed's time zone (the first agency's);
- stop_times rows without a time, or without a stop (GTFS-Flex), are passed, not served;
- a trip in frequencies.txt runs every headway_secs from start_time while the start is before
  end_time, its times shifted from those of its first stop;
- pickup_type 1 forbids boarding, drop_off_type 1 alighting;
- footpaths: stops within 400 m (great circle, R = 6371 km) at 1.2 m/s, rounded up to the
  second; stops of one station (a station and its stops, the stops of one parent) at any
  distance; transfers.txt's stop-to-stop rows (route and trip rows aside): type 0, 1 or 2
  adds a footpath, 2 with min_transfer_time sets its time, 3 removes it; a row from a stop to
  itself of type 2 is the time to change trips there. One footpath between two rides, one
  before the first and one after the last; in a region, walking joins stops of any feeds;
- service dates from the origin's local date minus the days the longest trip runs, to the day
  after it.

Usage:
  journey_reference.py batch --feed NAME=DIR [--feed ...] < cases.jsonl
      each input line {"from": PLACE, "to": PLACE, "at": "YYYY-MM-DDTHH:MM"}; prints one line
      per case: the earliest arrival as seconds since 1970 (UTC), or "none".
  journey_reference.py check --feed NAME=DIR [...] < journeys.jsonl
      each input line {"journeys": [...]} as `seedgen journeys --json` prints; checks every ride
      leg against stop_times.txt (the trip runs, boards and alights where and when it says);
      prints "ok" or the first problem.
A PLACE is a stop_id (FEED:STOP_ID when more than one feed is given) or LAT,LON. A single
--feed DIR (no NAME=) is a seed of one feed.
"""
import bisect
import datetime
import json
import math
import sys
import zoneinfo

from gtfs_csv import read

RADIUS = 400.0
SPEED = 1.2
INF = float('inf')
FLAGS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']



def seconds(text):
    parts = text.split(':')
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    return int(parts[0]) * 3600 + int(parts[1]) * 60 + int(parts[2])


def day(text):
    try:
        return datetime.date(int(text[0:4]), int(text[4:6]), int(text[6:8])) if len(text) == 8 else None
    except ValueError:
        return None


def distance(a, b):
    """Metres along a great circle (haversine)."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371000.0 * math.asin(min(1.0, math.sqrt(h)))


def walk(metres):
    return int(math.ceil(metres / SPEED))


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


class Network:
    def __init__(self, feeds):
        self.named = len(feeds) > 1
        self.stops = {}      # key -> (lat, lon) or None
        self.parent = {}     # key -> parent key
        self.zone = {}       # feed -> ZoneInfo
        self.feed_of = {}    # stop key -> feed
        self.trips = []      # (feed, service, times [(stop, arr, dep, pickup_ok, drop_ok)], route, trip_id)
        self.services = {}   # (feed, service) -> set of dates
        self.frequencies = {}
        self.change = {}
        self.rules = {}
        self.longest = 0
        self.cache = {}
        for name, folder in feeds:
            self.load(name, folder)
        self.footpaths = self.paths()

    def key(self, feed, stop):
        return f'{feed}:{stop}' if self.named else stop

    def load(self, feed, folder):
        agencies = read(folder, 'agency.txt')
        self.zone[feed] = zoneinfo.ZoneInfo(agencies[0]['agency_timezone'])
        for row in read(folder, 'stops.txt'):
            key = self.key(feed, row['stop_id'])
            lat, lon = number(row.get('stop_lat', '')), number(row.get('stop_lon', ''))
            self.stops[key] = (lat, lon) if lat is not None and lon is not None else None
            self.feed_of[key] = feed
            if row.get('parent_station'):
                self.parent[key] = self.key(feed, row['parent_station'])
        self.load_calendar(feed, folder)
        trips = {row['trip_id']: row for row in read(folder, 'trips.txt')}
        rows = {}
        for row in read(folder, 'stop_times.txt'):
            rows.setdefault(row['trip_id'], []).append(row)
        for trip_id, times in rows.items():
            times.sort(key=lambda row: int(row['stop_sequence']))
            events = []
            for row in times:
                arr, dep = seconds(row.get('arrival_time', '')), seconds(row.get('departure_time', ''))
                if not row.get('stop_id') or (arr is None and dep is None):
                    continue
                arr, dep = (arr if arr is not None else dep), (dep if dep is not None else arr)
                events.append((self.key(feed, row['stop_id']), arr, dep,
                               row.get('pickup_type') != '1', row.get('drop_off_type') != '1'))
            if len(events) < 2 or trip_id not in trips:
                continue
            trip = trips[trip_id]
            self.longest = max([self.longest] + [max(e[1], e[2]) for e in events])
            self.trips.append((feed, trip['service_id'], events, trip['route_id'], trip_id))
        spans = {trip[4]: trip[2][-1][1] - trip[2][0][2] for trip in self.trips if trip[0] == feed}
        for row in read(folder, 'frequencies.txt'):
            start, end, headway = seconds(row['start_time']), seconds(row['end_time']), int(row['headway_secs'])
            if headway > 0 and row['trip_id'] in spans:
                self.frequencies.setdefault((feed, row['trip_id']), []).append((start, end, headway))
                self.longest = max(self.longest, end + spans[row['trip_id']])
        for row in read(folder, 'transfers.txt'):
            if any(row.get(c) for c in ('from_route_id', 'to_route_id', 'from_trip_id', 'to_trip_id')):
                continue
            if not row.get('from_stop_id') or not row.get('to_stop_id'):
                continue
            a, b = self.key(feed, row['from_stop_id']), self.key(feed, row['to_stop_id'])
            kind = int(row.get('transfer_type') or 0)
            time = row.get('min_transfer_time')
            self.rules[(a, b)] = (kind, int(time) if time else None)

    def load_calendar(self, feed, folder):
        for row in read(folder, 'calendar.txt'):
            start, end = day(row.get('start_date', '')), day(row.get('end_date', ''))
            dates = self.services.setdefault((feed, row['service_id']), set())
            runs = [row.get(flag) == '1' for flag in FLAGS]
            current = start
            while start is not None and end is not None and current <= end:
                if runs[current.weekday()]:
                    dates.add(current)
                current += datetime.timedelta(days=1)
        for row in read(folder, 'calendar_dates.txt'):
            date = day(row.get('date', ''))
            dates = self.services.setdefault((feed, row['service_id']), set())
            if date is not None and row.get('exception_type') == '2':
                dates.discard(date)
            elif date is not None and row.get('exception_type') == '1':
                dates.add(date)

    def paths(self):
        """Footpaths: key -> {other key: seconds}."""
        paths = {}
        cells = {}
        size = RADIUS / 111195.0
        for key, point in self.stops.items():
            if point is not None:
                cells.setdefault((math.floor(point[0] / size), math.floor(point[1] / size)), []).append(key)
        for key, point in self.stops.items():
            if point is None:
                continue
            x, y = math.floor(point[0] / size), math.floor(point[1] / size)
            reach = int(math.ceil(1 / max(math.cos(math.radians(point[0])), 0.01))) + 1
            for dx in (-1, 0, 1):
                for dy in range(-reach, reach + 1):
                    for other in cells.get((x + dx, y + dy), []):
                        metres = distance(point, self.stops[other])
                        if other != key and metres <= RADIUS:
                            paths.setdefault(key, {})[other] = walk(metres)
        members = {}
        for key, parent in self.parent.items():
            if parent in self.stops:
                members.setdefault(parent, []).append(key)
        for parent, children in members.items():
            group = [parent] + children
            for a in group:
                for b in group:
                    if a != b and self.stops[a] is not None and self.stops[b] is not None:
                        paths.setdefault(a, {})[b] = walk(distance(self.stops[a], self.stops[b]))
        for (a, b), (kind, time) in sorted(self.rules.items()):
            if a not in self.stops or b not in self.stops:
                continue
            if a == b:
                if kind == 2 and time is not None:
                    self.change[a] = time
                continue
            if kind == 3:
                paths.get(a, {}).pop(b, None)
            elif kind == 2 and time is not None:
                paths.setdefault(a, {})[b] = time
            elif self.stops[a] is not None and self.stops[b] is not None:
                paths.setdefault(a, {}).setdefault(b, walk(distance(self.stops[a], self.stops[b])))
        return paths

    def place(self, text):
        """(stop key or None, coordinate or None)."""
        if text in self.stops:
            return text, self.stops[text]
        lat, lon = text.split(',')
        return None, (float(lat), float(lon))

    def near(self, point):
        return {key: walk(distance(point, p)) for key, p in self.stops.items()
                if p is not None and distance(point, p) <= RADIUS}

    def origin_zone(self, stop, point):
        if stop is None:
            stop = min((distance(point, p), key) for key, p in self.stops.items() if p is not None)[1]
        return self.zone[self.feed_of[stop]]

    def connections(self, start):
        """Every connection (dep, arr, from, to, pickup_ok, drop_ok, instance) of the service
        dates around the origin's date, as instants, sorted; kept for the next case of the
        same dates."""
        key = tuple(datetime.datetime.fromtimestamp(start, zone).date() for zone in self.zone.values())
        if key not in self.cache:
            self.cache = {key: self.build_connections(start)}
        return self.cache[key]

    def build_connections(self, start):
        out = []
        instance = 0
        back = -(-self.longest // 86400)
        for feed, service, events, route, trip_id in self.trips:
            zone = self.zone[feed]
            local = datetime.datetime.fromtimestamp(start, zone).date()
            for k in range(-back, 2):
                date = local + datetime.timedelta(days=k)
                if date not in self.services.get((feed, service), ()):
                    continue
                noon = datetime.datetime(date.year, date.month, date.day, 12, tzinfo=zone).timestamp() - 43200
                shifts = [noon]
                if (feed, trip_id) in self.frequencies:
                    shifts = []
                    for begin, end, headway in self.frequencies[(feed, trip_id)]:
                        t = begin
                        while t < end:
                            shifts.append(noon + t - events[0][2])
                            t += headway
                for shift in shifts:
                    instance += 1
                    for a, b in zip(events, events[1:]):
                        out.append((int(shift + a[2]), int(shift + b[1]), a[0], b[0], a[3], b[4], instance))
        out.sort(key=lambda c: (c[0], c[1]))
        return out

    def earliest(self, origin, target, at):
        start_stop, start_point = self.place(origin)
        end_stop, end_point = self.place(target)
        zone = self.origin_zone(start_stop, start_point)
        start = int(datetime.datetime.fromisoformat(at).replace(tzinfo=zone).timestamp())
        ready = {}
        if start_stop is not None:
            ready[start_stop] = start
            for other, time in self.paths_from(start_stop).items():
                ready[other] = min(ready.get(other, INF), start + time)
            initial = self.paths_from(start_stop)
        else:
            initial = self.near(start_point)
            for other, time in initial.items():
                ready[other] = min(ready.get(other, INF), start + time)
        if end_stop is not None:
            final = {end_stop: 0}
            for key, paths in self.footpaths.items():
                if end_stop in paths:
                    final[key] = paths[end_stop]
        else:
            final = self.near(end_point)
        best = INF
        if start_stop is not None and start_stop == end_stop:
            return start
        if start_stop is not None and start_stop in final:
            best = start + final[start_stop]
        elif start_stop is None and end_stop is None and distance(start_point, end_point) <= RADIUS:
            best = start + walk(distance(start_point, end_point))
        elif start_stop is None and end_stop is not None and end_stop in initial:
            best = start + initial[end_stop]
        reached = set()
        connections = self.connections(start)
        i = bisect.bisect_left(connections, (start,))
        # Connections leaving at the same second are scanned until nothing changes: a trip may
        # be boarded at the second another one arrives, and both may take no time.
        while i < len(connections) and connections[i][0] < best:
            j = i
            while j < len(connections) and connections[j][0] == connections[i][0]:
                j += 1
            changed = True
            while changed:
                changed = False
                for dep, arr, a, b, pickup, drop, instance in connections[i:j]:
                    if instance not in reached:
                        if not pickup or ready.get(a, INF) > dep:
                            continue
                        reached.add(instance)
                        changed = True
                    if not drop:
                        continue
                    if b in final and arr + final[b] < best:
                        best = arr + final[b]
                    for other, time in [(b, self.change.get(b, 0))] + list(self.paths_from(b).items()):
                        if arr + time < ready.get(other, INF):
                            ready[other] = arr + time
                            changed = True
            i = j
        return None if best == INF else int(best)

    def paths_from(self, key):
        return self.footpaths.get(key, {})


def feeds(arguments):
    out = []
    for i, argument in enumerate(arguments):
        if argument == '--feed':
            value = arguments[i + 1]
            name, _, folder = value.rpartition('=') if '=' in value else ('', '', value)
            out.append((name or 'feed', folder))
    return out


def check(network, journeys):
    """The first problem of a ride leg against the feeds' stop_times, or None."""
    by_trip = {}
    for feed, service, events, route, trip_id in network.trips:
        by_trip[(feed, trip_id)] = (service, events)
    for journey in journeys:
        for leg in journey['legs']:
            if leg['mode'] != 'ride':
                continue
            feed = leg['from'].split(':')[0] if network.named else 'feed'
            service, events = by_trip[(feed, leg['trip_id'])]
            zone = network.zone[feed]
            dep = datetime.datetime.fromisoformat(leg['departure']).timestamp()
            arr = datetime.datetime.fromisoformat(leg['arrival']).timestamp()
            ok = False
            for i, board in enumerate(events):
                if board[0] != leg['from'] or not board[3]:
                    continue
                for alight in events[i + 1:]:
                    if alight[0] != leg['to'] or not alight[4]:
                        continue
                    for k in range(-3, 3):
                        local = datetime.datetime.fromtimestamp(dep, zone).date() + datetime.timedelta(days=k)
                        if local not in network.services.get((feed, service), ()):
                            continue
                        noon = datetime.datetime(local.year, local.month, local.day, 12, tzinfo=zone).timestamp()
                        shift = noon - 43200
                        steps = [0]
                        if (feed, leg['trip_id']) in network.frequencies:
                            steps = [t - events[0][2] for b, e, h in network.frequencies[(feed, leg['trip_id'])]
                                     for t in range(b, e, h)]
                        for step in steps:
                            if shift + step + board[2] == dep and shift + step + alight[1] == arr:
                                ok = True
            if not ok:
                return f"ride {leg['trip_id']} from {leg['from']} at {leg['departure']} to {leg['to']} at {leg['arrival']}"
        if journey['legs'] and (journey['departure'] != journey['legs'][0]['departure']
                                or journey['arrival'] != journey['legs'][-1]['arrival']):
            return 'journey times differ from its legs'
    return None


def main():
    command, arguments = sys.argv[1], sys.argv[2:]
    network = Network(feeds(arguments))
    cases = [json.loads(line) for line in sys.stdin if line.strip()]
    if command == 'batch':
        # Cases of one date and origin feed share their connections: plan them together.
        order = sorted(range(len(cases)), key=lambda i: (cases[i]['at'][:10], cases[i]['from'].split(':')[0], i))
        answers = {}
        for i in order:
            answers[i] = network.earliest(cases[i]['from'], cases[i]['to'], cases[i]['at'])
        for i in range(len(cases)):
            print('none' if answers[i] is None else answers[i])
        return
    for case in cases:
        if command == 'check':
            problem = check(network, case['journeys'])
            print(problem or 'ok', flush=True)


if __name__ == '__main__':
    main()
