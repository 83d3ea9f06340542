#!/usr/bin/env python3
"""Open a `seedgen report` page in headless Chromium and check it (Python standard library only).

    scripts/report-check.py REPORT.html --seed SEED.sqlite [--screenshot OUT.png]
                            [--diff-json DIFF.json] [--chromium chromium]

Checks, each a failure (exit 1) when it does not hold:
  - offline: a Content-Security-Policy meta tag with default-src 'none'; no src/href other than a
    fragment (#...), no attribute naming an http(s) URL or url(), no URL in the style sheet or the
    script, in the file or in the DOM after its script ran (URLs in the data, an agency's, are
    text: counted as urls_in_text); Chromium runs with every host name unresolvable
    (--host-resolver-rules), so a request could not leave, and its network log (--log-net-log)
    must hold no request but the file's own and Chromium's (its google.com/googleapis.com ones);
  - no console message at all (errors, CSP violations), read from Chromium's log;
  - the map: the dots of the `stops` layer are as many as the page says it drew (data-drawn), and
    that is the seed's located stops, or one in data-step of them when the page says it sampled;
  - the calendar: for three dates of each feed (the first, the busiest, the last), the page's
    services and trips equal what the transit schema's `services-on-a-date` gives on the seed;
  - with --diff-json (`seedgen diff --json OLD NEW`): each table's added, removed and changed
    rows on the page equal the diff's.
Prints one JSON line of what was checked. --screenshot writes a PNG of the page's top
(--window-size, default 1200,1800).
"""

import argparse
import html.parser
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Page(html.parser.HTMLParser):
    """The elements the checks read: stop dots, calendar days, diff rows, URLs."""

    def __init__(self):
        super().__init__()
        self.stack = []  # attributes of the open <g> and <div> elements
        self.layers = {}  # table -> {attrs, circles}
        self.days = []  # (feed, attrs)
        self.diff = {}
        self.urls = []
        self.csp = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name in ("src", "href", "action", "xlink:href", "srcset", "poster", "data", "background"):
            if name in a and not (a[name] or "").startswith("#"):
                self.urls.append(f"{tag} {name}={a[name]}")
        for name, value in attrs:
            if value and re.search(r"https?:|^//|url\(", value, re.IGNORECASE) and name != "content":
                self.urls.append(f"{tag} {name}={value}")
        self.in_style = tag in ("style", "script")
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = a.get("content")
        if tag in ("g", "div", "svg"):
            self.stack.append((tag, a))
            if tag == "g" and a.get("class") == "points":
                # A region's page has a map per feed: a layer of each table per map.
                self.layers.setdefault(a["data-table"], []).append({"attrs": a, "circles": 0})
        if tag == "circle":
            layer = next((x for t, x in reversed(self.stack) if t == "g"), None)
            if layer and layer.get("class") == "points":
                self.layers[layer["data-table"]][-1]["circles"] += 1
        if tag == "rect" and "data-date" in a:
            feed = next((x.get("data-feed") for t, x in reversed(self.stack) if "data-feed" in x), "")
            self.days.append((feed, a))
        if tag == "tr" and "data-table" in a:
            self.diff[a["data-table"]] = {k: int(a["data-" + k]) for k in ("added", "removed", "changed")}

    def handle_data(self, data):
        # Data values (an agency's URL) are text; a style sheet or script must not name a URL.
        if getattr(self, "in_style", False) and re.search(r"https?:|url\(|@import|fetch\(|XMLHttpRequest", data):
            self.urls.append(f"a URL in a style sheet or script: {data[:80]}")

    def handle_endtag(self, tag):
        self.in_style = False
        if tag in ("g", "div", "svg") and self.stack:
            self.stack.pop()


# Chromium's own requests (component updates, accounts, dictionaries), in its network log
# whatever the page does; any other URL there is the page's.
BROWSER_HOSTS = ("google.com", "googleapis.com", "gvt1.com", "gstatic.com")


def chromium(binary, args, url, timeout=120):
    """Runs Chromium headless on `url` with every host name unresolvable; returns the finished
    process and the URLs of its network log that are not Chromium's own."""
    with tempfile.TemporaryDirectory() as profile:
        netlog = os.path.join(profile, "netlog.json")
        command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync",
                   "--disable-extensions", f"--log-net-log={netlog}",
                   f"--user-data-dir={os.path.join(profile, 'user')}"] + args + [url]
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        logged = open(netlog, encoding="utf-8", errors="replace").read() if os.path.exists(netlog) else ""
        urls = set(re.findall(r'"url":"([^"]+)"', logged))
        requests = sorted(u for u in urls if not u.startswith(("file:", "data:", "about:", "chrome"))
                          and not re.match(r"https?://([^/]*\.)?(" + "|".join(map(re.escape, BROWSER_HOSTS))
                                           + r")(:\d+)?/", u))
        return run, requests


def services_sql():
    """The SQL of services-on-a-date, as Schema/transit.yaml holds it."""
    text = open(os.path.join(ROOT, "Schema", "transit.yaml"), encoding="utf-8").read()
    block = text.split("- name: services-on-a-date", 1)[1].split("sql: |", 1)[1]
    lines = []
    for line in block.splitlines()[1:]:
        if line.strip() and not line.startswith("      "):
            break
        lines.append(line)
    return "\n".join(lines)


def expected_day(db, sql, feed_id, date):
    scope = "" if feed_id is None else "WHERE feed_ref = :feed"
    query = (f"WITH service_days AS (SELECT * FROM main.service_days {scope}) "
             f"SELECT * FROM ({sql})")
    services = [r[0] for r in db.execute(query, {"date": date, "feed": feed_id})]
    trip_scope = "" if feed_id is None else "AND feed_ref = ?"
    trips = 0
    for service in services:
        arguments = [service] + ([] if feed_id is None else [feed_id])
        trips += db.execute(f"SELECT count(*) FROM trips WHERE service_id = ? {trip_scope}", arguments).fetchone()[0]
    return len(services), trips


def check_calendar(page, db, problems):
    sql = services_sql()
    feeds = {name: fid for fid, name in db.execute("SELECT id, name FROM feeds")} if has_table(db, "feeds") else {}
    checked = 0
    by_feed = {}
    for feed, attrs in page.days:
        by_feed.setdefault(feed, []).append(attrs)
    for feed, days in by_feed.items():
        busiest = max(days, key=lambda a: int(a["data-trips"]))
        for attrs in {d["data-date"]: d for d in (days[0], busiest, days[-1])}.values():
            want = expected_day(db, sql, feeds.get(feed) if feed else None, attrs["data-date"])
            got = (int(attrs["data-services"]), int(attrs["data-trips"]))
            if want != got:
                problems.append(f"calendar {feed or 'seed'} {attrs['data-date']}: page {got}, seed {want}")
            checked += 1
    return checked


def has_table(db, name):
    return db.execute("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [name]).fetchone()[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report")
    parser.add_argument("--seed", required=True)
    parser.add_argument("--screenshot")
    parser.add_argument("--diff-json")
    parser.add_argument("--window-size", default="1200,1800", help="the screenshot's width,height in pixels")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "chromium"))
    options = parser.parse_args()
    problems = []
    source = open(options.report, encoding="utf-8").read()
    facts = {"report": options.report, "bytes": len(source.encode())}
    static = Page()
    static.feed(source)
    problems += [f"a URL in the file: {u}" for u in static.urls]
    url = "file://" + os.path.abspath(options.report)
    run, requests = chromium(options.chromium, ["--dump-dom"], url)
    problems += [f"a request left the page: {u}" for u in requests]
    if run.returncode != 0 or "<html" not in run.stdout:
        problems.append(f"chromium failed ({run.returncode}): {run.stderr[-2000:]}")
    console = [line for line in run.stderr.splitlines() if "CONSOLE" in line or "Refused to" in line]
    problems += [f"console: {line}" for line in console]
    facts["console"] = len(console)
    page = Page()
    page.feed(run.stdout)
    if not page.csp or "default-src 'none'" not in page.csp:
        problems.append(f"no Content-Security-Policy with default-src 'none': {page.csp!r}")
    problems += [f"a URL in the DOM: {u}" for u in page.urls]
    facts["urls_in_text"] = len(re.findall(r"https?://", run.stdout, re.IGNORECASE))
    db = sqlite3.connect(f"file:{os.path.abspath(options.seed)}?mode=ro", uri=True)
    stops = page.layers.get("stops")
    if stops is not None:
        located = db.execute("SELECT count(*) FROM stops WHERE stop_lat IS NOT NULL AND stop_lon IS NOT NULL").fetchone()[0]
        circles = sum(layer["circles"] for layer in stops)
        drawn = sum(int(layer["attrs"]["data-drawn"]) for layer in stops)
        total = sum(int(layer["attrs"]["data-total"]) for layer in stops)
        step = max(int(layer["attrs"]["data-step"]) for layer in stops)
        want = sum((int(x["attrs"]["data-total"]) + int(x["attrs"]["data-step"]) - 1) // int(x["attrs"]["data-step"])
                   for x in stops)
        if not (circles == drawn == want and total == located):
            problems.append(f"stop dots: {circles} drawn, page says {drawn} of {total} (sampling 1 in up to "
                            f"{step}), seed has {located} located stops")
        facts.update(stop_marks=circles, stops=located, step=step, maps=len(stops))
    facts["layers"] = {table: sum(x["circles"] for x in layers) for table, layers in page.layers.items()}
    if page.days:
        facts["calendar_days"] = len(page.days)
        facts["calendar_dates_checked"] = check_calendar(page, db, problems)
    elif has_table(db, "service_days") and db.execute("SELECT count(*) FROM service_days").fetchone()[0]:
        problems.append("the seed has service_days but the page no calendar")
    if options.diff_json:
        diff = json.load(open(options.diff_json))
        for table, changes in diff["tables"].items():
            want = {k: changes[k] for k in ("added", "removed", "changed")}
            if page.diff.get(table) != want:
                problems.append(f"diff {table}: page {page.diff.get(table)}, seedgen diff {want}")
        facts["diff_tables"] = len(diff["tables"])
        facts["changed"] = {t: c for t, c in page.diff.items() if any(c.values())}
    if options.screenshot:
        shot, requests = chromium(options.chromium, [f"--screenshot={os.path.abspath(options.screenshot)}",
                                           f"--window-size={options.window_size}", "--hide-scrollbars"], url)
        problems += [f"a request left the page: {u}" for u in requests]
        if shot.returncode != 0 or not os.path.exists(options.screenshot):
            problems.append(f"no screenshot: {shot.stderr[-2000:]}")
        facts["screenshot"] = options.screenshot
    facts["problems"] = problems
    print(json.dumps(facts, sort_keys=True))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
