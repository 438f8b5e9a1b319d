#!/usr/bin/env bash
# Runs a peer solver, clausecker/24puzzle (C, github.com/clausecker/24puzzle),
# on instances of Korf's 50 random 24-puzzles (tests/data/korf50-24.txt) with
# the Korf & Felner (2002) setup: IDA* with the additive 6-6-6-6 pattern
# databases {1,2,5,6,7,12} {3,4,8,9,13,14} {10,11,15,16,20,21}
# {17,18,19,22,23,24}, maxed with the same partition reflected about the
# main diagonal. The search runs on one thread.
#
#   benches/korf50-peer.sh PEER_DIR PDB_DIR ID...
#
# Prints one line an instance: `ID LENGTH EXPANDED CPU_SECONDS`, where
# LENGTH is the solution length the peer found, EXPANDED the peer's
# "Expanded N nodes in total." (nodes with g+h <= bound that are not the
# goal, summed over all iterations; the last iteration stops at the first
# solution), and CPU_SECONDS the user+system time of the whole pdbsearch
# process from /usr/bin/time (includes faulting in the mmapped PDBs).
# Details (expected length, the peer's own search-only CPU time, wall time,
# peak RSS) go to stderr.
#
# The peer is driven with its own catalogue catalogues/reinefeld-t.cat
# (exactly these 8 tile sets, each listed with tile 0, as two groups that
# are summed within and maxed between) and pdbsearch's -i flag, which turns
# each blank-aware PDB into a Korf & Felner style one: the minimum over
# blank positions, stored as 127,512,000 one-byte entries in
# PDB_DIR/<tiles>.ipdb. Without -i the peer would use its stronger
# blank-aware "zpdb" PDBs instead; tile sets written without 0 give a
# weaker PDB that ignores the blank altogether. Only the parent move is
# pruned (pdbsearch's default finite state machine).
#
# Setup (tested with commit 5e6b627 of the peer on Debian 12):
#   apt-get install -y make clang libzstd-dev pkg-config
#   git clone https://github.com/clausecker/24puzzle PEER_DIR
#   make -C PEER_DIR -j2 cmd/pdbsearch      # Makefile default CC=clang; a
#       # gcc -march=native build segfaults in make_index_aux
#   KORF50_PEER_GENERATE=1 benches/korf50-peer.sh PEER_DIR PDB_DIR
#       # builds the 8 PDBs (1,020,096,000 bytes) in PDB_DIR, about 7 CPU minutes;
#       # it runs
#       # pdbsearch -i -j 2 -d PDB_DIR PEER_DIR/catalogues/reinefeld-t.cat
#
# Environment: KORF50_FILE (instance file, default tests/data/korf50-24.txt
# next to this script), KORF50_PEER_FLAGS (extra pdbsearch flags, e.g. -F
# to finish the last iteration, or "-m FSMFILE"), KORF50_PEER_JOBS (threads
# for generating PDBs, default 2).
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
cat=$peer/catalogues/reinefeld-t.cat
read -r -a extra <<<"${KORF50_PEER_FLAGS:-}"

if [ ! -x "$pdbsearch" ]; then
  echo "$pdbsearch not found: build it with 'make -C $peer cmd/pdbsearch'" >&2
  exit 2
fi

# the partition and its reflection
sets=(
  1,2,5,6,7,12 3,4,8,9,13,14 10,11,15,16,20,21 17,18,19,22,23,24
  1,5,6,10,11,12 15,16,17,20,21,22 2,3,4,7,8,9 13,14,18,19,23,24
)
want=$(printf '0,%s\n' "${sets[@]}" | sort)
have=$(grep -v -e '^#' -e '^$' "$cat" | sort)
if [ "$want" != "$have" ]; then
  echo "$cat does not list the 6-6-6-6 partition and its reflection" >&2
  exit 2
fi

if [ "${KORF50_PEER_GENERATE:-0}" = 1 ]; then
  mkdir -p "$pdbdir"
  # pdbsearch builds and stores every PDB missing from -d, then exits at EOF.
  "$pdbsearch" -i -j "${KORF50_PEER_JOBS:-2}" -d "$pdbdir" "$cat" </dev/null >/dev/null
  [ "$#" -eq 0 ] && exit 0
fi

for s in "${sets[@]}"; do
  if [ ! -s "$pdbdir/$s.ipdb" ]; then
    echo "missing $pdbdir/$s.ipdb: run KORF50_PEER_GENERATE=1 $0 $peer $pdbdir" >&2
    exit 2
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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

  if ! /usr/bin/time -f '%U %S %e %M' -o "$work/time" \
    "$pdbsearch" -i -j 1 "${extra[@]}" -d "$pdbdir" "$cat" \
    <<<"$puzzle" >"$work/out" 2>"$work/err"; then
    echo "pdbsearch failed on instance $id:" >&2
    cat "$work/err" >&2
    exit 1
  fi

  len=$(awk '/^Solution found at depth/ { d = $5 } END { print d }' "$work/err")
  expanded=$(awk '/^Expanded [0-9]+ nodes in total/ { print $2 }' "$work/err")
  searchcpu=$(awk '/^Spent .* seconds in total/ { print $2 }' "$work/err")
  read -r user sys wall rss <"$work/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')

  echo "$id ${len:-none} ${expanded:-?} $cpu"
  echo "# $id: optimal $optimal, peer search-only cpu ${searchcpu:-?} s," \
    "wall $wall s, max rss $((rss / 1024)) MiB" >&2
done
