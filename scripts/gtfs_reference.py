#!/usr/bin/env python3
"""Independent answers to the questions of Documentation/querying.md, computed from a GTFS
feed's raw CSV files with Python's csv and datetime modules only (no SQLite), for the tests
that check the seed's SQL against them.

  gtfs_reference.py service-dates FEED
      every (service_id, date) on which a service runs, one per line: "service_id<TAB>date"
  gtfs_reference.py departures FEED STOP_ID DATE FROM TO
      the departures at STOP_ID on DATE (yyyy-mm-dd) between FROM and TO (seconds after
      midnight), one per line: "departure<TAB>trip_id<TAB>stop_sequence<TAB>service_date"

Rules (those of the transit schema and the guide): calendar weekdays between start_date and
end_date (at most the first 3660 days), calendar_dates exception_type 1 adds and 2 removes;
rows a lenient build rejects (invalid dates, a repeated (trip_id, stop_sequence)) are skipped,
the first copy wins; trips in frequencies.txt run every headway_secs from start_time while the
start is before end_time, at the pattern's offsets from the trip's first stop; yesterday's
trips count with their times minus 24 hours.
"""
import csv
import datetime
import os
import sys

csv.field_size_limit(sys.maxsize)
MAX_DAYS = 3660


def read(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return []
    with open(path, newline='', encoding='utf-8-sig', errors='replace') as f:
        rows = [row for row in csv.reader(f) if row]
    if not rows:
        return []
    header = [name.strip() for name in rows[0]]
    return [dict(zip(header, (value.strip() for value in row))) for row in rows[1:]]


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
        last = min(end, start + datetime.timedelta(days=MAX_DAYS - 1))
        runs = [row.get(flag, '').lower() in ('1', 'true', 'yes', 't', 'y') for flag in flags]
        current = start
        while current <= last:
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


def departures(feed, stop_id, date, start, end):
    runs = service_dates(feed)
    service = {row['trip_id']: row.get('service_id') for row in read(feed, 'trips.txt')}
    frequencies = {}
    for row in read(feed, 'frequencies.txt'):
        begin, finish, headway = seconds(row.get('start_time', '')), seconds(row.get('end_time', '')), row.get('headway_secs', '')
        if begin is not None and finish is not None and headway.isdigit():
            frequencies.setdefault(row['trip_id'], []).append((begin, finish, int(headway)))
    first = {}    # trip -> (stop_sequence, departure) of its first stop
    at_stop = []  # (trip, stop_sequence, departure) at the stop
    seen = set()
    for row in read(feed, 'stop_times.txt'):
        trip, sequence = row['trip_id'], int(row['stop_sequence'])
        if (trip, sequence) in seen:
            continue
        seen.add((trip, sequence))
        departure = seconds(row.get('departure_time', ''))
        if trip not in first or sequence < first[trip][0]:
            first[trip] = (sequence, departure)
        if row.get('stop_id') == stop_id:
            at_stop.append((trip, sequence, departure))
    today = datetime.date.fromisoformat(date)
    result = []
    for service_date, shift in ((today, 0), (today - datetime.timedelta(days=1), 86400)):
        for trip, sequence, departure in at_stop:
            if departure is None or (service.get(trip), service_date.isoformat()) not in runs:
                continue
            if trip in frequencies:
                origin = first[trip][1]
                if origin is None:
                    continue
                for begin, finish, headway in frequencies[trip]:
                    if headway <= 0:
                        continue
                    t = begin
                    while t < finish:
                        time = t + departure - origin - shift
                        if start <= time <= end:
                            result.append((time, trip, sequence, service_date.isoformat()))
                        t += headway
            elif start <= departure - shift <= end:
                result.append((departure - shift, trip, sequence, service_date.isoformat()))
    return sorted(result)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'service-dates':
        for service_id, date in sorted(service_dates(sys.argv[2])):
            print(f'{service_id}\t{date}')
    elif len(sys.argv) == 7 and sys.argv[1] == 'departures':
        for row in departures(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])):
            print('\t'.join(str(value) for value in row))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
