#!/usr/bin/env bash
# Builds and runs the sample app (examples/App) as `make test` does: the proof that the public
# SeedInstaller API and the generated schema code (with GRDB) work in a real package.
#   1. checks examples/App/Sources/App/TransitSchema.swift is what seedgen generates now;
#   2. builds the seed from examples/cairns with the just-built seedgen into the app's
#      resources (seed.sqlite.gz + manifest; never committed);
#   3. builds the app and runs it twice against a fresh data folder: it must install, then
#      find the seed up to date, and read it through GRDB both times; then publishes a newer
#      seed to a signed channel served by `python3 -m http.server` on 127.0.0.1, and runs it
#      once more: it must update from the channel (`import SeedUpdater` alone) and read the
#      new seed.
#   scripts/sample-app.sh              all three steps (`make app`)
#   scripts/sample-app.sh --prepare    steps 1 and 2 only
#   scripts/sample-app.sh --run BIN    step 3 with an app built elsewhere: `make test` builds the
#                                      app's sources in scripts/check-versioned-dependency.sh's
#                                      consumer package, so swift-crypto and GRDB compile once
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SEEDGEN=${SEEDGEN:-.build/debug/seedgen}
RESOURCES=examples/App/Sources/App/Resources

mode=${1:-all}
case "$mode" in
  all|--prepare|--run) ;;
  *) echo "usage: scripts/sample-app.sh [--prepare | --run APP_BINARY]" >&2; exit 2 ;;
esac

if [ "$mode" != --run ]; then
  scripts/app-schema.sh --check
  mkdir -p "$RESOURCES"
  "$SEEDGEN" build examples/cairns --schema Schema/transit.yaml --out "$RESOURCES/seed.sqlite" --gzip --quiet
  rm -f "$RESOURCES/seed.sqlite"
fi
if [ "$mode" = --prepare ]; then exit 0; fi

if [ "$mode" = --run ]; then
  app=${2:?"--run needs the app's binary"}
else
  (cd examples/App && "$SWIFT" build)
  app=$(cd examples/App && "$SWIFT" build --show-bin-path)/App
fi

data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
first=$(SEEDGEN_SEED_DEST="$data/seed.sqlite" "$app")
second=$(SEEDGEN_SEED_DEST="$data/seed.sqlite" "$app")
printf '%s\n' "$first" "$second"
expect() { grep -q "$2" <<<"$1" || { echo "sample app: expected '$2' in its output" >&2; exit 1; }; }
expect "$first" "^Installed seed version [0-9a-f]* (schema version 4) at .*, where there was none\.$"
expect "$second" "^The installed seed version [0-9a-f]* (schema version 4) at .* is up to date\.$"
for run in "$first" "$second"; do
  expect "$run" "departures, first at"
  expect "$run" "stops match '"
  expect "$run" "favourites: "
  expect "$run" "the attached seed is read-only"
done
expect "$first" "departure board at 750118 "
expect "$first" "^  07:5"
expect "$first" "^journey from 750118 to 750053: "

# The board of the generated API against an independent answer (Python's zoneinfo): Cairns on
# an ordinary morning, and a Berlin feed around both changes of the clocks in 2026.
board_check() { # SEED FEED STOP UNIX_TIME ZONE
  got=$("$app" --board "$1" "$3" "$4" 10)
  want=$(python3 scripts/gtfs_reference.py next-departures "$2" "$3" "$4" 10 "$5" | awk -F'\t' '{print $1, $2, $3, $4}')
  if [ "$got" != "$want" ]; then
    echo "sample app: the board at $3 from $4 differs from scripts/gtfs_reference.py" >&2
    diff <(echo "$want") <(echo "$got") >&2 || true
    exit 1
  fi
}
"$SEEDGEN" build examples/cairns --out "$data/cairns.sqlite" --quiet
"$SEEDGEN" build Tests/Fixtures/gtfs/dst-berlin --out "$data/berlin.sqlite" --quiet
board_check "$data/cairns.sqlite" examples/cairns 750118 1401659400 Australia/Brisbane
for instant in 1774733400 1774738800 1774742400 1774760000 1792884600 1792888200 1792891800; do
  board_check "$data/berlin.sqlite" Tests/Fixtures/gtfs/dst-berlin HBF "$instant" Europe/Berlin
done
# A region seed of both feeds: the same boards, each on its own feed's time zone (the generated
# API finds the stop's feed and asks the query's one-feed form).
"$SEEDGEN" build --feed cairns=examples/cairns --feed berlin=Tests/Fixtures/gtfs/dst-berlin --out "$data/region.sqlite" --quiet
board_check "$data/region.sqlite" examples/cairns 750118 1401659400 Australia/Brisbane
for instant in 1774733400 1774760000 1792888200; do
  board_check "$data/region.sqlite" Tests/Fixtures/gtfs/dst-berlin HBF "$instant" Europe/Berlin
done

# A newer seed on a signed channel, served over HTTP on 127.0.0.1.
channel="$data/channel"
"$SEEDGEN" keygen --out "$data/channel.key" > "$data/public.key"
"$SEEDGEN" build examples/cairns --schema Schema/transit.yaml --out "$data/next.sqlite" --seed-version sample-next --quiet
"$SEEDGEN" publish "$data/next.sqlite" --channel "$channel" --sign-key "$data/channel.key" --quiet
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$channel" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/index.json" >/dev/null 2>&1 && break; sleep 0.1; done
third=$(SEEDGEN_SEED_DEST="$data/seed.sqlite" SAMPLE_CHANNEL="http://127.0.0.1:$port/" \
        SAMPLE_CHANNEL_PUBLIC_KEY="$(cat "$data/public.key")" "$app")
printf '%s\n' "$third"
expect "$third" "^update: installed seed-version=sample-next schema-version=4 sequence=1"
expect "$third" "departures, first at"
echo "ok   sample app: installed, then up to date, then updated from a signed channel, read through GRDB; departure boards equal Python's (in a seed of one feed and in a region seed)"
