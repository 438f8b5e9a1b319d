#!/usr/bin/env bash
# Runs a peer solver, clausecker/24puzzle (C, github.com/clausecker/24puzzle),
# on instances of Korf's 50 random 24-puzzles (tests/data/korf50-24.txt) with
# the Korf & Felner (2002) setup: IDA* with the additive 6-6-6-6 pattern
# databases {1,2,5,6,7,12} {3,4,8,9,13,14} {10,11,15,16,20,21}
# {17,18,19,22,23,24} (blank not part of any pattern), maxed with the same
# partition reflected about the main diagonal. Search runs on one thread.
#
#   benches/korf50-peer.sh PEER_DIR PDB_DIR ID...
#
# Prints one line an instance: `ID LENGTH EXPANDED CPU_SECONDS`, where
# LENGTH is the solution length the peer found, EXPANDED the "Expanded N
# nodes in total." the peer's cmd/pdbsearch reports (nodes with g+h <= bound,
# summed over all iterations, last iteration up to the first solution), and
# CPU_SECONDS user+system time of the whole pdbsearch process from
# /usr/bin/time (includes faulting in the mmapped PDBs). Extra details (the
# expected length, the peer's own search-only CPU time, wall time, peak RSS)
# go to stderr.
#
# Setup (tested with commit 5e6b627 of the peer, Debian 12):
#   apt-get install -y make clang libzstd-dev pkg-config
#   git clone https://github.com/clausecker/24puzzle PEER_DIR
#   make -C PEER_DIR -j2 cmd/pdbsearch      # default CC=clang; a gcc
#       # -march=native build crashes (aligned AVX store to a malloc'd
#       # alignas(32) struct in make_index_aux)
#   KORF50_PEER_GENERATE=1 benches/korf50-peer.sh PEER_DIR PDB_DIR
#       # builds the 8 zero-unaware PDBs (127,512,000 bytes each) in PDB_DIR,
#       # about 6 minutes on 2 threads
#
# The catalogue handed to the peer is written by this script (8 tile sets:
# the partition and its reflection, a blank line between the two groups;
# the peer maxes over groups and adds within a group). Tile sets are given
# without tile 0, so the peer builds plain additive PDBs that ignore the
# blank, as Korf & Felner did (with 0 it would build its stronger
# blank-aware "zpdb" variant). The peer's -t flag is not used; both halves
# are listed explicitly.
#
# Environment: KORF50_FILE (instance file, default tests/data/korf50-24.txt
# next to this script), KORF50_PEER_FLAGS (extra pdbsearch flags, e.g. -F
# to finish the last iteration, or "-m FSMFILE").
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 PEER_DIR PDB_DIR ID..." >&2
  exit 2
fi
peer=$1
pdbdir=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
instances=${KORF50_FILE:-$here/../tests/data/korf50-24.txt}
pdbsearch=$peer/cmd/pdbsearch
read -r -a extra <<<"${KORF50_PEER_FLAGS:-}"

if [ ! -x "$pdbsearch" ]; then
  echo "$pdbsearch not found: build it with 'make -C $peer cmd/pdbsearch'" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sets=(
  1,2,5,6,7,12 3,4,8,9,13,14 10,11,15,16,20,21 17,18,19,22,23,24
  1,5,6,10,11,12 15,16,17,20,21,22 2,3,4,7,8,9 13,14,18,19,23,24
)
cat="$work/kf-6666-reflected.cat"
{
  echo "# Korf & Felner 6-6-6-6, blank not in the patterns"
  printf '%s\n' "${sets[@]:0:4}"
  echo
  echo "# the same partition reflected about the main diagonal"
  printf '%s\n' "${sets[@]:4:4}"
} >"$cat"

if [ "${KORF50_PEER_GENERATE:-0}" = 1 ]; then
  mkdir -p "$pdbdir"
  # pdbsearch builds and stores any PDB missing from -d, then exits at EOF.
  "$pdbsearch" -j "${KORF50_PEER_JOBS:-2}" -d "$pdbdir" "$cat" </dev/null >/dev/null
  [ "$#" -eq 0 ] && exit 0
fi

for s in "${sets[@]}"; do
  if [ ! -s "$pdbdir/$s.pdb" ]; then
    echo "missing $pdbdir/$s.pdb: run KORF50_PEER_GENERATE=1 $0 $peer $pdbdir" >&2
    exit 2
  fi
done

for id in "$@"; do
  line=$(awk -v id="$id" '$1 == id { print; exit }' "$instances")
  if [ -z "$line" ]; then
    echo "no instance $id in $instances" >&2
    exit 2
  fi
  read -r -a f <<<"$line"
  # the peer reads the 25 cell contents, row-major, 0 = blank, comma-separated
  puzzle=$(IFS=,; echo "${f[*]:1:25}")
  optimal=${f[26]}

  /usr/bin/time -f '%U %S %e %M' -o "$work/time" \
    "$pdbsearch" -j 1 "${extra[@]}" -d "$pdbdir" "$cat" \
    <<<"$puzzle" >"$work/out" 2>"$work/err" || {
      echo "pdbsearch failed on instance $id:" >&2
      cat "$work/err" >&2
      exit 1
    }

  len=$(awk '/^Solution found at depth/ { d = $5 } END { print d }' "$work/err")
  expanded=$(awk '/^Expanded [0-9]+ nodes in total/ { print $2 }' "$work/err")
  searchcpu=$(awk '/^Spent .* seconds in total/ { print $2 }' "$work/err")
  read -r user sys wall rss <"$work/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')

  echo "$id ${len:-none} ${expanded:-?} $cpu"
  echo "# $id: optimal $optimal, peer search-only cpu ${searchcpu:-?} s," \
    "wall $wall s, max rss $((rss / 1024)) MiB" >&2
done
