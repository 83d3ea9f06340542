#!/usr/bin/env bash
# Regenerates the sample app's schema code from Schema/transit.yaml, or with --check fails when
# the committed file differs from what seedgen generates now (run by `make test`).
#   scripts/app-schema.sh            # rewrite examples/App/Sources/App/TransitSchema.swift
#   scripts/app-schema.sh --check    # compare only
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDGEN=${SEEDGEN:-.build/debug/seedgen}
TARGET=examples/App/Sources/App/TransitSchema.swift

if [ "${1:-}" = "--check" ]; then
  generated=$(mktemp)
  trap 'rm -f "$generated"' EXIT
  "$SEEDGEN" schema swift Schema/transit.yaml --grdb --out "$generated"
  if ! cmp -s "$generated" "$TARGET"; then
    echo "$TARGET is stale: regenerate it with scripts/app-schema.sh" >&2
    diff -u "$TARGET" "$generated" | head -40 >&2 || true
    exit 1
  fi
  echo "ok   $TARGET matches Schema/transit.yaml"
else
  "$SEEDGEN" schema swift Schema/transit.yaml --grdb --out "$TARGET"
  echo "wrote $TARGET"
fi
