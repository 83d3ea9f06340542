#!/usr/bin/env python3
"""A second opinion on a region seed of the ten gtfs-world feeds: gtfs-kit (PyPI) reads each
feed and lists the trips and stop times of three dates (first, middle, last of its calendar);
the region seed answers the same with the guide's services-on-a-date in its one-feed form.
Not run by make test (gtfs-kit pulls pandas): python3 -m venv V && V/bin/pip install gtfs-kit pyyaml &&
V/bin/python scripts/gtfskit_region_check.py REGION.sqlite (built with --feed NAME=gtfs-world/NAME/feed, --lenient)."""
import os, re, sqlite3, sys, warnings
import yaml
warnings.filterwarnings("ignore")
import gtfs_kit as gk
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
W = os.path.join(os.path.dirname(ROOT), "shared", "data", "gtfs-world")
y = yaml.safe_load(open(os.path.join(ROOT, "Schema", "transit.yaml")))
q = {x['name']: x['sql'] for x in y['queries']}
db = sqlite3.connect(sys.argv[1])
scoped = [n for (n,) in db.execute("select m.name from sqlite_schema m, pragma_table_info(m.name) p where m.type='table' and p.name='feed_ref'")]
def one_feed(sql):
    """The query's one-feed form, as Documentation/querying.md writes it."""
    names = sorted(t for t in scoped if re.search(r'\b%s\b' % t, sql))
    return "WITH " + ",\n".join(f'"{t}" AS NOT MATERIALIZED (SELECT * FROM main."{t}" WHERE feed_ref = :feed)' for t in names) + f"\nSELECT * FROM (\n{sql}\n)"
total = bad = 0
for fid, name in db.execute("select id, name from feeds order by id").fetchall():
    try:
        feed = gk.read_feed(f"{W}/{name}/feed", dist_units="km")
        dates = feed.get_dates()
    except Exception as e:
        print(f"{name}: gtfs-kit cannot read it: {type(e).__name__}: {str(e)[:100]}"); continue
    if not dates: print(f"{name}: gtfs-kit finds no dates"); continue
    picks = sorted(set([dates[0], dates[len(dates)//2], dates[-1]]))
    for d in picks:
        iso = f"{d[:4]}-{d[4:6]}-{d[6:]}"
        kit = set(gk.get_trips(feed, d)["trip_id"]) if feed.trips is not None else set()
        services = [s for (s,) in db.execute(one_feed(q['services-on-a-date']), dict(date=iso, feed=fid))]
        ours = set(t for (t,) in db.execute(f"select trip_id from trips where feed_ref=? and service_id in ({','.join('?'*len(services))})", [fid, *services])) if services else set()
        st_kit = gk.get_stop_times(feed, d)
        n_kit = len(st_kit)
        n_ours = db.execute(f"select count(*) from stop_times st join trips t on t.id = st.trip_ref where t.feed_ref=? and t.service_id in ({','.join('?'*len(services))})", [fid, *services]).fetchone()[0] if services else 0
        total += 1
        ok = kit == ours and n_kit == n_ours
        bad += not ok
        print(f"{name} {iso}: trips gtfs-kit {len(kit)}, region seed {len(ours)}; stop times {n_kit} vs {n_ours} {'EQUAL' if ok else 'DIFFER'}")
print(f"{total} feed-dates compared, {bad} differ")
