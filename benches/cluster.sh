#!/usr/bin/env bash
# The distributed build on local processes: wall time, peak memory and
# bytes on the wire with 1, 2 and 4 processes (1 worker each), beside the
# single-process build, for each size given (default 3x4 2x6), REPEAT
# times each (default 3). Whole-process runs, read as ratios within one
# run: the machine is shared.
#
#   cargo build --release && benches/cluster.sh [SIZE...]
#
# Writes, under target/bench-cluster/: a log per run (the per-layer lines
# of every process) and summary.tsv, one line a run.
set -euo pipefail
cd "$(dirname "$0")/.."
gen="$PWD/target/release/slidedb-gen"
[ -x "$gen" ] || { echo "build first: cargo build --release" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(3x4 2x6)
repeat=${REPEAT:-3}
base=${PORT_BASE:-18400}
work=target/bench-cluster
rm -rf "$work"
mkdir -p "$work"
summary="$work/summary.tsv"
printf 'size\tprocesses\trun\twall_s\tmax_rss_kB\tmoves\tcross_pct\tbytes_sent_p0\tbytes_received_p0\tbytes_sent_all\n' >"$summary"

# Elapsed seconds and peak RSS (kB) from a /usr/bin/time -v report.
elapsed() {
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$1"
}
rss() { awk -F': ' '/Maximum resident set size/ { print $2 }' "$1"; }

for size in "${sizes[@]}"; do
  for r in $(seq 1 "$repeat"); do
    # The single-process build, for the ratio.
    d="$work/$size-single-$r"
    mkdir -p "$d"
    /usr/bin/time -v "$gen" --size "$size" --out "$d/table.slidedb" --force 2>"$d/log" >/dev/null
    printf '%s\t%s\t%s\t%s\t%s\t\t\t\t\t\n' "$size" single "$r" "$(elapsed "$d/log")" "$(rss "$d/log")" >>"$summary"
    for p in 1 2 4; do
      d="$work/$size-p$p-$r"
      mkdir -p "$d"
      : >"$d/hosts"
      for i in $(seq 0 $((p - 1))); do echo "127.0.0.1:$((base + i))" >>"$d/hosts"; done
      base=$((base + p))
      pids=()
      start=$(date +%s.%N)
      for i in $(seq 0 $((p - 1))); do
        /usr/bin/time -v "$gen" --size "$size" --hosts "$d/hosts" --process "$i" \
          --out "$d/out$i" --no-checkpoints 2>"$d/log$i" &
        pids+=($!)
      done
      for pid in "${pids[@]}"; do wait "$pid"; done
      wall=$(echo "$(date +%s.%N) - $start" | bc)
      # The summary line of process 0, and every process's bytes sent.
      line=$(grep 'over the network' "$d/log0")
      moves=$(sed -E 's/.*; moves ([0-9]+),.*/\1/' <<<"$line")
      cross=$(sed -E 's/.*, ([0-9.]+)% to other workers.*/\1/' <<<"$line")
      sent0=$(sed -E 's/.*sent ([0-9]+) B and received.*/\1/' <<<"$line")
      recv0=$(sed -E 's/.*received ([0-9]+) B over.*/\1/' <<<"$line")
      all=0
      for i in $(seq 0 $((p - 1))); do
        s=$(grep 'over the network' "$d/log$i" | sed -E 's/.*sent ([0-9]+) B and received.*/\1/')
        all=$((all + s))
      done
      peak=0
      for i in $(seq 0 $((p - 1))); do
        m=$(rss "$d/log$i")
        [ "$m" -gt "$peak" ] && peak=$m
      done
      printf '%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$p" "$r" "$wall" "$peak" \
        "$moves" "$cross" "$sent0" "$recv0" "$all" >>"$summary"
      rm -rf "$d"/out*
    done
  done
done
column -t "$summary"
