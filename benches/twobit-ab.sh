#!/usr/bin/env bash
# Two `slidedb-gen` binaries side by side on the two-bit search (the one
# that builds 2x7), resident, to a file: whole-process wall time, CPU and
# peak memory, the binaries alternated in one run so that a shared
# machine's noise falls on both, and every table compared byte for byte.
#
#   benches/twobit-ab.sh OLD_SLIDEDB_GEN NEW_SLIDEDB_GEN [SIZE...]
#
# SIZE defaults to 3x4 2x6; REPEAT (default 3) runs of each binary a size.
# Prints one line a run and, a size, the medians and NEW/OLD; exits 1 if
# any table differs.
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
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Elapsed seconds, CPU seconds and peak RSS (kB) from a /usr/bin/time -v report.
report() {
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s }
    /User time/ { cpu += $2 } /System time/ { cpu += $2 }
    /Maximum resident set size/ { rss = $2 }
    END { printf "%.2f %.2f %d", wall, cpu, rss }' "$1"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

different=0
printf '%-5s %-4s %3s %9s %9s %12s\n' size side run wall_s cpu_s max_rss_kB
for size in "${sizes[@]}"; do
  : >"$work/old.times"
  : >"$work/new.times"
  for r in $(seq 1 "$repeat"); do
    for side in old new; do
      exe=$old
      [ "$side" = new ] && exe=$new
      out="$work/$side.slidedb"
      rm -f "$out"
      /usr/bin/time -v "$exe" --size "$size" --out "$out" --memory 1G --no-checkpoints --quiet 2>"$work/time"
      read -r wall cpu rss <<<"$(report "$work/time")"
      printf '%-5s %-4s %3s %9s %9s %12s\n' "$size" "$side" "$r" "$wall" "$cpu" "$rss"
      echo "$wall" >>"$work/$side.times"
    done
    if ! cmp -s "$work/old.slidedb" "$work/new.slidedb"; then
      echo "$size: the tables DIFFER" >&2
      different=1
    fi
  done
  o=$(median <"$work/old.times")
  n=$(median <"$work/new.times")
  awk -v s="$size" -v o="$o" -v n="$n" 'BEGIN { printf "%s: median old %.2f s, new %.2f s, new/old %.3f (old/new %.2fx)\n", s, o, n, n / o, o / n }'
done
exit "$different"
