#!/usr/bin/env python3
"""Write an OSM XML file of a chosen size from a real extract, repeated with shifted ids.

    scripts/generate_osm.py --out bench/work/osm-x3.osm [--copies 3] [--source FILE.osm]
    scripts/generate_osm.py --out bench/work/osm-x153.osm.pbf --copies 153   (needs osmium)

The source (default: the Liechtenstein extract of 2013-08-03, 13 MB, 130k nodes, ways and
relations with their tags and members) is written --copies times, kind by kind, as OSM
files are sorted: every copy's nodes, then every copy's ways, then every copy's relations.
Copy k adds k times the largest id of each kind to that kind's ids and to the references
to it (<nd ref>, <member type="node|way|relation" ref>), so ids still ascend per kind and
every reference names the same object of its own copy. Three copies are about 41 MB and
525k rows: the size of the Monaco extract issue 11 measures. The output is byte-identical
for a given source and count. An --out ending in `.pbf` is written as OSM PBF: the XML is piped
through `osmium cat` (never stored), so a 10-million-node input needs no 2 GB of XML on disk.
"""

import argparse
import os
import re
import subprocess
import sys

# ../shared/data beside the repository (a folder or a link), as the tests find it.
DEFAULT_SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                              "shared", "data", "osm-liechtenstein-2013", "liechtenstein-2013-08-03.osm")
KINDS = ("node", "way", "relation")
OPENING = re.compile(rb'^\s*<(node|way|relation)\b')
ID = re.compile(rb'(<(node|way|relation) id=")(\d+)(")')
ND_REF = re.compile(rb'(<nd ref=")(\d+)(")')
MEMBER_REF = re.compile(rb'(<member type="(node|way|relation)" ref=")(\d+)(")')


def split_sections(lines):
    """(header, {kind: lines}, footer): the lines before the first object, each kind's lines
    (an object's children stay with it), and the lines after the last object."""
    header, footer = [], []
    sections = {kind: [] for kind in KINDS}
    current = None
    for line in lines:
        match = OPENING.match(line)
        if match:
            kind = match.group(1).decode()
            if current is not None and KINDS.index(kind) < KINDS.index(current):
                sys.exit(f"generate_osm: the source is not sorted by kind ({kind} after {current})")
            current = kind
        if current is None:
            header.append(line)
        elif line.strip() == b"</osm>":
            footer.append(line)
        else:
            sections[current].append(line)
    return header, sections, footer


def largest_ids(sections):
    return {kind: max((int(m.group(3)) for line in sections[kind] if (m := ID.search(line))), default=0)
            for kind in KINDS}


def shifted(line, offsets):
    """`line` with its object id and references moved by `offsets` (per kind)."""
    line = ID.sub(lambda m: m.group(1) + str(int(m.group(3)) + offsets[m.group(2).decode()]).encode() + m.group(4), line)
    line = ND_REF.sub(lambda m: m.group(1) + str(int(m.group(2)) + offsets["node"]).encode() + m.group(3), line)
    return MEMBER_REF.sub(lambda m: m.group(1) + str(int(m.group(3)) + offsets[m.group(2).decode()]).encode() + m.group(4), line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the .osm file to write")
    parser.add_argument("--copies", type=int, default=3, help="how many times the source is repeated (default 3)")
    parser.add_argument("--source", default=DEFAULT_SOURCE, help="a sorted OSM XML file (default: the Liechtenstein extract)")
    args = parser.parse_args()
    if args.copies < 1:
        parser.error("--copies must be at least 1")
    with open(args.source, "rb") as f:
        header, sections, footer = split_sections(f.read().splitlines(keepends=True))
    largest = largest_ids(sections)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    temporary = args.out + ".part"
    pbf = args.out.lower().endswith(".pbf")
    osmium = subprocess.Popen(["osmium", "cat", "-F", "osm", "-", "-f", "pbf", "-o", temporary, "--overwrite"],
                              stdin=subprocess.PIPE) if pbf else None
    with (osmium.stdin if osmium else open(temporary, "wb")) as out:
        out.writelines(header)
        for kind in KINDS:
            for copy in range(args.copies):
                offsets = {k: copy * largest[k] for k in KINDS}
                out.writelines(sections[kind] if copy == 0 else (shifted(line, offsets) for line in sections[kind]))
        out.writelines(footer)
    if osmium and osmium.wait() != 0:
        sys.exit(f"generate_osm: osmium cat failed (exit {osmium.returncode})")
    os.replace(temporary, args.out)
    size = os.path.getsize(args.out)
    counts = {kind: sum(1 for line in sections[kind] if OPENING.match(line)) * args.copies for kind in KINDS}
    print(f"{args.out}: {args.copies} copies of {os.path.basename(args.source)}, {size / 1048576:.1f} MB; "
          + ", ".join(f"{counts[kind]} {kind}s, ids up to {largest[kind] * args.copies}" for kind in KINDS))


if __name__ == "__main__":
    main()
