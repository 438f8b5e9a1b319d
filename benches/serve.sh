#!/usr/bin/env bash
# The server's throughput on an open 3x3 table: `GET /api/v1/probe` of one
# board, by wrk, against each `slidedb` binary given, in turns (A B A B …)
# so that a busy moment of a shared machine falls on both alike.
#
#   benches/serve.sh OLD_SLIDEDB NEW_SLIDEDB          # 3 rounds of 10 s
#   ROUNDS=5 SECONDS_EACH=20 benches/serve.sh A B C
#
# Needs wrk (Debian: apt-get install wrk). Prints each run's requests per
# second and latency, then the median of each binary.
set -euo pipefail

rounds=${ROUNDS:-3}
each=${SECONDS_EACH:-10}
threads=${WRK_THREADS:-2}
connections=${WRK_CONNECTIONS:-32}
board="8%206%207%202%205%204%203%200%201"
if [ "$#" -lt 1 ]; then
  echo "usage: $0 SLIDEDB [SLIDEDB ...]" >&2
  exit 2
fi
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 2; }

data=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$data"' EXIT

declare -A results
port=18180
for round in $(seq 1 "$rounds"); do
  for exe in "$@"; do
    port=$((port + 1))
    SLIDEDB_DATA="$data" "$exe" serve --listen "127.0.0.1:$port" 2>/dev/null &
    pid=$!
    pids+=("$pid")
    url="http://127.0.0.1:$port/api/v1/probe?board=$board"
    for _ in $(seq 1 100); do
      curl -sf "$url" >/dev/null 2>&1 && break
      sleep 0.1
    done
    # Warm: the table is open before wrk starts.
    curl -sf "$url" >/dev/null
    out=$(wrk -t"$threads" -c"$connections" -d"${each}s" --latency "$url")
    rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
    p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    echo "round $round  $exe  $rps req/s  p50 $p50  p99 $p99"
    results[$exe]+="$rps "
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  done
done
for exe in "$@"; do
  median=$(tr ' ' '\n' <<<"${results[$exe]}" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "median  $exe  $median req/s"
done
