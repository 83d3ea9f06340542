#!/usr/bin/env python3
"""Independent answers from a NeTEx export (an .xml file, a folder of them or a .zip of them),
computed with xml.etree, zipfile and datetime only (no SQLite), for the tests that check the
transit tables the netex schema derives.

  netex_reference.py trip-stops EXPORT
      every service journey's stops in order, one per line:
      "trip_id<TAB>stop_sequence<TAB>stop_id<TAB>arrival<TAB>departure<TAB>pickup_type<TAB>drop_off_type"
  netex_reference.py trips-on EXPORT DATE
      the service journeys that run on DATE (yyyy-mm-dd), one id per line, sorted
  netex_reference.py departures EXPORT STOP_ID DATE FROM TO
      the departures at STOP_ID between FROM and TO seconds on DATE's clock, sorted:
      "time<TAB>trip_id<TAB>stop_sequence<TAB>service_date"

Rules (those of Entur's NeTEx-to-GTFS mapping): a trip per ServiceJourney; its stops are its
TimetabledPassingTimes in order, each at the quay (else stop place) the PassengerStopAssignment
of its stop point's ScheduledStopPoint names (else the scheduled stop point's id), a passing
time naming no stop point being at its pattern's point of the same position; times are
seconds after midnight plus 86400 per day offset, a missing arrival is the departure and the
other way round; ForBoarding false: no pickup, ForAlighting false: no drop off. A journey runs
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
    journeys = []
    for j in elements.get("ServiceJourney", []):
        trip = {"id": j.get("id"), "stops": [], "days": set()}
        passing = child(j, "passingTimes")
        pattern = patterns.get(value(j, "JourneyPatternRef/@ref") or value(j, "ServiceJourneyPatternRef/@ref"))
        in_order = sorted((p for p in pattern.iter() if local(p.tag) == "StopPointInJourneyPattern"),
                          key=lambda p: int(p.get("order") or 0)) if pattern is not None else []
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
