#!/usr/bin/env python3
"""The machine-readable record of `make bench` runs, and the guard against regressions.

Every run `scripts/bench.py` records is one JSON file in bench/runs/ (beside the prose of
bench/results.md): what was measured (each tool's wall and CPU seconds, peak RSS, and for a
seedgen build its stages from `seedgen build --timings`), and the run's figures (`metrics`):
each a ratio against a reference tool measured in the same run, a peak memory or a time, the
lower the better. `compare` holds a run's figures against the last earlier run on the same
kind of machine (cores and CPU model) that measured each, and reports every figure that grew
by more than 10 % as a REGRESSION, with the stages of the build involved when both runs have
them: where the time went.

    python3 scripts/bench_record.py compare [--check] [RUN.json]   # default: the newest run

Exit status of `compare --check`: 1 when there is a regression.
"""

import argparse
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = os.path.join(ROOT, "bench", "runs")
FORMAT = 1
# A figure regresses when it grows by more than this fraction over the last recorded run's.
THRESHOLD = 0.10
# GNU time gives wall and CPU times in steps of 10 ms: a ratio of times under 0.2 s moves by
# more than the threshold from one step alone (0.03 against 0.04 s of CPU is 25 %), so it is
# not a figure (its line in the results still says it).
MIN_TIMED_S = 0.2

# The sides compared in one run: (ours, reference) tool names, as bench.py names the
# measurements. Each input measured by both gives its wall and CPU ratios.
PAIRS = [
    ("seedgen", "sqlite3 shell"),
    ("seedgen", "xmllint --stream"),
    ("seedgen", "osmium cat"),
    ("seedgen install (median)", "gunzip -c | sync (median)"),
    ("install delta (median)", "install full .gz (median)"),
    ("seedgen (region)", "seedgen (10 builds)"),
    ("seedgen", "json.load"),  # the geojson job: a 256 MB locations.geojson beside Python's json.load
]
# The first up-to-date check in a fresh process (seedprobe, median of 100 processes), alone in
# its folder and beside 20,000 other files, in µs: the installer as the process's first Swift
# code (cold), and after what any app has done before (`seedprobe --warm-runtime`).
UP_TO_DATE = "up-to-date first call: median"
UP_TO_DATE_CROWD = "up-to-date first call beside 20,000 files: median"
UP_TO_DATE_WARM = "up-to-date first call, runtime warmed: median"
UP_TO_DATE_WARM_CROWD = "up-to-date first call beside 20,000 files, runtime warmed: median"
# Our tools whose peak memory is a figure of its own.
OURS = {ours for ours, _ in PAIRS} | {"seedgen (region x4)"}


def machine_kind(cores, model):
    """What makes runs comparable: the number of cores and the CPU model (not the kernel)."""
    return f"{cores} cores, {model}"


def measurement_record(m):
    """A bench.py Measurement as JSON."""
    record = {"tool": m.tool, "input": m.input, "wall_s": m.wall, "cpu_s": m.cpu, "peak_rss_mb": round(m.rss_mb, 1),
              "output_mb": None if m.output_mb is None else round(m.output_mb, 2), "work": m.work, "unit": m.unit}
    if len(m.walls) > 1:
        record["walls_s"] = m.walls
    if m.stages:
        record["stages"] = m.stages
    return record


def derived_metrics(measurements):
    """The figures every run gives from its measurements alone (list of measurement records):
    for each input, our side's wall and CPU over the reference's, our peak RSS, and at the
    GTFS sizes the seed's size over the shell database's."""
    by_input = {}
    for m in measurements:
        by_input.setdefault(m["input"], {})[m["tool"]] = m
    metrics = {}
    for label, tools in by_input.items():
        for ours, reference in PAIRS:
            a, b = tools.get(ours), tools.get(reference)
            if a and b:
                for kind, key in (("wall", "wall_s"), ("CPU", "cpu_s")):
                    if min(a[key], b[key]) >= MIN_TIMED_S:
                        metrics[f"{label}: {ours} / {reference} {kind}"] = {"value": round(a[key] / b[key], 3), "unit": "x"}
                if reference == "sqlite3 shell" and a.get("output_mb") and b.get("output_mb"):
                    metrics[f"{label}: seed size / shell db"] = {"value": round(a["output_mb"] / b["output_mb"], 3), "unit": "x"}
        for ours in OURS & set(tools):
            metrics[f"{label}: {ours} peak RSS"] = {"value": tools[ours]["peak_rss_mb"], "unit": "MB"}
    return metrics


def run_file_name(run):
    """bench/runs/<UTC date and time>-<commit>.json: sorted by name, oldest first."""
    stamp = run["started"].replace(":", "").replace("-", "")[:15]  # 20261128T034107
    return f"{stamp}Z-{run['commit']}.json"


def save(run, folder=RUNS):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, run_file_name(run))
    with open(path, "w") as f:
        json.dump(run, f, indent=1, sort_keys=True)
        f.write("\n")
    return path


def load_runs(folder=RUNS):
    """Every recorded run, oldest first (by start time)."""
    runs = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(path) as f:
            run = json.load(f)
        run["_path"] = path
        runs.append(run)
    return sorted(runs, key=lambda r: r["started"])


def stage_line(new, old):
    """The stages of one build against the same build in the earlier run, where both have them."""
    if not new or not new.get("stages"):
        return None
    before = {s["stage"]: s for s in (old or {}).get("stages", [])}
    parts = []
    for s in new["stages"]:
        o = before.get(s["stage"])
        was = f"{o['wall_s']:.2f} -> " if o else ""
        parts.append(f"{s['stage']} {was}{s['wall_s']:.2f} s")
    return "stages (wall): " + ", ".join(parts)


def builds_behind(name, run):
    """The measurements of our side behind a figure (its input's), for their stages."""
    label = name.split(": ", 1)[0]
    return {m["tool"]: m for m in run.get("measurements", []) if m["input"] == label and m.get("stages")}


def figures(run):
    """A run's figures: those it recorded, and those derived from its measurements that it did
    not (a ratio added to PAIRS after it was recorded is compared with the runs before)."""
    return {**derived_metrics(run.get("measurements", [])), **run.get("metrics", {})}


def compare(run, history, threshold=THRESHOLD):
    """Holds each figure of `run` against the last run of `history` (earlier runs, oldest
    first) on the same kind of machine that has it. Returns (regressions, compared): lines
    saying what grew by more than `threshold`, and how many figures had an earlier value."""
    earlier = [(r, figures(r)) for r in history
               if r["machine"]["kind"] == run["machine"]["kind"] and r["started"] < run["started"]]
    lines, compared = [], 0
    for name, figure in sorted(figures(run).items()):
        previous, old_figures = next(((r, f) for r, f in reversed(earlier) if name in f), (None, None))
        if previous is None:
            continue
        compared += 1
        old, new = old_figures[name]["value"], figure["value"]
        if old > 0 and new > old * (1 + threshold):
            unit = figure.get("unit", "")
            lines.append(f"REGRESSION  {name}: {fmt_value(new, unit)}, was {fmt_value(old, unit)} in the run of "
                         f"{previous['started'][:10]} ({previous['commit']}): +{new / old - 1:.0%}")
            old_builds = builds_behind(name, previous)
            for tool, m in builds_behind(name, run).items():
                detail = stage_line(m, old_builds.get(tool))
                if detail:
                    lines.append(f"            {tool}: {detail}")
    return lines, compared


def fmt_value(value, unit):
    return f"{value:.3g}x" if unit == "x" else f"{value:g} {unit}"


def main(argv=None):
    parser = argparse.ArgumentParser(description="Compare a recorded bench run with the earlier ones.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("compare", help="print REGRESSION for each figure that grew by more than 10 %%")
    p.add_argument("run", nargs="?", help="a run's JSON (default: the newest in bench/runs)")
    p.add_argument("--check", action="store_true", help="exit 1 when there is a regression")
    p.add_argument("--runs", default=RUNS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    history = load_runs(args.runs)
    if args.run:
        with open(args.run) as f:
            run = json.load(f)
    elif history:
        run = history[-1]
    else:
        sys.exit(f"bench_record: no run recorded in {args.runs}")
    lines, compared = compare(run, history)
    for line in lines:
        print(line)
    count = sum(1 for line in lines if line.startswith("REGRESSION"))
    print(f"bench: {compared} figure(s) compared with earlier runs on {run['machine']['kind']}: "
          f"{count} regression(s) (more than +{THRESHOLD:.0%})")
    return 1 if args.check and count else 0


if __name__ == "__main__":
    sys.exit(main())
