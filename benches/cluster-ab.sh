#!/usr/bin/env bash
# Two `slidedb-gen` binaries side by side on the distributed build over 2
# local processes (1 worker each): whole-build wall time, the binaries
# alternated in one run so that a shared machine's noise falls on both,
# and the tables their shards merge into compared byte for byte (a shard's
# head names its build, so shards of two builds differ there).
#
#   benches/cluster-ab.sh OLD_SLIDEDB_GEN NEW_SLIDEDB_GEN [SIZE...]
#
# SIZE defaults to 3x4 2x6; REPEAT (default 3) runs of each binary a size.
# Prints one line a run and, a size, the medians and NEW/OLD; exits 1 if
# any merged table differs.
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 OLD_SLIDEDB_GEN NEW_SLIDEDB_GEN [SIZE...]" >&2
  exit 2
fi
old=$1
new=$2
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(3x4 2x6)
repeat=${REPEAT:-3}
port=${PORT_BASE:-18600}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

different=0
printf '%-5s %-4s %3s %9s\n' size side run wall_s
for size in "${sizes[@]}"; do
  : >"$work/old.times"
  : >"$work/new.times"
  for r in $(seq 1 "$repeat"); do
    for side in old new; do
      exe=$old
      [ "$side" = new ] && exe=$new
      d="$work/$side"
      rm -rf "$d"
      mkdir -p "$d"
      printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$port" "$((port + 1))" >"$d/hosts"
      port=$((port + 2))
      start=$(date +%s.%N)
      pids=()
      for i in 0 1; do
        "$exe" --size "$size" --hosts "$d/hosts" --process "$i" --out "$d/out$i" \
          --no-checkpoints --quiet 2>"$d/log$i" &
        pids+=($!)
      done
      for pid in "${pids[@]}"; do wait "$pid"; done
      wall=$(echo "$(date +%s.%N) - $start" | bc)
      printf '%-5s %-4s %3s %9.2f\n' "$size" "$side" "$r" "$wall"
      echo "$wall" >>"$work/$side.times"
    done
    for side in old new; do
      exe=$old
      [ "$side" = new ] && exe=$new
      mkdir -p "$work/$side/all"
      cp -n "$work/$side"/out0/* "$work/$side"/out1/* "$work/$side/all/" 2>/dev/null || true
      "$exe" merge --out "$work/$side.slidedb" "$work/$side/all" --force 2>/dev/null >/dev/null
    done
    if ! cmp -s "$work/old.slidedb" "$work/new.slidedb"; then
      echo "$size: the merged tables DIFFER" >&2
      different=1
    fi
  done
  o=$(median <"$work/old.times")
  n=$(median <"$work/new.times")
  awk -v s="$size" -v o="$o" -v n="$n" 'BEGIN { printf "%s: median old %.2f s, new %.2f s, new/old %.3f (old/new %.2fx)\n", s, o, n, n / o, o / n }'
done
exit "$different"
