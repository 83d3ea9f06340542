#!/usr/bin/env python3
"""Compares seedgen's notices with gtfs-guru's (an independent implementation of MobilityData's
GTFS validator rules, `pip install gtfs-guru`, its Python API) on the shared feeds and the fixtures.

Run it with a Python that has gtfs-guru, after a build of seedgen:

    python3 -m venv /tmp/guru && /tmp/guru/bin/pip install gtfs-guru
    swift build -c release --product seedgen
    /tmp/guru/bin/python scripts/compare-gtfs-guru.py --today 2026-11-28 [--seedgen PATH] [FEED ...]

For each feed, each notice code either reports, with its severity on each side: codes both
report ("both"), codes only gtfs-guru reports ("guru only") and codes only seedgen reports
("seedgen only"), each with the reason when it is a known difference (the GTFS guide's table,
Documentation/gtfs.md). Not part of `make test`: it needs gtfs-guru and takes a minute.
Exit status 1 when gtfs-guru raises an ERROR code that seedgen does not report at all and that
is not a listed difference.
"""

import argparse
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data")

# Known differences, by code: why one side reports it and the other not, or at another severity.
KNOWN = {
    "invalid_row_length": "seedgen: a row short of trailing empty fields is read as Python's csv reads it "
    "(a warning; --strict: error)",
    "empty_file": "seedgen: a 0-byte optional file is read as absent (a warning)",
    "missing_required_column": "seedgen: optional files of an older form (GTFS-JP translations.txt, "
    "rider_categories.txt without its newer columns) keep their columns as extras (no notice)",
    "missing_required_field": "seedgen: rider_categories.is_default_fare_category is optional in the transit "
    "schema (stored NULL when empty, no notice)",
    "missing_required_agency_id": "seedgen: a warning (--strict: error): consumers take the feed's agency",
    "invalid_url": "seedgen: a warning (--strict: error): the link is not followed, nothing else changes",
    "decreasing_or_equal_stop_time_distance": "seedgen: a warning (--strict: error): distances are "
    "only read to place vehicles along shapes",
    "stop_time_with_arrival_before_previous_departure_time": "seedgen: a warning (--strict: error), in "
    "stop_sequence order after duplicate rows are left out; gtfs-guru compares rows in file order",
    "stop_time_with_only_arrival_or_departure_time": "seedgen: a warning (--strict: error)",
    "missing_trip_edge": "seedgen: a warning (--strict: error)",
    "missing_calendar_and_calendar_date_files": "seedgen: a warning (--strict: error)",
    "invalid_timezone": "seedgen: a warning (--strict: error)",
    "invalid_character": "seedgen: a warning (--strict: error): invalid UTF-8 is repaired",
    "number_out_of_range": "seedgen: a warning (--strict: error)",
    "wrong_parent_location_type": "seedgen: a warning (--strict: error): only the station hierarchy is off",
    "station_with_parent_station": "seedgen: a warning (--strict: error)",
    "location_without_parent_station": "seedgen: a warning (--strict: error)",
    "translation_foreign_key_violation": "seedgen: a warning (--strict: error): a translation of nothing is never shown",
    "route_networks_specified_in_more_than_one_file": "seedgen: a warning (--strict: error), when routes.network_id "
    "has values",
    "route_both_short_and_long_name_missing": "seedgen: a warning (--strict: error)",
    "missing_stop_name": "seedgen: a warning (--strict: error)",
    "stop_without_location": "seedgen: a warning (--strict: error)",
    "invalid_color": "seedgen: a warning (--strict: error)",
    "unknown_column": "INFO in gtfs-guru; a warning in seedgen (the column goes to extras)",
    "unknown_file": "INFO in gtfs-guru; a warning in seedgen",
    "repaired_csv_syntax": "seedgen only: CSV Python's csv module reads, read the same way",
    "same_stop_and_agency_url": "seedgen: once per stop (gtfs-guru: per stop and agency)",
    "same_stop_and_route_url": "seedgen: once per stop (gtfs-guru: per stop and route)",
    "unused_agency": "gtfs-guru's own notice (not the canonical validator's): not reported",
    "unused_route": "gtfs-guru's own notice (not the canonical validator's): not reported",
    "unused_stop": "gtfs-guru's own notice (not the canonical validator's): stop_without_stop_time says it",
    "missing_prior_day_booking_field_value": "deprecated in the validator (7.0.0): missing_prior_notice_last_day "
    "and missing_prior_notice_last_time say it",
    "empty_row": "seedgen: each line of only spaces (in a file of two columns or more) is left out with it; the "
    "validator reports only a last line without a line end (its reader skips the others); gtfs-guru reads such a "
    "line as a row of empty fields (then missing_stop_name, stop_without_location, ...)",
    "unexpected_enum_value": "seedgen: calendar.txt's days are booleans, a 2 there is invalid_integer (an error)",
    "trip_coverage_not_active_for_next7_days": "seedgen: the window is the trips' first to last day; "
    "gtfs-guru's is the days of most trips",
    "missing_recommended_field": "seedgen also reports an empty value in a column the header has (feed_info's "
    "dates and version); gtfs-guru only a column the header lacks",
    "mixed_case_recommended_field": "heuristics differ: gtfs-guru also flags names in scripts without case "
    "that hold a digit (a Japanese stop name with a block number) and names with apostrophes; counts may differ",
    "stop_too_far_from_shape": "both: once per (shape, stop); distances on an equirectangular projection "
    "(gtfs-guru takes the segment nearest in degrees), so a stop within a metre of the limit may differ",
    "stop_too_far_from_shape_using_user_distance": "seedgen: where the stop time and the shape give distances, "
    "beside stop_too_far_from_shape by geometry for every trip (gtfs-guru: one or the other); a pattern of stops "
    "as its first trip gives the distances",
    "stops_match_shape_out_of_order": "seedgen: for every pattern of stops, any segment within the distance "
    "(gtfs-guru: by geometry only, the nearest local minima)",
    "transfer_distance_above_2_km": "INFO in gtfs-guru; a warning in seedgen",
    "invalid_phone_number": "seedgen: a warning (--strict: error), always, by a rule that needs no country "
    "(digits, spaces and + - ( ) . only, two digits or more); gtfs-guru only when given a country",
    "duplicate_fare_rule_zone_id_fields": "seedgen: a warning (--strict: error); gtfs-guru 1.0.0 does not "
    "implement it",
    "fast_travel_between_consecutive_stops": "both: each pair of consecutive stop times (seedgen: at the "
    "second's arrival_time)",
    "fast_travel_between_far_stops": "seedgen: once a trip, at the later stop time's arrival_time; not "
    "searched when stop_times did not load whole (udine: duplicate keys)",
    "stop_without_stop_time": "seedgen: not searched when stop_times did not load whole (udine: duplicate keys): "
    "a stop of a row left out would be called unserved",
    "invalid_email": "seedgen: a warning (--strict: error)",
    "invalid_currency": "seedgen: a warning (--strict: error)",
    "point_near_origin": "seedgen: a warning (--strict: error)",
    "point_near_pole": "seedgen: a warning (--strict: error)",
    "overlapping_frequency": "seedgen: a warning (--strict: error)",
    "block_trips_with_overlapping_stop_times": "seedgen: a warning (--strict: error), once a trip (gtfs-guru: a pair)",
    "decreasing_shape_distance": "seedgen: a warning (--strict: error)",
    "equal_shape_distance_diff_coordinates": "seedgen: a warning (--strict: error)",
    "pathway_to_wrong_location_type": "seedgen: a warning (--strict: error)",
    "pathway_to_platform_with_boarding_areas": "seedgen: a warning (--strict: error)",
    "pathway_unreachable_location": "seedgen: a warning (--strict: error)",
    "bidirectional_exit_gate": "seedgen: a warning (--strict: error)",
    "missing_level_id": "seedgen: a warning (--strict: error), for elevators' ends; gtfs-guru 1.0.0 does not raise "
    "it by default",
    "forbidden_real_time_booking_field_value": "seedgen: a warning (--strict: error)",
    "forbidden_same_day_booking_field_value": "seedgen: a warning (--strict: error)",
    "forbidden_prior_day_booking_field_value": "seedgen: a warning (--strict: error)",
    "missing_prior_notice_duration_min": "seedgen: a warning (--strict: error)",
    "missing_prior_notice_last_day": "seedgen: a warning (--strict: error)",
    "missing_prior_notice_last_time": "seedgen: a warning (--strict: error)",
    "invalid_prior_notice_duration_min": "seedgen: a warning (--strict: error)",
    "forbidden_prior_notice_start_day": "seedgen: a warning (--strict: error)",
    "prior_notice_last_day_after_start_day": "seedgen: a warning (--strict: error)",
    "missing_prior_notice_start_time": "seedgen: a warning (--strict: error)",
    "forbidden_prior_notice_start_time": "seedgen: a warning (--strict: error)",
    "fare_transfer_rule_duration_limit_type_without_duration_limit": "seedgen: a warning (--strict: error); "
    "gtfs-guru 1.0.0 did not raise it on the test feed",
    "invalid_currency_amount": "seedgen: a warning (--strict: error), on the input's text, for fare_attributes' "
    "price too (gtfs-guru: fare_products only)",
    "fare_transfer_rule_duration_limit_without_type": "seedgen: a warning (--strict: error)",
    "fare_transfer_rule_invalid_transfer_count": "seedgen: a warning (--strict: error)",
    "fare_transfer_rule_with_forbidden_transfer_count": "seedgen: a warning (--strict: error)",
    "fare_transfer_rule_without_transfer_count": "seedgen: a warning (--strict: error)",
    "timeframe_only_start_or_end_time_specified": "seedgen: a warning (--strict: error)",
    "timeframe_start_or_end_time_greater_than_twenty_four_hours": "seedgen: a warning (--strict: error)",
    "timeframe_overlap": "seedgen: a warning (--strict: error), at the later timeframe",
    "fare_product_with_multiple_default_rider_categories": "seedgen: a warning (--strict: error), at each default "
    "category's row of the product; gtfs-guru 1.0.0 did not raise it on the test feed",
    "start_and_end_range_out_of_order": "seedgen: a warning (--strict: error)",
    "start_and_end_range_equal": "seedgen: a warning (--strict: error)",
    "inconsistent_agency_timezone": "seedgen: a warning (--strict: error)",
    "transfer_with_invalid_stop_location_type": "seedgen: a warning (--strict: error)",
    "transfer_with_invalid_trip_and_route": "seedgen: a warning (--strict: error)",
    "transfer_with_invalid_trip_and_stop": "seedgen: a warning (--strict: error)",
    "stop_access_specified_for_incorrect_location": "seedgen: a warning (--strict: error)",
    "stop_access_specified_for_stop_with_no_parent_station": "seedgen: a warning (--strict: error)",
    "location_with_unexpected_stop_time": "seedgen: a warning (--strict: error), once a location",
    "forbidden_shape_dist_traveled": "seedgen: a warning (--strict: error)",
    "forbidden_arrival_or_departure_time": "seedgen: a warning (--strict: error)",
    "missing_pickup_or_drop_off_window": "seedgen: a warning (--strict: error)",
    "invalid_pickup_drop_off_window": "seedgen: a warning (--strict: error)",
    "forbidden_pickup_type": "seedgen: a warning (--strict: error)",
    "forbidden_drop_off_type": "seedgen: a warning (--strict: error)",
    "trip_distance_exceeds_shape_distance": "seedgen: a warning (--strict: error)",
    "forbidden_continuous_pickup_drop_off": "seedgen: a warning (--strict: error), once a stop time",
    "missing_stop_times_record": "seedgen: a warning (--strict: error)",
    "forbidden_geography_id": "seedgen: a warning (--strict: error)",
    "duplicate_geography_id": "seedgen: a warning (--strict: error), once an id, at stops.txt (or location_groups.txt)",
    "pathway_to_stop_with_access_outside_of_station_pathways": "seedgen: a warning (--strict: error)",
    "translation_unexpected_value": "seedgen: a warning (--strict: error)",
    "invalid_input_files_in_subfolder": "seedgen: a warning (--strict: error); the files are read",
    "new_line_in_value": "seedgen: a warning (--strict: error); the value keeps its line break",
    "unsupported_geometry_type": "seedgen: a warning (--strict: error)",
    "unsupported_feature_type": "seedgen: a warning (--strict: error); the feature is read",
    "stop_time_timepoint_without_times": "seedgen: a warning (--strict: error), once a row (gtfs-guru: each time)",
    "invalid_language_code": "seedgen: a warning (--strict: error); gtfs-guru 1.0.0 does not raise it by default",
    "missing_timepoint_value": "seedgen report (no header in a seed): when a row gives a timepoint",
    "non_ascii_or_non_printable_char": "seedgen: once per value and file, ids of trips and shapes where defined "
    "only; gtfs-guru: every row",
    "invalid_geometry": "seedgen: a warning (--strict: error); rings' structure only (closed, 4 positions, "
    "numbers), not self-intersection",
    "stop_has_too_many_matches_for_shape": "seedgen: once per (shape, stop), whatever the distances; "
    "gtfs-guru: each trip matched by geometry",
    "headway_too_large": "gtfs-guru only (a Google rule, not the canonical validator's): not checked",
    "service_never_active": "gtfs-guru only (not the canonical validator's): not checked; "
    "service_has_no_active_day_of_the_week is",
    "too_many_days_without_service": "gtfs-guru only (Google's rule, not the canonical validator's): not checked",
    **{
        code: "gtfs-guru only (Google's rules and forks' additions, not the canonical validator's): not checked"
        for code in ("agency_phone_invalid", "duplicate_trip", "google_transfer_type_check",
                     "stop_headsign_invalid_char", "google_ic_price_check")
    },
    "missing_recommended_column": "gtfs-guru only (deprecated in the canonical validator): "
    "seedgen reports missing_recommended_field, missing_timepoint_value",
}


def feeds():
    found = [os.path.join(ROOT, "Tests/Fixtures/gtfs", name) for name in ("dst-berlin", "sample-feed")]
    found.append(os.path.join(DATA, "gtfs-cairns-2014/feed"))
    found += sorted(glob.glob(os.path.join(DATA, "gtfs-world/*/feed")))
    found += sorted(glob.glob(os.path.join(DATA, "gtfs-daily-renfe-ld/*.zip")))[:1]
    return found


def seedgen_codes(seedgen, feed, today):
    with tempfile.TemporaryDirectory() as folder:
        notices = os.path.join(folder, "notices.json")
        command = [seedgen, "build", feed, "--out", os.path.join(folder, "seed.sqlite"), "--notices", notices,
                   "--today", today, "--quiet"]
        run = subprocess.run(command, capture_output=True, text=True)
        if not os.path.exists(notices):
            raise SystemExit(f"seedgen wrote no notices for {feed}: {run.stderr}")
        report = json.load(open(notices))
    codes = collections.defaultdict(collections.Counter)
    for notice in report["notices"]:
        codes[notice["code"]][notice["severity"]] += 1
    return report["built"], codes


def guru_codes(feed, today):
    import gtfs_guru

    result = gtfs_guru.validate(feed, date=today)
    codes = collections.defaultdict(collections.Counter)
    for notice in result.notices:
        codes[notice.code][notice.severity] += 1
    return codes


def shown(counter):
    return "/".join(f"{severity} {count}" for severity, count in sorted(counter.items()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seedgen", default=os.path.join(ROOT, ".build/release/seedgen"))
    parser.add_argument("--today", required=True)
    parser.add_argument("--json", help="also write the comparison here")
    parser.add_argument("feeds", nargs="*")
    args = parser.parse_args()
    unexplained = 0
    summary = []
    totals = collections.Counter()
    for feed in args.feeds or feeds():
        built, ours = seedgen_codes(args.seedgen, feed, args.today)
        theirs = guru_codes(feed, args.today)
        name = os.path.relpath(feed, os.path.dirname(ROOT)) if feed.startswith(DATA) else os.path.relpath(feed, ROOT)
        guru_errors = any("ERROR" in c for c in theirs.values())
        print(f"== {name}: seedgen {'builds' if built else 'fails'}; gtfs-guru {'ERROR' if guru_errors else 'no ERROR'}")
        if built is False and not guru_errors:
            print("   !! a feed gtfs-guru finds no ERROR in does not build")
            unexplained += 1
        rows = []
        for code in sorted(set(ours) | set(theirs)):
            theirs_reported = {s: n for s, n in theirs[code].items() if s != "INFO"} if code in theirs else {}
            if code in theirs and not theirs_reported and code not in ours:
                continue  # INFO only, not ours
            if code in ours and code in theirs:
                side = "both"
            elif code in theirs:
                side = "guru only"
            else:
                side = "seedgen only"
            totals[side] += 1
            reason = KNOWN.get(code, "")
            if side == "guru only" and "ERROR" in theirs[code] and not reason:
                reason = "!! unexplained"
                unexplained += 1
            rows.append({"code": code, "side": side, "seedgen": dict(ours.get(code, {})),
                         "guru": dict(theirs.get(code, {})), "reason": reason})
            print(f"   {side:13} {code:55} seedgen {shown(ours.get(code, {})) or '-':16} "
                  f"guru {shown(theirs.get(code, {})) or '-':16} {reason}")
        summary.append({"feed": name, "built": built, "guruErrors": guru_errors, "codes": rows})
    print(f"codes (feed by feed): both {totals['both']}, gtfs-guru only {totals['guru only']}, "
          f"seedgen only {totals['seedgen only']}; unexplained {unexplained}")
    if args.json:
        json.dump(summary, open(args.json, "w"), indent=1)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
