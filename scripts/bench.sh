#!/usr/bin/env bash
# Benchmark seedgen against the sqlite3 shell on generated GTFS and TopSongs data.
#   scripts/bench.sh [--sizes 300k,3M,6M,30M] [--xml-entries N] [--reps N] [--tools sqlite3,seedgen]
# Sizes also come from $BENCH_SIZES (default 3M). See bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/bench.py "$@"
