#!/usr/bin/env python3
"""Independent answers from TransXChange files, computed with xml.etree and datetime only
(no SQLite), for the tests that check the transit tables the transxchange schema derives.

  txc_reference.py trip-stops FOLDER
      every journey's stops in order, one per line:
      "trip_id<TAB>stop_sequence<TAB>stop_id<TAB>arrival<TAB>departure<TAB>pickup_type<TAB>drop_off_type"
  txc_reference.py trips-on FOLDER DATE
      the trips that run on DATE (yyyy-mm-dd), one trip_id per line, sorted
  txc_reference.py departures FOLDER STOP_ID DATE FROM TO
      the departures at STOP_ID between FROM and TO seconds on DATE's clock (a trip of the
      service day DATE + k at time t is at t + k * 86400), sorted:
      "time<TAB>trip_id<TAB>stop_sequence<TAB>service_date"

A trip_id is "file:VehicleJourneyCode". Rules (UK2GTFS's reading of TransXChange): a journey
runs its JourneyPatternRef's pattern, or that of the journey its VehicleJourneyRef names; its
stops are the From of the first timing link and the To of each, through the pattern's
sections in order; it leaves the first stop at its DepartureTime, reaches each next stop the
link's RunTime later and leaves it after the To WaitTime and the next link's From WaitTime,
the journey's own VehicleJourneyTimingLink times replacing the pattern link's.
Activity setDown: no pickup; pickUp: no drop off; pass: neither. A journey runs, within its
service's OperatingPeriod, on the days of week of its RegularDayType (none if HolidaysOnly) and
on its SpecialDaysOperation DaysOfOperation ranges, and not on its DaysOfNonOperation ranges;
fixed-date bank holidays (Christmas Day 25 Dec, Boxing Day 26 Dec, New Year's Day 1 Jan, and
those three for AllBankHolidays or Christmas) are added or removed likewise; a day both added
and removed is removed. Serviced organisations' days and movable bank holidays are not applied.
"""
import datetime
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.transxchange.org.uk/}"
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
DAY_SETS = {
    "MondayToFriday": WEEKDAYS[:5], "MondayToSaturday": WEEKDAYS[:6], "MondayToSunday": WEEKDAYS,
    "Weekend": ["Saturday", "Sunday"],
}
for _day in WEEKDAYS:
    DAY_SETS[_day] = [_day]
    DAY_SETS["Not" + _day] = [d for d in WEEKDAYS if d != _day]
HOLIDAYS = {
    "ChristmasDay": ["12-25"], "BoxingDay": ["12-26"], "NewYearsDay": ["01-01"], "ChristmasEve": ["12-24"],
    "NewYearsEve": ["12-31"], "Jan2ndScotland": ["01-02"], "StAndrewsDay": ["11-30"],
    "Christmas": ["12-25", "12-26"], "AllBankHolidays": ["12-25", "12-26", "01-01"],
}


def text(element, path):
    found = element.find("/".join(NS + step for step in path.split("/")))
    return found.text.strip() if found is not None and found.text is not None else None


def seconds(duration):
    """An ISO 8601 duration (PT1H2M3S) in seconds."""
    match = re.fullmatch(r"(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?", duration)
    if not match:
        raise ValueError(f"not a duration: {duration}")
    sign, d, h, m, s = match.groups()
    total = int(d or 0) * 86400 + int(h or 0) * 3600 + int(m or 0) * 60 + int(s or 0)
    return -total if sign else total


def clock(value):
    h, m, s = value.split(":")
    return int(h) * 3600 + int(m) * 60 + int(float(s))


def date(value):
    return datetime.date.fromisoformat(value[:10])


class Journey:
    pass


def read(folder):
    """Every journey of the folder's files: trip_id, stops [(stop, arrival, departure, pickup, drop_off)], days (a set of dates)."""
    journeys = []
    for name in sorted(os.listdir(folder)):
        if not name.lower().endswith(".xml"):
            continue
        root = ET.parse(os.path.join(folder, name)).getroot()
        links = {}
        for section in root.iter(NS + "JourneyPatternSection"):
            links[section.get("id")] = list(section.iter(NS + "JourneyPatternTimingLink"))
        patterns, periods = {}, {}
        for service in root.iter(NS + "Service"):
            code = text(service, "ServiceCode")
            start, end = text(service, "OperatingPeriod/StartDate"), text(service, "OperatingPeriod/EndDate")
            periods[code] = (date(start), date(end) if end else date(start) + datetime.timedelta(days=364))
            for pattern in service.iter(NS + "JourneyPattern"):
                sections = [ref.text.strip() for ref in pattern.findall(NS + "JourneyPatternSectionRefs")]
                patterns[pattern.get("id")] = [link for section in sections for link in links[section]]
        vehicle_journeys = list(root.iter(NS + "VehicleJourney"))
        pattern_of = {text(v, "VehicleJourneyCode"): text(v, "JourneyPatternRef") for v in vehicle_journeys}
        runs = {text(v, "VehicleJourneyCode"): text(v, "VehicleJourneyRef") for v in vehicle_journeys}
        for v in vehicle_journeys:
            journey = Journey()
            code = text(v, "VehicleJourneyCode")
            journey.trip_id = f"{name}:{code}"
            seen, pattern = set(), pattern_of[code]
            while pattern is None and runs.get(code) and code not in seen:
                seen.add(code)
                code = runs[code]
                pattern = pattern_of.get(code)
            overrides = {text(o, "JourneyPatternTimingLinkRef"): o for o in v.iter(NS + "VehicleJourneyTimingLink")}
            journey.stops = timetable(patterns.get(pattern, []), overrides, clock(text(v, "DepartureTime")))
            journey.days = days(v, periods[text(v, "ServiceRef")])
            journeys.append(journey)
    return journeys


def timetable(links, overrides, departure):
    """The stops of a pattern's links, timed from `departure`; `overrides`: the journey's own
    VehicleJourneyTimingLink elements by the id of the link whose times they replace."""
    def timing(link, path):
        own = overrides.get(link.get("id"))
        value = text(own, path) if own is not None else None
        return value if value is not None else text(link, path)

    if not links:
        return []
    first = links[0].find(NS + "From")
    stops = [(text(first, "StopPointRef"), departure, departure, text(first, "Activity"))]
    time = departure
    for index, link in enumerate(links):
        to = link.find(NS + "To")
        run = timing(link, "RunTime")
        if run is None:
            return []
        time += seconds(run)
        arrival = time
        time += seconds(timing(link, "To/WaitTime") or "PT0S")
        if index + 1 < len(links):
            time += seconds(timing(links[index + 1], "From/WaitTime") or "PT0S")
        stops.append((text(to, "StopPointRef"), arrival, time, text(to, "Activity")))
    return [(stop, arrival, departure, 1 if activity in ("setDown", "pass") else 0, 1 if activity in ("pickUp", "pass") else 0)
            for stop, arrival, departure, activity in stops]


def days(journey, period):
    first, last = period
    profile = journey.find(NS + "OperatingProfile")
    regular = set()
    added, removed = set(), set()
    if profile is not None:
        regular_days = profile.find(NS + "RegularDayType")
        if regular_days is not None and regular_days.find(NS + "HolidaysOnly") is None:
            for element in regular_days.findall(NS + "DaysOfWeek/*"):
                regular.update(DAY_SETS.get(element.tag[len(NS):], []))
        for kind, into in (("DaysOfOperation", added), ("DaysOfNonOperation", removed)):
            for span in profile.findall(f"{NS}SpecialDaysOperation/{NS}{kind}/{NS}DateRange"):
                start = date(text(span, "StartDate"))
                end = date(text(span, "EndDate")) if text(span, "EndDate") else last
                day = start
                while day <= end:
                    into.add(day)
                    day += datetime.timedelta(days=1)
            for holiday in profile.findall(f"{NS}BankHolidayOperation/{NS}{kind}/*"):
                for month_day in HOLIDAYS.get(holiday.tag[len(NS):], []):
                    for year in range(first.year, last.year + 1):
                        into.add(datetime.date.fromisoformat(f"{year:04d}-{month_day}"))
    result = set()
    day = first
    while day <= last:
        if (WEEKDAYS[day.weekday()] in regular or day in added) and day not in removed:
            result.add(day)
        day += datetime.timedelta(days=1)
    return result


def main(arguments):
    command, folder = arguments[0], arguments[1]
    journeys = read(folder)
    if command == "trip-stops":
        for journey in sorted(journeys, key=lambda j: j.trip_id):
            for sequence, (stop, arrival, departure, pickup, drop_off) in enumerate(journey.stops, start=1):
                print(f"{journey.trip_id}\t{sequence}\t{stop}\t{arrival}\t{departure}\t{pickup}\t{drop_off}")
    elif command == "trips-on":
        day = date(arguments[2])
        for trip_id in sorted(j.trip_id for j in journeys if day in j.days):
            print(trip_id)
    elif command == "departures":
        stop_id, day, start, end = arguments[2], date(arguments[3]), int(arguments[4]), int(arguments[5])
        rows = []
        for journey in journeys:
            for k in range(-3, 2):
                service_day = day + datetime.timedelta(days=k)
                if service_day not in journey.days:
                    continue
                for sequence, (stop, _, departure, pickup, _) in enumerate(journey.stops, start=1):
                    at = departure + k * 86400
                    if stop == stop_id and pickup != 1 and sequence < len(journey.stops) and start <= at <= end:
                        rows.append((at, journey.trip_id, sequence, service_day.isoformat()))
        for row in sorted(rows):
            print("\t".join(str(value) for value in row))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main(sys.argv[1:])
