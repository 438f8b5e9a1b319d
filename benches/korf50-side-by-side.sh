#!/usr/bin/env bash
# slidedb beside a peer solver (clausecker/24puzzle, see korf50-peer.sh)
# on the same instances of Korf and Felner's 50 24-puzzles, in one run,
# in turns (slidedb, then the peer, instance by instance), each on one
# thread: the same 6-6-6-6 databases and their reflection, plain IDA*.
#
#   benches/korf50-side-by-side.sh PEER_DIR PEER_PDB_DIR SLIDEDB_DATA ID...
#
# SLIDEDB_DATA holds slidedb's 6-6-6-6 file (`slidedb-gen --size 5x5 --pdb
# 6-6-6-6 --data DIR`); PEER_DIR and PEER_PDB_DIR are set up as
# korf50-peer.sh says. slidedb runs through `cargo run --release --example
# korf50 -- --threads 1`. Prints a line an instance and the totals:
# expansions (both count a node expanded when g + h is within the bound
# and it is not the goal) and CPU seconds of each, each one's expansions
# per CPU second, and the ratio of the rates (slidedb's over the peer's).
# The peer's CPU time is its own "search only" figure; slidedb's is the
# process's CPU time during the solve (its databases mapped before).
set -euo pipefail

if [ "$#" -lt 4 ]; then
  echo "usage: $0 PEER_DIR PEER_PDB_DIR SLIDEDB_DATA ID..." >&2
  exit 2
fi
peer=$1
peer_pdbs=$2
data=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
cargo build --release --example korf50 >&2
korf50=target/release/examples/korf50

printf '%3s %14s %9s %12s %14s %9s %12s %6s\n' id slidedb_exp cpu_s exp/cpu_s peer_exp cpu_s exp/cpu_s ratio
tot_ours=0 tot_ours_cpu=0 tot_peer=0 tot_peer_cpu=0
for id in "$@"; do
  # slidedb: the instance's line of the example's table (after the id and
  # the databases' sizes: expanded is the 8th column, cpu s the 10th).
  line=$("$korf50" --data "$data" --threads 1 "$id" 2>/dev/null | awk -v id="$id" '$1 == id')
  read -r _ _ len _ _ _ _ ours _ ours_cpu _ _ <<<"$line"
  # the peer: search-only CPU from its own report on stderr
  peer_line=$("$here/korf50-peer.sh" "$peer" "$peer_pdbs" "$id" 2>"${TMPDIR:-/tmp}/korf50-peer.err")
  read -r _ peer_len theirs _ <<<"$peer_line"
  theirs_cpu=$(sed -n 's/.*search-only cpu \([0-9.]*\) s.*/\1/p' "${TMPDIR:-/tmp}/korf50-peer.err")
  if [ "$len" != "$peer_len" ]; then
    echo "instance $id: slidedb found $len moves, the peer $peer_len" >&2
    exit 1
  fi
  awk -v id="$id" -v a="$ours" -v ac="$ours_cpu" -v b="$theirs" -v bc="$theirs_cpu" 'BEGIN {
    printf "%3s %14d %9.2f %12.0f %14d %9.2f %12.0f %6.2f\n", id, a, ac, a / ac, b, bc, b / bc, (a / ac) / (b / bc)
  }'
  tot_ours=$((tot_ours + ours))
  tot_peer=$((tot_peer + theirs))
  tot_ours_cpu=$(awk -v x="$tot_ours_cpu" -v y="$ours_cpu" 'BEGIN { print x + y }')
  tot_peer_cpu=$(awk -v x="$tot_peer_cpu" -v y="$theirs_cpu" 'BEGIN { print x + y }')
done
awk -v a="$tot_ours" -v ac="$tot_ours_cpu" -v b="$tot_peer" -v bc="$tot_peer_cpu" 'BEGIN {
  printf "all %14d %9.2f %12.0f %14d %9.2f %12.0f %6.2f\n", a, ac, a / ac, b, bc, b / bc, (a / ac) / (b / bc)
}'
