#!/usr/bin/env bash
# Korf's 100 15-puzzles through the 6-6-3 databases, by the Rust library
# and by the JavaScript package (js/), one after the other in one run, each
# on one thread: total time, nodes, nodes a second, and the ratio.
#
#   benches/js-korf100.sh [FIRST_N]
#
# The databases come from a folder of their own (built there by
# slidedb-gen once: seconds); `SLIDEDB_BENCH_DATA` names one to keep.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
n=${1:-100}
data=${SLIDEDB_BENCH_DATA:-$(mktemp -d)}
cargo build --release --bins --example korf100 >&2
if ! ls "$data"/4x4-*-pdb-6-6-3.slidedb >/dev/null 2>&1; then
  target/release/slidedb-gen --size 4x4 --pdb 6-6-3 --data "$data" --quiet
fi
echo "== Rust (one thread)"
rust=$(SLIDEDB_DATA="$data" RAYON_NUM_THREADS=1 target/release/examples/korf100 6-6-3 "$n" 2>&1 | tail -3)
echo "$rust"
echo "== JavaScript (node $(node --version))"
js=$(SLIDEDB_BENCH_DATA="$data" node js/bench/bench.mjs korf "$n" 2>&1 | tail -3)
echo "$js"
