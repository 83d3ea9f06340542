#!/usr/bin/env python3
"""Independent answers from a NeTEx export (an .xml file, a folder of them or a .zip of them),
computed with xml.etree, zipfile and datetime only (no SQLite), for the tests that check the
transit tables the netex schema derives.

  netex_reference.py trip-stops EXPORT
      every service journey's stops in order, one per line:
      "trip_id<TAB>stop_sequence<TAB>stop_id<TAB>arrival<TAB>departure<TAB>pickup_type<TAB>drop_off_type"
  netex_reference.py trips-on EXPORT DATE
      the service journeys that run on DATE (yyyy-mm-dd), one id per line, sorted
  netex_reference.py service-dates EXPORT
      every date some service journey runs on, one per line, sorted
  netex_reference.py departures EXPORT STOP_ID DATE FROM TO
      the departures at STOP_ID between FROM and TO seconds on DATE's clock, sorted:
      "time<TAB>trip_id<TAB>stop_sequence<TAB>service_date"

Rules (those of Entur's NeTEx-to-GTFS mapping): a trip per ServiceJourney; its stops are its
TimetabledPassingTimes in order, each at the quay (else stop place) the PassengerStopAssignment
of its stop point's ScheduledStopPoint names (else the scheduled stop point's id), a passing
time naming no stop point being at its pattern's point of the same position; times are
seconds after midnight plus 86400 per day offset, a missing arrival is the departure and the
other way round; ForBoarding false: no pickup, ForAlighting false: no drop off. A journey with
no passing times but a DepartureTime and a TimeDemandType (Swiss) is timed by the demand type, as
NeTEx defines it: its stops are its pattern's stop points in order; it leaves the first at its
DepartureTime (plus DepartureDayOffset days), reaches each next one after the JourneyRunTime of
the TimingLink from the one point to the other (the journey's own runTimes first) and leaves it
after the JourneyWaitTime at that point (none: no wait); a hop no timing link of the demand type
joins (or whose run time is no fixed duration, P3M being three months) leaves that stop and the
rest of the journey untimed (empty arrival and departure). A journey runs
on the days of its DayTypes: each DayTypeAssignment's Date, or its OperatingPeriod's days from
FromDate to ToDate on the DayType's DaysOfWeek (all when none), or its UicOperatingPeriod's
ValidDayBits; isAvailable false removes the day. Its AvailabilityConditions (ValidDayBits
from FromDate, else every day from FromDate to ToDate) give its days when it has no DayTypes
and restrict them when it has. A cancelled journey runs on no day.
"""
import datetime
import io
import os
import sys
import xml.etree.ElementTree as ET
import zipfile

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def local(tag):
    return tag.rsplit("}", 1)[-1]


def child(element, name):
    for c in element:
        if local(c.tag) == name:
            return c
    return None


def value(element, path):
    for name in path.split("/"):
        if element is None:
            return None
        if name.startswith("@"):
            return element.get(name[1:])
        element = child(element, name)
    return element.text.strip() if element is not None and element.text else None


def documents(export):
    if export.endswith(".zip"):
        with zipfile.ZipFile(export) as archive:
            for name in sorted(archive.namelist()):
                if name.endswith(".xml"):
                    yield ET.parse(io.BytesIO(archive.read(name))).getroot()
    elif export.endswith(".xml"):
        yield ET.parse(export).getroot()
    else:
        for name in sorted(os.listdir(export)):
            if name.endswith(".xml"):
                yield ET.parse(os.path.join(export, name)).getroot()


def clock(text, offset):
    h, m, s = text[:8].split(":")
    return int(h) * 3600 + int(m) * 60 + int(s) + 86400 * int(offset or 0)


def duration(text):
    """An xs:duration of days, hours, minutes and seconds (PT1M30S, P1DT2H), in seconds."""
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("-")[1:]
    days, _, time = text.partition("T")
    if days and not days.endswith("D") or any(unit in days[:-1] for unit in "YMD"):
        return None  # years or months (P3M is three months): no fixed number of seconds
    total = int(days[:-1]) * 86400 if days else 0
    number = ""
    for character in time:
        if character in "HMS":
            total += float(number) * {"H": 3600, "M": 60, "S": 1}[character]
            number = ""
        else:
            number += character
    return sign * int(total)


def run_and_wait_times(holder, links):
    """A TimeDemandType's (or a journey's) run times by (from point, to point) of their timing
    link, and wait times by timing point."""
    runs, waits = {}, {}
    for r in (child(holder, "runTimes") or []):
        link = links.get(value(r, "TimingLinkRef/@ref"))
        if local(r.tag) == "JourneyRunTime" and link is not None and value(r, "RunTime") and duration(value(r, "RunTime")) is not None:
            runs.setdefault((value(link, "FromPointRef/@ref"), value(link, "ToPointRef/@ref")), duration(value(r, "RunTime")))
    for w in (child(holder, "waitTimes") or []):
        point = value(w, "ScheduledStopPointRef/@ref") or value(w, "TimingPointRef/@ref")
        if local(w.tag) == "JourneyWaitTime" and point and value(w, "WaitTime") and duration(value(w, "WaitTime")) is not None:
            waits.setdefault(point, duration(value(w, "WaitTime")))
    return runs, waits


def demanded(journey, in_order, stop_of, timed):
    """A journey with no passing times, timed by its time demand type (NeTEx Part 2, the
    Time Demand Type model): it leaves its pattern's first point at its DepartureTime (plus
    DepartureDayOffset days); the vehicle reaches each next point after the JourneyRunTime of
    the timing link between the two points, and leaves it after the JourneyWaitTime at that
    point (none: no wait). The journey's own run and wait times come before its demand type's.
    A hop with no run time leaves the rest of the journey untimed (empty times)."""
    if value(journey, "DepartureTime") is None or not in_order:
        return []
    demand = timed["demands"].get(value(journey, "TimeDemandTypeRef/@ref"))
    own_runs, own_waits = run_and_wait_times(journey, timed["links"])
    runs, waits = run_and_wait_times(demand, timed["links"]) if demand is not None else ({}, {})
    runs, waits = {**runs, **own_runs}, {**waits, **own_waits}
    if demand is None and not runs:
        return []
    stops = []
    at = clock(value(journey, "DepartureTime"), value(journey, "DepartureDayOffset"))
    previous = None
    for position, point in enumerate(in_order):
        ssp = value(point, "ScheduledStopPointRef/@ref")
        if position == 0:
            arrival = departure = at
        else:
            run = runs.get((previous, ssp)) if at is not None else None
            arrival = at + run if run is not None else None
            departure = arrival + waits.get(ssp, 0) if arrival is not None else None
            at = departure
        previous = ssp
        stops.append((stop_of.get(ssp, ssp), "" if arrival is None else arrival, "" if departure is None else departure,
                      1 if value(point, "ForBoarding") == "false" else 0,
                      1 if value(point, "ForAlighting") == "false" else 0))
    return stops


def read(export):
    elements = {}
    for root in documents(export):
        for element in root.iter():
            elements.setdefault(local(element.tag), []).append(element)
    by_id = lambda name: {e.get("id"): e for e in elements.get(name, [])}
    stop_of = {}
    for a in sorted(elements.get("PassengerStopAssignment", []), key=lambda a: int(a.get("order") or 0)):
        point = value(a, "ScheduledStopPointRef/@ref")
        stop_of.setdefault(point, value(a, "QuayRef/@ref") or value(a, "StopPlaceRef/@ref"))
    points = by_id("StopPointInJourneyPattern")
    patterns = {**by_id("JourneyPattern"), **by_id("ServiceJourneyPattern")}
    periods = {}
    for p in elements.get("OperatingPeriod", []) + elements.get("UicOperatingPeriod", []):
        first = datetime.date.fromisoformat(value(p, "FromDate")[:10])
        bits = value(p, "ValidDayBits")
        if bits:
            periods[p.get("id")] = ([first + datetime.timedelta(days=i) for i, b in enumerate(bits) if b == "1"], False)
        else:
            last = datetime.date.fromisoformat(value(p, "ToDate")[:10])
            periods[p.get("id")] = ([first + datetime.timedelta(days=i) for i in range((last - first).days + 1)], True)
    day_types = by_id("DayType")
    days_of = {}
    for a in elements.get("DayTypeAssignment", []):
        day_type = value(a, "DayTypeRef/@ref")
        available = value(a, "isAvailable") != "false"
        if value(a, "Date"):
            dates = [datetime.date.fromisoformat(value(a, "Date")[:10])]
        else:
            dates, weekly = periods.get(value(a, "OperatingPeriodRef/@ref") or value(a, "UicOperatingPeriodRef/@ref"), ([], False))
            week = value(day_types[day_type], "properties/PropertyOfDay/DaysOfWeek") if day_type in day_types else None
            if week:
                names = set(week.split())
                if "Everyday" in names:
                    names.update(WEEKDAYS)
                if "Weekdays" in names:
                    names.update(WEEKDAYS[:5])
                if "Weekend" in names:
                    names.update(WEEKDAYS[5:])
                dates = [d for d in dates if WEEKDAYS[d.weekday()] in names]
        added, removed = days_of.setdefault(day_type, (set(), set()))
        (added if available else removed).update(dates)
    conditions = {}
    for c in elements.get("AvailabilityCondition", []):
        if not value(c, "FromDate"):
            continue
        first = datetime.date.fromisoformat(value(c, "FromDate")[:10])
        bits = value(c, "ValidDayBits")
        if bits:
            days = [first + datetime.timedelta(days=i) for i, b in enumerate(bits) if b == "1"]
        else:
            last = datetime.date.fromisoformat(value(c, "ToDate")[:10])
            days = [first + datetime.timedelta(days=i) for i in range((last - first).days + 1)]
        if value(c, "ToDate"):
            days = [d for d in days if d <= datetime.date.fromisoformat(value(c, "ToDate")[:10])]
        conditions[c.get("id")] = (set(days), value(c, "IsAvailable") != "false")
    timed = {"links": by_id("TimingLink"), "demands": by_id("TimeDemandType")}
    journeys = []
    for j in elements.get("ServiceJourney", []):
        trip = {"id": j.get("id"), "stops": [], "days": set()}
        passing = child(j, "passingTimes")
        pattern = patterns.get(value(j, "JourneyPatternRef/@ref") or value(j, "ServiceJourneyPatternRef/@ref"))
        in_order = sorted((p for p in pattern.iter() if local(p.tag) == "StopPointInJourneyPattern"),
                          key=lambda p: int(p.get("order") or 0)) if pattern is not None else []
        if passing is None or len(passing) == 0:
            trip["stops"] = demanded(j, in_order, stop_of, timed)
        for sequence, t in enumerate(list(passing) if passing is not None else [], start=1):
            ref = value(t, "StopPointInJourneyPatternRef/@ref")
            point = points.get(ref) if ref else (in_order[sequence - 1] if sequence <= len(in_order) else None)
            ssp = value(point, "ScheduledStopPointRef/@ref") if point is not None else None
            arrival = clock(value(t, "ArrivalTime"), value(t, "ArrivalDayOffset")) if value(t, "ArrivalTime") else None
            departure = clock(value(t, "DepartureTime"), value(t, "DepartureDayOffset")) if value(t, "DepartureTime") else None
            trip["stops"].append((stop_of.get(ssp, ssp), arrival if arrival is not None else departure,
                                  departure if departure is not None else arrival,
                                  1 if point is not None and value(point, "ForBoarding") == "false" else 0,
                                  1 if point is not None and value(point, "ForAlighting") == "false" else 0))
        if value(j, "ServiceAlteration") != "cancellation":
            added, removed = set(), set()
            for ref in (child(j, "dayTypes") or []):
                a, r = days_of.get(ref.get("ref"), (set(), set()))
                added |= a
                removed |= r
            valid, invalid, named = set(), set(), False
            for ref in (child(j, "validityConditions") or []):
                if local(ref.tag) == "AvailabilityConditionRef" and ref.get("ref") in conditions:
                    named = True
                    days, available = conditions[ref.get("ref")]
                    (valid if available else invalid).update(days)
            has_day_types = child(j, "dayTypes") is not None and len(child(j, "dayTypes")) > 0
            if named:
                added = (added & valid) if has_day_types else valid
                removed |= invalid
            trip["days"] = added - removed
        journeys.append(trip)
    return journeys


def main(arguments):
    command, export = arguments[0], arguments[1]
    journeys = read(export)
    if command == "trip-stops":
        for j in sorted(journeys, key=lambda j: j["id"]):
            for sequence, stop in enumerate(j["stops"], start=1):
                print("\t".join(str(v) for v in (j["id"], sequence) + stop))
    elif command == "trips-on":
        day = datetime.date.fromisoformat(arguments[2])
        for trip_id in sorted(j["id"] for j in journeys if day in j["days"]):
            print(trip_id)
    elif command == "service-dates":
        for day in sorted(set().union(*(j["days"] for j in journeys))):
            print(day.isoformat())
    elif command == "departures":
        stop_id, day, start, end = arguments[2], datetime.date.fromisoformat(arguments[3]), int(arguments[4]), int(arguments[5])
        rows = []
        for j in journeys:
            for k in range(-3, 2):
                service_day = day + datetime.timedelta(days=k)
                if service_day not in j["days"]:
                    continue
                for sequence, (stop, _, departure, pickup, _) in enumerate(j["stops"], start=1):
                    at = departure + k * 86400
                    if stop == stop_id and pickup != 1 and sequence < len(j["stops"]) and start <= at <= end:
                        rows.append((at, j["id"], sequence, service_day.isoformat()))
        for row in sorted(rows):
            print("\t".join(str(v) for v in row))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main(sys.argv[1:])
