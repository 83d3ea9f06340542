#!/usr/bin/env bash
# Runs each libFuzzer target (Sources/seedfuzz, FuzzEntry) for FUZZ_SECONDS with
# AddressSanitizer, starting from the committed seed corpus in Tests/Fuzz/TARGET/.
# Usage: scripts/fuzz.sh [TARGET...]   (default: every target)
# Env:   FUZZ_SECONDS (default 600 per target), FUZZ_JOBS (default 1), SWIFT (default swift).
# A crash leaves its input in .build-fuzz/crashes/ and fails the script: add that file to
# Tests/Fuzz/TARGET/ (the corpus replay test keeps it fixed), then fix the reader.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SECONDS_PER_TARGET=${FUZZ_SECONDS:-600}
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(csv zip xml gzip manifest geojson delta index pbf)

# The build's own exit status decides (not the filter's): a failed build must never leave a
# stale binary from an earlier build to fuzz.
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
# SwiftPM passes --sanitize=fuzzer and --sanitize=address to swiftc as two flags, and swiftc keeps
# only the last one: the code would get AddressSanitizer but no coverage counters, and libFuzzer
# would mutate blindly ("no interesting inputs were found"). -sanitize=fuzzer,address, last,
# gives Swift code both; C code gets both from --sanitize.
if ! "$SWIFT" build --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
     --product seedfuzz --scratch-path .build-fuzz >"$build_log" 2>&1; then
  grep -vE "warning: Cannot export local symbol|^\[" "$build_log" >&2 || true
  echo "fuzz build failed" >&2
  exit 1
fi
grep -vE "warning: Cannot export local symbol|^\[" "$build_log" || true
BIN=.build-fuzz/debug/seedfuzz
# AddressSanitizer holds freed memory back in a quarantine to catch a use after free. libFuzzer
# runs millions of inputs in one process, so at the default 256 MB the quarantine alone makes a
# target's memory climb to ~450 MB (it levels off there: nothing else grows from run to run).
# 64 MB still spans thousands of runs' frees. A caller's ASAN_OPTIONS come after, so they win.
export ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

status=0
for target in "${TARGETS[@]}"; do
  work=.build-fuzz/corpus/$target
  mkdir -p "$work" .build-fuzz/crashes
  log=.build-fuzz/$target.log
  # Inputs up to 64 KiB; 20 s per input or 2 GiB of memory is a failure (a hang, a blow-up).
  if SEEDFUZZ_TARGET=$target "$BIN" -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 \
       -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix=.build-fuzz/crashes/"$target"- "$work" "Tests/Fuzz/$target" >"$log" 2>&1; then
    runs=$(awk '/^stat::number_of_executed_units/ {print $2}' "$log")
    peak=$(awk '/^stat::peak_rss_mb/ {print $2}' "$log")
    # The RSS of libFuzzer's status lines a quarter of the way through and at the end: flat
    # once the quarantine is full; a climb between them is memory that grows run after run.
    trend=$(awk -v total="${runs:-0}" '/^#[0-9]+/ {
        n = substr($1, 2) + 0
        for (i = 1; i < NF; i++) if ($i == "rss:") rss = $(i + 1)
        if (quarter == "" && n >= total / 4) { quarter = rss; at = n }
      } END { if (quarter != "") printf "; %s after %d, %s at the end", quarter, at, rss }' "$log")
    # Coverage-guided or nothing: libFuzzer's last status line has the edges covered and the
    # corpus it kept; without coverage counters it has neither and the run proves little.
    coverage=$(awk '/^#[0-9]+/ { for (i = 1; i < NF; i++) { if ($i == "cov:") cov = $(i + 1); if ($i == "corp:") corp = $(i + 1) } }
      END { if (cov != "") printf "%s edges, corpus %s", cov, corp }' "$log")
    if [ -z "$coverage" ] || grep -q "no interesting inputs were found" "$log"; then
      status=1
      echo "fuzz $target: no coverage feedback (is seedfuzz built with -sanitize=fuzzer,address?); see $log" >&2
      continue
    fi
    echo "fuzz $target: ${runs:-?} executions in ${SECONDS_PER_TARGET} s, ${coverage}, peak RSS ${peak:-?} MB${trend}, no crash"
  else
    status=1
    echo "fuzz $target: FAILED; see $log and .build-fuzz/crashes/" >&2
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5 >&2
  fi
done
exit $status
