#!/usr/bin/env python3
"""Write a GTFS-Flex feed: the bundled Cairns feed plus a generated locations.geojson.

    scripts/generate_geojson.py --megabytes 256 --out bench/work/geojson-256mb [--points 200] [--seed 1]

The feed folder gets the Cairns feed's files (examples/cairns, copied) and a
`locations.geojson` of about --megabytes MB (MB = 1,048,576 bytes): a FeatureCollection of
zones around Cairns, each a Polygon ring of --points points (the last the same as the first),
coordinates with six decimals, an id and a few properties, written as GeoJSON files usually
are (a space after each comma and colon, one feature per line). Byte-identical for a given
size, point count and seed.
"""

import argparse
import math
import os
import random
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAIRNS = os.path.join(ROOT, "examples", "cairns")


def feature(number, rng, points):
    """One zone: a ring of `points` points around a centre near Cairns."""
    lon, lat = 145.5 + rng.random() * 0.5, -17.1 + rng.random() * 0.4
    ring = []
    for k in range(points - 1):
        angle = 2 * math.pi * k / (points - 1)
        radius = 0.002 + rng.random() * 0.01
        ring.append(f"[{round(lon + radius * math.cos(angle), 6)}, {round(lat + radius * math.sin(angle), 6)}]")
    ring.append(ring[0])
    return ('{"type": "Feature", "id": "zone-%d", "properties": {"stop_name": "Zone %d", "stop_desc": "On demand, '
            'book a day ahead", "zone_id": "z%d"}, "geometry": {"type": "Polygon", "coordinates": [[%s]]}}'
            % (number, number, number % 97, ", ".join(ring)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--megabytes", type=float, required=True)
    parser.add_argument("--out", required=True, help="the feed folder to write")
    parser.add_argument("--points", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    for name in sorted(os.listdir(CAIRNS)):
        shutil.copyfile(os.path.join(CAIRNS, name), os.path.join(args.out, name))
    rng = random.Random(args.seed)
    limit = int(args.megabytes * 1024 * 1024)
    path = os.path.join(args.out, "locations.geojson")
    written, features = 0, 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        head = '{"type": "FeatureCollection", "features": [\n'
        out.write(head)
        written += len(head)
        while True:
            text = feature(features + 1, rng, args.points)
            separator = ",\n" if features else ""
            if features and written + len(separator) + len(text) + 3 > limit:
                break
            out.write(separator + text)
            written += len(separator) + len(text)
            features += 1
        out.write("\n]}\n")
    print(f"{features} features of {args.points} points, {os.path.getsize(path):,} bytes")


if __name__ == "__main__":
    main()
