#!/usr/bin/env python3
"""Independent answers to the questions of Documentation/querying.md, computed from a GTFS
feed's raw CSV files with Python's csv and datetime modules only (no SQLite), for the tests
that check the seed's SQL against them.

  gtfs_reference.py service-dates FEED
      every (service_id, date) on which a service runs, one per line: "service_id<TAB>date"
  gtfs_reference.py departures FEED STOP_ID DATE FROM TO
  gtfs_reference.py arrivals FEED STOP_ID DATE FROM TO
      the departures (arrivals) at STOP_ID, or at its platforms if it is a station, between FROM
      and TO in seconds on DATE's clock (yyyy-mm-dd; a trip of the service day DATE + k at time t
      is at t + k * 86400), one per line:
      "time<TAB>trip_id<TAB>stop_sequence<TAB>service_date<TAB>stop_id"
  gtfs_reference.py route-trips FEED ROUTE_ID DATE
      the trips of ROUTE_ID running on DATE by their first departure: "trip_id<TAB>first departure"
  gtfs_reference.py trip-stops FEED TRIP_ID
      the stops of TRIP_ID in order: "stop_sequence<TAB>stop_id<TAB>arrival<TAB>departure"
  gtfs_reference.py next-departures FEED STOP_ID INSTANT LIMIT ZONE
      the next LIMIT departures at or after INSTANT (Unix seconds), times as Unix seconds: a
      service day's times count from noon minus 12 h in the time zone ZONE

Rules (those of the transit schema and the guide): calendar weekdays between start_date and
end_date (the whole calendar), calendar_dates exception_type 1 adds and 2 removes; rows a
lenient build rejects (invalid dates, a repeated (trip_id, stop_sequence)) are skipped, the
first copy wins; a departure is a stop where the rider may board (pickup_type not 1) and the
trip goes on (not its last stop), an arrival one where the rider may alight (drop_off_type not
1) and the trip came from somewhere (not its first stop); trips in frequencies.txt run every
headway_secs from start_time while the start is before end_time, at the pattern's offsets from
the trip's first stop.
"""
import datetime
import sys
import zoneinfo

from gtfs_csv import read


def day(text):
    try:
        return datetime.date(int(text[0:4]), int(text[4:6]), int(text[6:8])) if len(text) == 8 else None
    except ValueError:
        return None


def seconds(text):
    parts = text.split(':')
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    return int(parts[0]) * 3600 + int(parts[1]) * 60 + int(parts[2])


def service_dates(feed):
    dates = set()
    flags = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
    for row in read(feed, 'calendar.txt'):
        start, end = day(row.get('start_date', '')), day(row.get('end_date', ''))
        if start is None or end is None:
            continue
        runs = [row.get(flag, '').lower() in ('1', 'true', 'yes', 't', 'y') for flag in flags]
        current = start
        while current <= end:
            if runs[current.weekday()]:
                dates.add((row['service_id'], current.isoformat()))
            current += datetime.timedelta(days=1)
    exceptions = read(feed, 'calendar_dates.txt')
    for row in exceptions:
        date = day(row.get('date', ''))
        if date is not None and row.get('exception_type') == '2':
            dates.discard((row['service_id'], date.isoformat()))
    for row in exceptions:
        date = day(row.get('date', ''))
        if date is not None and row.get('exception_type') == '1':
            dates.add((row['service_id'], date.isoformat()))
    return dates


def trip_stops(feed, stop_id):
    """The rows at the stop (or, for a station, at its platforms), each with whether the trip
    goes on after it (a departure) and came from somewhere before it (an arrival), and each
    trip's first departure (the origin of a headway pattern)."""
    here = {stop_id} | {row['stop_id'] for row in read(feed, 'stops.txt') if row.get('parent_station') == stop_id}
    first, last = {}, {}  # trip -> (stop_sequence, departure) of its first stop; trip -> last sequence
    rows = []
    seen = set()
    for row in read(feed, 'stop_times.txt'):
        trip, sequence = row['trip_id'], int(row['stop_sequence'])
        if (trip, sequence) in seen:
            continue
        seen.add((trip, sequence))
        departure = seconds(row.get('departure_time', ''))
        if trip not in first or sequence < first[trip][0]:
            first[trip] = (sequence, departure)
        last[trip] = max(last.get(trip, sequence), sequence)
        if row.get('stop_id') in here:
            rows.append(dict(trip=trip, sequence=sequence, stop=row['stop_id'], departure=departure,
                             arrival=seconds(row.get('arrival_time', '')),
                             pickup=row.get('pickup_type', ''), drop_off=row.get('drop_off_type', '')))
    for row in rows:
        row['first'] = row['sequence'] == first[row['trip']][0]
        row['last'] = row['sequence'] == last[row['trip']]
        row['origin'] = first[row['trip']][1]
    return rows


def events(feed, stop_id, date, start, end, kind='departure'):
    """Departures (or arrivals) at the stop between start and end, in seconds on DATE's clock:
    a trip of the service day DATE + k at time t is at t + k * 86400."""
    runs = service_dates(feed)
    service = {row['trip_id']: row.get('service_id') for row in read(feed, 'trips.txt')}
    frequencies = {}
    for row in read(feed, 'frequencies.txt'):
        begin, finish, headway = seconds(row.get('start_time', '')), seconds(row.get('end_time', '')), row.get('headway_secs', '')
        if begin is not None and finish is not None and headway.isdigit():
            frequencies.setdefault(row['trip_id'], []).append((begin, finish, int(headway)))
    rows = [row for row in trip_stops(feed, stop_id)
            if ((row['pickup'] != '1' and not row['last']) if kind == 'departure' else (row['drop_off'] != '1' and not row['first']))]
    today = datetime.date.fromisoformat(date)
    result = []
    # Times up to 96 hours after a service day's start.
    for k in range(start // 86400 - 4, end // 86400 + 1):
        service_date = (today + datetime.timedelta(days=k)).isoformat()
        shift = k * 86400
        for row in rows:
            trip, time = row['trip'], row[kind]
            if time is None or (service.get(trip), service_date) not in runs:
                continue
            if trip in frequencies:
                if row['origin'] is None:
                    continue
                for begin, finish, headway in frequencies[trip]:
                    if headway <= 0:
                        continue
                    t = begin
                    while t < finish:
                        at = t + time - row['origin'] + shift
                        if start <= at <= end:
                            result.append((at, trip, row['sequence'], service_date, row['stop']))
                        t += headway
            elif start <= time + shift <= end:
                result.append((time + shift, trip, row['sequence'], service_date, row['stop']))
    return sorted(result)


def next_departures(feed, stop_id, instant, limit, zone):
    """The next LIMIT departures at or after INSTANT (Unix seconds) in absolute time: a service
    day's times count from noon minus 12 h in ZONE (the GTFS rule), so they move on
    daylight-saving days."""
    tz = zoneinfo.ZoneInfo(zone)
    local = datetime.datetime.fromtimestamp(instant, tz).date()
    found = []
    for k in range(-3, 2):
        day = local + datetime.timedelta(days=k)
        noon = datetime.datetime(day.year, day.month, day.day, 12, tzinfo=tz)
        base = int(noon.timestamp()) - 12 * 3600
        for at, trip, sequence, service_date, stop in events(feed, stop_id, day.isoformat(), instant - base, instant - base + 2 * 86400):
            if service_date == day.isoformat():
                found.append((base + at, trip, sequence, service_date, stop))
    # Ties (one instant on two service days' clocks): the earlier service day first.
    return sorted(found, key=lambda row: (row[0], row[3], row[1], row[2]))[:limit]


def route_trips(feed, route_id, date):
    """The trips of ROUTE_ID that run on DATE, with their first departure, by that time."""
    runs = service_dates(feed)
    trips = [row for row in read(feed, 'trips.txt') if row.get('route_id') == route_id and (row.get('service_id'), date) in runs]
    wanted = {row['trip_id'] for row in trips}
    first = {}
    for row in read(feed, 'stop_times.txt'):
        if row['trip_id'] in wanted:
            sequence = int(row['stop_sequence'])
            if row['trip_id'] not in first or sequence < first[row['trip_id']][0]:
                first[row['trip_id']] = (sequence, seconds(row.get('departure_time', '')))
    result = [(first.get(row['trip_id'], (0, None))[1], row['trip_id']) for row in trips]
    return sorted(result, key=lambda item: (item[0] is not None, item[0] or 0, item[1]))


def stops_of_trip(feed, trip_id):
    """The stops of TRIP_ID in order: stop_sequence, stop_id, arrival, departure."""
    rows, seen = [], set()
    for row in read(feed, 'stop_times.txt'):
        if row['trip_id'] == trip_id and row['stop_sequence'] not in seen:
            seen.add(row['stop_sequence'])
            rows.append((int(row['stop_sequence']), row.get('stop_id', ''), seconds(row.get('arrival_time', '')), seconds(row.get('departure_time', ''))))
    return sorted(rows)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'service-dates':
        for service_id, date in sorted(service_dates(sys.argv[2])):
            print(f'{service_id}\t{date}')
    elif len(sys.argv) == 7 and sys.argv[1] in ('departures', 'arrivals'):
        for row in events(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), sys.argv[1][:-1]):
            print('\t'.join(str(value) for value in row))
    elif len(sys.argv) == 7 and sys.argv[1] == 'next-departures':
        for row in next_departures(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]):
            print('\t'.join(str(value) for value in row))
    elif len(sys.argv) == 5 and sys.argv[1] == 'route-trips':
        for first, trip in route_trips(sys.argv[2], sys.argv[3], sys.argv[4]):
            print(f'{trip}\t{"" if first is None else first}')
    elif len(sys.argv) == 4 and sys.argv[1] == 'trip-stops':
        for row in stops_of_trip(sys.argv[2], sys.argv[3]):
            print('\t'.join('' if value is None else str(value) for value in row))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
