#!/usr/bin/env python3
"""One-off: the runs bench/results.md recorded before bench/runs/ existed, as run records.

    python3 scripts/bench_import_results.py [bench/results.md]

Reads each `## DATE, commit C` section (its machine line, load average, table and the
up-to-date target line) and writes bench/runs/<date>-<commit>.json with `"imported": true`.
What the prose does not give is left out: the stages (no run had them), the inputs' sizes
(a run's work is its throughput times its wall time, to the table's rounding).
"""

import os
import re
import sys

import bench_record

SECTION = re.compile(r"^## (\d{4}-\d\d-\d\d) (\d\d:\d\d) UTC, commit (\S+)$")
MACHINE = re.compile(r"^Machine: (\d+) cores \(nproc \d+\), (.+?), (\d+) GiB RAM, .*Load average at the start: ([\d. ]+)\.$")
UP_TO_DATE = re.compile(r"up-to-date first call < [\d.]+ ms: median (\d+) us \(p90 (\d+) us\), 20,000 files: (\d+) us")


def number(text):
    return None if text.strip() == "-" else float(text.replace(",", ""))


def measurement(cells):
    tool, label, wall, cpu, rss, rate, output = (c.strip().replace("\\|", "|") for c in cells)
    work = unit = None
    if rate != "-":
        value, unit = rate.rsplit(" ", 1)
        work = round(number(value) * number(wall), 1)
    return {"tool": tool, "input": label, "wall_s": number(wall), "cpu_s": number(cpu), "peak_rss_mb": number(rss),
            "output_mb": number(output), "work": work, "unit": unit}


def runs(text):
    found, run = [], None
    for line in text.splitlines():
        if m := SECTION.match(line):
            run = {"format": bench_record.FORMAT, "imported": True, "started": f"{m[1]}T{m[2]}:00Z", "commit": m[3],
                   "measurements": [], "metrics": {}}
            found.append(run)
        elif run is None:
            continue
        elif m := MACHINE.match(line):
            run["machine"] = {"kind": bench_record.machine_kind(int(m[1]), m[2]), "description": line[len("Machine: "):].split(". Load")[0]}
            run["load_average"] = m[4].strip()
        elif line.startswith("| ") and not line.startswith("| tool"):
            run["measurements"].append(measurement(re.split(r"(?<!\\)\|", line)[1:-1]))
        elif m := UP_TO_DATE.search(line):
            run["metrics"][bench_record.UP_TO_DATE] = {"value": int(m[1]), "unit": "us"}
            run["metrics"][bench_record.UP_TO_DATE_CROWD] = {"value": int(m[3]), "unit": "us"}
    for run in found:
        run["metrics"].update(bench_record.derived_metrics(run["measurements"]))
    return found


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(bench_record.ROOT, "bench", "results.md")
    with open(path) as f:
        for run in runs(f.read()):
            print(bench_record.save(run))


if __name__ == "__main__":
    main()
