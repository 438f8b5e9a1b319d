#!/usr/bin/env bash
# The full-table build in the single-tile and the multi-tile metric, side
# by side: `slidedb-gen --size SIZE [--metric multi]`, whole processes on
# every core, in turns (single, multi, single, multi, ...) so that a shared
# machine's noise falls on both; each run's wall time and peak memory
# (/usr/bin/time -v), then the medians and multi/single.
#
#   benches/metrics.sh [SIZE] [ROUNDS]     (default 3x4, 3 rounds)
#
# Uses target/release/slidedb-gen (cargo build --release first). With
# KEEP=DIR the last round's two tables are moved to DIR (to verify them).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-3x4}
rounds=${2:-3}
gen=${SLIDEDB_GEN:-$PWD/target/release/slidedb-gen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # metric round
  local log="$work/$1-$2.log"
  /usr/bin/time -v "$gen" --size "$size" --metric "$1" --out "$work/$1.slidedb" --force --quiet 2> "$log"
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$log")
  echo "$1 round $2: $wall s, $rss MB"
  echo "$wall" >> "$work/$1.times"
}
for r in $(seq 1 "$rounds"); do
  run single "$r"
  run multi "$r"
done
median() { sort -n "$1" | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
s=$(median "$work/single.times")
m=$(median "$work/multi.times")
if [ -n "${KEEP:-}" ]; then mv "$work/single.slidedb" "$work/multi.slidedb" "$KEEP"/; fi
echo "median: single $s s, multi $m s, multi/single $(awk -v m="$m" -v s="$s" 'BEGIN {printf "%.2f", m / s}')"
