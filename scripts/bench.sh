#!/usr/bin/env bash
# Whole-process timings of the release binaries, as a user runs them:
#
#   1. slidedb-gen: build the 3x3 table and write it (process start to exit)
#   2. slidedb solve: one board against that table file
#   3. slidedb solve: a batch of random solvable boards on stdin
#      (boards per second), and its peak memory (max RSS)
#
# Uses hyperfine when it can (installing it with apt-get when missing and
# possible), else a plain loop over `date +%s%N`. The in-process figures
# are `cargo bench` (benches/slidedb.rs).
#
# Usage: scripts/bench.sh   (env: BOARDS=N batch size, RUNS=N runs per short
#        command, BATCH_RUNS=N, NO_HYPERFINE=1 to force the plain loop)
set -euo pipefail

BOARDS=${BOARDS:-1000000} # boards in the batch
RUNS=${RUNS:-10}          # runs per short command (fallback loop)
BATCH_RUNS=${BATCH_RUNS:-5}

cd "$(dirname "${BASH_SOURCE[0]}")/.."
say() { printf '== %s\n' "$*" >&2; }

# Installs a Debian package when its command is missing, if we can.
want() { # COMMAND PACKAGE
    command -v "$1" >/dev/null 2>&1 && return 0
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        say "installing $2"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } \
            >/dev/null 2>&1 || say "could not install $2"
    fi
    command -v "$1" >/dev/null 2>&1
}

# --- (a) build ---------------------------------------------------------------
say "building release binaries"
cargo build --release --quiet --bin slidedb --bin slidedb-gen
TARGET=$(cargo metadata --no-deps --format-version 1 | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
BIN="$TARGET/release"
SLIDEDB="$BIN/slidedb"
GEN="$BIN/slidedb-gen"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TABLE="$TMP/t.slidedb"
BOARDS_FILE="$TMP/boards"
BOARD="2 3 4 1 5 x 7 6 8"

q() { printf '%q' "$1"; }
GEN_CMD="$(q "$GEN") --out $(q "$TABLE") --force --quiet"
ONE_CMD="$(q "$SLIDEDB") solve $(q "$BOARD") --table $(q "$TABLE")"
BATCH_CMD="$(q "$SLIDEDB") solve --table $(q "$TABLE") < $(q "$BOARDS_FILE") > /dev/null"

# The table and the boards, made once before any timing.
"$GEN" --out "$TABLE" --force --quiet
answer=$("$SLIDEDB" solve "$BOARD" --table "$TABLE")
[ "$answer" = ullddrurdllurdruldr ] || { say "wrong answer: $answer"; exit 1; }
say "generating $BOARDS random boards"
start=$(date +%s%N)
"$SLIDEDB" random --count "$BOARDS" --seed 1 >"$BOARDS_FILE"
gen_boards_ms=$((($(date +%s%N) - start) / 1000000))
# Every board must be solvable: exit 0 (1 would mean some unsolvable).
"$SLIDEDB" solve --table "$TABLE" <"$BOARDS_FILE" >"$TMP/answers" ||
    { say "slidedb solve exited $? on the batch (1: some board unsolvable)"; exit 1; }
answered=$(wc -l <"$TMP/answers")
[ "$answered" -eq "$BOARDS" ] || { say "answered $answered of $BOARDS"; exit 1; }
rm "$TMP/answers"

# --- (b), (c) timings ---------------------------------------------------------
# Each timing sets MEDIAN_MS and MEAN_MS and a description in HOW.
if [ -z "${NO_HYPERFINE:-}" ] && want hyperfine hyperfine; then
    TOOL="hyperfine $(hyperfine --version | awk '{print $2}')"
    time_it() { # NAME RUNS WARMUP SHELL-COMMAND
        local csv="$TMP/h.csv" shell=()
        # No shell for simple commands: a shell's start-up would be most
        # of a millisecond-long run.
        [[ $4 == *"<"* ]] || shell=(-N)
        hyperfine "${shell[@]}" --style basic --runs "$2" --warmup "$3" \
            --export-csv "$csv" -n "$1" "$4" >&2
        # command,mean,stddev,median,user,system,min,max (seconds)
        MEAN_MS=$(awk -F, 'NR==2 {printf "%.3f", $2 * 1000}' "$csv")
        MEDIAN_MS=$(awk -F, 'NR==2 {printf "%.3f", $4 * 1000}' "$csv")
        HOW="median of $2"
    }
else
    TOOL="date +%s%N loop (no hyperfine)"
    time_it() { # NAME RUNS WARMUP SHELL-COMMAND
        local i start times=()
        for ((i = 0; i < $3; i++)); do eval "$4" >/dev/null; done
        for ((i = 0; i < $2; i++)); do
            start=$(date +%s%N)
            eval "$4" >/dev/null
            times+=($(($(date +%s%N) - start)))
        done
        MEDIAN_MS=$(printf '%s\n' "${times[@]}" | sort -n |
            awk '{t[NR] = $1} END {m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; printf "%.3f", m / 1e6}')
        MEAN_MS=$(printf '%s\n' "${times[@]}" | awk '{s += $1} END {printf "%.3f", s / NR / 1e6}')
        HOW="median of $2, date loop"
        say "$1: median $MEDIAN_MS ms, mean $MEAN_MS ms over $2 runs"
    }
fi
say "timing with $TOOL"

time_it "slidedb-gen 3x3" "$RUNS" 2 "$GEN_CMD"
gen_ms=$MEDIAN_MS gen_how=$HOW
time_it "slidedb solve one board" "$((RUNS * 3))" 3 "$ONE_CMD"
one_ms=$MEDIAN_MS one_how=$HOW
time_it "slidedb solve $BOARDS boards" "$BATCH_RUNS" 1 "$BATCH_CMD"
batch_ms=$MEDIAN_MS batch_how=$HOW
per_second=$(awk -v n="$BOARDS" -v ms="$batch_ms" 'BEGIN {printf "%.0f", n / (ms / 1000)}')

# --- (d) peak memory ----------------------------------------------------------
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then want /usr/bin/time time || true; fi
rss() { # SHELL-COMMAND -> "MAX_RSS_KB WALL"
    "$TIME" -v bash -c "exec $1" 2>"$TMP/time.txt" >/dev/null
    awk -F': ' '/Maximum resident set size/ {kb = $2} /Elapsed \(wall clock\)/ {w = $2} END {print kb, w}' \
        "$TMP/time.txt"
}
if [ -x "$TIME" ]; then
    read -r batch_rss batch_wall < <(rss "$BATCH_CMD")
    read -r gen_rss _ < <(rss "$GEN_CMD")
    read -r one_rss _ < <(rss "$ONE_CMD")
else
    batch_rss=? batch_wall=? gen_rss=? one_rss=?
    say "no /usr/bin/time: max RSS not measured"
fi
kib() { [ "$1" = ? ] && echo "?" || awk -v k="$1" 'BEGIN {printf "%.1f MiB", k / 1024}'; }

# --- summary ------------------------------------------------------------------
table_bytes=$(wc -c <"$TABLE")
boards_bytes=$(wc -c <"$BOARDS_FILE")
row() { printf '  %-36s %10s %-9s %-26s %s\n' "$@"; }
echo
echo "slidedb whole-process benchmark ($(nproc) cores, $TOOL)"
echo "  table: 3x3, $table_bytes bytes; batch: $BOARDS boards, $boards_bytes bytes (made in $gen_boards_ms ms)"
row "slidedb-gen --out --force --quiet" "$gen_ms" ms "($gen_how)" "max RSS $(kib "$gen_rss")"
row "slidedb solve \"$BOARD\"" "$one_ms" ms "($one_how)" "max RSS $(kib "$one_rss")"
row "slidedb solve < $BOARDS boards" "$batch_ms" ms "($batch_how)" "max RSS $(kib "$batch_rss")"
row "batch throughput" "$per_second" boards/s "(wall $batch_wall under /usr/bin/time -v)"
