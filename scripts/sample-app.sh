#!/usr/bin/env bash
# Builds and runs the sample app (examples/App) as `make test` does: the proof that the public
# SeedInstaller API and the generated schema code (with GRDB) work in a real package.
#   1. checks examples/App/Sources/App/TransitSchema.swift is what seedgen generates now;
#   2. builds the seed from examples/cairns with the just-built seedgen into the app's
#      resources (seed.sqlite.gz + manifest; never committed);
#   3. builds the app and runs it twice against a fresh data folder: it must install, then
#      find the seed up to date, and read it through GRDB both times.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SEEDGEN=${SEEDGEN:-.build/debug/seedgen}
RESOURCES=examples/App/Sources/App/Resources

scripts/app-schema.sh --check

mkdir -p "$RESOURCES"
"$SEEDGEN" build examples/cairns --schema Schema/transit.yaml --out "$RESOURCES/seed.sqlite" --gzip --quiet
rm -f "$RESOURCES/seed.sqlite"

(cd examples/App && "$SWIFT" build)
app=$(cd examples/App && "$SWIFT" build --show-bin-path)/App

data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
first=$(SEEDGEN_SEED_DEST="$data/seed.sqlite" "$app")
second=$(SEEDGEN_SEED_DEST="$data/seed.sqlite" "$app")
printf '%s\n' "$first" "$second"
expect() { grep -q "$2" <<<"$1" || { echo "sample app: expected '$2' in its output" >&2; exit 1; }; }
expect "$first" "^installed seed-version="
expect "$second" "^up-to-date seed-version="
for run in "$first" "$second"; do
  expect "$run" "departures, first at"
  expect "$run" "stops match '"
  expect "$run" "favourites: "
  expect "$run" "the attached seed is read-only"
done
echo "ok   sample app: installed, then up to date, read through GRDB"
