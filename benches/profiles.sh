#!/usr/bin/env bash
# The hot loops in two build profiles, side by side: the release profile
# as Cargo.toml sets it (one codegen unit, thin LTO) and the `ci`
# profile (16 codegen units, no LTO: half the compile), each built into
# its own target folder, then run in turns in one run so that a shared
# machine's noise falls on both:
#   - the 3x4 table build (slidedb-gen, whole process, both cores);
#   - Korf's 100 15-puzzles through 6-6-3 (examples/korf100, first N);
#   - the 24-puzzle's node rate on Korf and Felner's #38 and #40, one
#     thread (examples/korf50 --threads 1), databases 6-6-6-6.
#
#   benches/profiles.sh [ROUNDS]      (default 3; DATA=DIR keeps databases)
#
# Prints each run's wall time and, a loop, the medians and ci/release.
# The 5x5 databases take about 2 minutes and 1.5 GB to build the first
# time (kept in DATA).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
data=${DATA:-$PWD/target/profiles-data}
mkdir -p "$data"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() { # profile target-dir
  CARGO_TARGET_DIR=$2 cargo build --locked --profile "$1" --bins --example korf100 --example korf50 >&2
}
build release target/profiles-release
build ci target/profiles-ci
rel=target/profiles-release/release
ci=target/profiles-ci/ci

SLIDEDB_DATA=$data "$rel/slidedb-gen" --size 4x4 --pdb 6-6-3 --quiet 2>/dev/null || true
SLIDEDB_DATA=$data "$rel/slidedb-gen" --size 5x5 --pdb 6-6-6-6 --quiet 2>/dev/null || true

seconds() { # command... -> wall seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }' 
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

loops=(build3x4 korf100 korf50)
run() { # loop dir
  case $1 in
    build3x4) seconds "$2/slidedb-gen" --size 3x4 --out "$work/t.slidedb" --force --quiet ;;
    korf100) SLIDEDB_DATA=$data seconds "$2/examples/korf100" 6-6-3 "${KORF100_N:-100}" ;;
    korf50) seconds "$2/examples/korf50" --data "$data" --threads 1 38 40 ;;
  esac
}
printf '%-9s %-8s %5s %9s\n' loop profile round wall_s
for loop in "${loops[@]}"; do
  : >"$work/release"; : >"$work/ci"
  for r in $(seq 1 "$rounds"); do
    for profile in release ci; do
      dir=$rel; [ "$profile" = ci ] && dir=$ci
      s=$(run "$loop" "$dir")
      printf '%-9s %-8s %5s %9.3f\n' "$loop" "$profile" "$r" "$s"
      echo "$s" >>"$work/$profile"
    done
  done
  a=$(median <"$work/release"); b=$(median <"$work/ci")
  printf '%-9s medians: release %.3f s, ci %.3f s, ci/release %.3f\n' "$loop" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
done
