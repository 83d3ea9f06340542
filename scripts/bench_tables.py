#!/usr/bin/env python3
"""The performance tables of README.md and Documentation/performance.md, generated from the
runs `make bench` recorded (bench/runs/*.json; see scripts/bench_record.py).

    python3 scripts/bench_tables.py           # rewrites the tables in place
    python3 scripts/bench_tables.py --check   # exit 1 when a committed table is not what the runs give

Each row comes from the newest run on the project's machines (MACHINE) that measured all it
shows, and says when it was measured (date and commit): a row no recent run measured shows
its age. A table sits between `<!-- bench-tables: NAME -->` and `<!-- bench-tables: end -->`.
"""

import argparse
import difflib
import os
import re
import sys

import bench_record

# The kind of machine whose runs the tables show: the project's (others are recorded and
# compared among themselves).
MACHINE = "2 cores, AMD EPYC"
DOCUMENTS = {"README.md": ["figures"], "Documentation/performance.md": ["figures", "stages"]}
BLOCK = re.compile(r"(<!-- bench-tables: (\w+) -->\n)(.*?)(<!-- bench-tables: end -->)", re.S)


def find(run, tool, label):
    return next((m for m in run.get("measurements", []) if m["tool"] == tool and m["input"] == label), None)


def inputs(run, tool, pattern):
    """The inputs of `run` measured with `tool` whose label matches `pattern`, smallest first."""
    found = [m for m in run.get("measurements", []) if m["tool"] == tool and re.fullmatch(pattern, m["input"])]
    return sorted(found, key=lambda m: m.get("work") or 0)


def size(mb):
    if mb >= 1000:
        return f"{mb / 1024:.2f} GB"
    return f"{mb:.0f} MB" if mb >= 10 else f"{mb:.2g} MB"


def gtfs_row(label):
    def row(run):
        seed, shell = find(run, "seedgen", label), find(run, "sqlite3 shell", label)
        if not seed or not shell:
            return None
        rows = f" ({seed['work'] / 1e6:.2f} M rows)" if seed.get("work") else ""
        return (f"{label[5:]} stop_times{rows}",
                f"{seed['wall_s']:.1f} s, {seed['cpu_s']:.1f} CPU-s, {seed['peak_rss_mb']:.0f} MB peak RSS, "
                f"{size(seed['output_mb'])} seed",
                f"sqlite3 shell: {shell['wall_s']:.1f} s, {shell['peak_rss_mb']:.0f} MB, {size(shell['output_mb'])} db")
    return row


def topsongs_row(run):
    ours = inputs(run, "seedgen", r"topsongs-\w+")
    refs = [find(run, "xmllint --stream", m["input"]) for m in ours]
    if len(ours) != 2 or None in refs:
        return None
    return ("TopSongs XML, " + " / ".join(size(m["work"]) for m in ours),
            " / ".join(f"{m['wall_s']:.2f}" for m in ours) + " s, "
            + " / ".join(f"{m['peak_rss_mb']:.0f}" for m in ours) + " MB peak RSS",
            "`xmllint --stream --noout`: " + " / ".join(f"{m['wall_s']:.2f}" for m in refs) + " s")


def osm_row(run):
    ours = inputs(run, "seedgen", r"osm-x\d+")
    if not ours:
        return None
    seed = ours[-1]
    osmium, xmllint = find(run, "osmium cat", seed["input"]), find(run, "xmllint --stream", seed["input"])
    if not osmium or not xmllint:
        return None
    return (f"OSM, Liechtenstein x{seed['input'][5:]} ({size(seed['work'])})",
            f"{seed['wall_s']:.2f} s, {seed['cpu_s']:.2f} CPU-s, {seed['peak_rss_mb']:.0f} MB peak RSS",
            f"`osmium cat` to OPL: {osmium['wall_s']:.2f} s; `xmllint --stream`: {xmllint['wall_s']:.2f} s")


def install_row(run):
    ours = inputs(run, "seedgen install (median)", r"gtfs-\w+\.sqlite\.gz")
    if not ours:
        return None
    seed = ours[-1]
    plain = find(run, "gunzip -c | sync (median)", seed["input"])
    if not plain:
        return None
    return (f"install the {seed['input'][5:].split('.')[0]} seed ({size(seed['output_mb'])})",
            f"{seed['wall_s']:.2f} s, {seed['peak_rss_mb']:.0f} MB peak RSS",
            f"`gunzip -c \\| sync`: {plain['wall_s']:.2f} s")


def up_to_date_row(run):
    metrics = run.get("metrics", {})
    alone, crowd = metrics.get(bench_record.UP_TO_DATE), metrics.get(bench_record.UP_TO_DATE_CROWD)
    if not alone or not crowd:
        return None
    ms = lambda figure: f"{figure['value'] / 1000:.2f} ms"
    cold = f"{ms(alone)} (median of 100 processes); {ms(crowd)} beside 20,000 files"
    warm = metrics.get(bench_record.UP_TO_DATE_WARM)
    if warm:
        cold = f"{ms(warm)} after what any app has run first (the Swift runtime's set-up); its first Swift code: " + cold
    return ("the first up-to-date check at app start (a fresh process)", cold, "-")


def delta_row(run):
    ours = inputs(run, "install delta (median)", r"gtfs-\w+-churn[\d.]+")
    if not ours:
        return None
    delta = ours[-1]
    full = find(run, "install full .gz (median)", delta["input"])
    if not full:
        return None
    label, churn = delta["input"][5:].split("-churn")
    return (f"apply a day's delta to the {label} seed ({float(churn):.0%} of the trips replaced)",
            f"{delta['wall_s']:.2f} s, {delta['peak_rss_mb']:.0f} MB peak RSS ({size(delta['output_mb'])} delta)",
            f"install the full `.gz`: {full['wall_s']:.2f} s")


ROWS = [gtfs_row("gtfs-3M"), gtfs_row("gtfs-30M"), topsongs_row, osm_row, install_row, up_to_date_row, delta_row]


def when(run):
    return f"{run['started'][:10]}, `{run['commit']}`"


def figures_table(runs):
    lines = ["| input | seedgen | reference | measured |", "|---|---|---|---|"]
    for row in ROWS:
        for run in reversed(runs):
            cells = row(run)
            if cells:
                lines.append("| " + " | ".join(cells) + f" | {when(run)} |")
                break
    return "\n".join(lines) + "\n"


def stages_table(runs):
    """The stages of the newest 3M build that recorded them (`seedgen build --timings`)."""
    for run in reversed(runs):
        seed = find(run, "seedgen", "gtfs-3M")
        if seed and seed.get("stages"):
            lines = [f"The 3M build of {when(run)} (its fastest run; peak memory at each stage's end):", "",
                     "| stage | wall s | CPU s | peak MB |", "|---|---:|---:|---:|"]
            lines += [f"| {s['stage']}{' (beside ' + s['beside'] + ')' if s.get('beside') else ''} | {s['wall_s']:.2f} | {s['cpu_s']:.2f} | {s['peak_mb']:.1f} |" for s in seed["stages"]]
            lines.append(f"| total | {seed['wall_s']:.2f} | {seed['cpu_s']:.2f} | {seed['peak_rss_mb']:.1f} |")
            return "\n".join(lines) + "\n"
    return "No recorded 3M build has its stages yet (`make bench` records them since `seedgen build --timings`).\n"


TABLES = {"figures": figures_table, "stages": stages_table}


def generated(text, runs):
    """`text` with each bench-tables block replaced by what the runs give."""
    def block(m):
        if m[2] not in TABLES:
            raise SystemExit(f"bench_tables: unknown table {m[2]!r}")
        return m[1] + TABLES[m[2]](runs) + m[4]
    return BLOCK.sub(block, text)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a committed table differs from what the runs give")
    parser.add_argument("--root", default=bench_record.ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    runs = [r for r in bench_record.load_runs(os.path.join(args.root, "bench", "runs")) if r["machine"]["kind"] == MACHINE]
    stale = []
    for name, blocks in DOCUMENTS.items():
        path = os.path.join(args.root, name)
        with open(path) as f:
            text = f.read()
        found = [m[2] for m in BLOCK.finditer(text)]
        if found != blocks:
            print(f"bench_tables: {name} has the tables {found}, expected {blocks}")
            stale.append(name)
            continue
        new = generated(text, runs)
        if new == text:
            continue
        if args.check:
            stale.append(name)
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True), name, name + " (generated)"))
        else:
            with open(path, "w") as f:
                f.write(new)
            print(f"bench_tables: {name} rewritten")
    if args.check and stale:
        print(f"bench_tables: {', '.join(stale)}: not the tables the recorded runs give; run python3 scripts/bench_tables.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
