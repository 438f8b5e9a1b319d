#!/usr/bin/env bash
# The 8-puzzle batch, two builds side by side in one run: each solves the
# same 1,000,000 random 3x3 boards from a file (`slidedb solve --table
# 3x3.slidedb < boards.txt > out.txt`, all cores), the runs alternated
# (the order swapped every round), the outputs checked identical, and the
# ratios of the medians printed: wall time (the rate) and CPU time.
#
#   benches/batch-3x3.sh OLD_SLIDEDB NEW_SLIDEDB [ROUNDS]
#
# OLD_SLIDEDB and NEW_SLIDEDB are `slidedb` binaries (say, of commit
# 89405eb and of this one, each built in its own folder:
#   git worktree add /tmp/old 89405eb &&
#   CARGO_TARGET_DIR=/tmp/old-target cargo build --release --manifest-path /tmp/old/Cargo.toml
# ). The table is built by the `slidedb-gen` beside NEW_SLIDEDB (the two
# builds write the same bytes), the boards drawn by NEW_SLIDEDB with a
# fixed seed (`random --count 1000000 --seed 1`). ROUNDS defaults to 5;
# BOARDS=N draws another number of boards. On a shared machine read the
# ratios, not the times: both builds meet the same load within a round.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 OLD_SLIDEDB NEW_SLIDEDB [ROUNDS]" >&2
    exit 2
fi
old=$1
new=$2
rounds=${3:-5}
boards=${BOARDS:-1000000}
gen="$(dirname "$new")/slidedb-gen"
for bin in "$old" "$new" "$gen"; do
    [[ -x $bin ]] || { echo "$0: $bin is not an executable" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SLIDEDB_DATA="$work/data"
"$gen" --out "$work/3x3.slidedb" --force --quiet
"$new" random --size 3x3 --count "$boards" --seed 1 > "$work/boards.txt"

# One timed run: appends "wall cpu" (seconds) to $work/times-$side.
run() {
    local side=$1 bin=$2 t
    t=$( { TIMEFORMAT='%R %U %S'; time "$bin" solve --table "$work/3x3.slidedb" \
        < "$work/boards.txt" > "$work/out-$side.txt"; } 2>&1 )
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<< "$t" >> "$work/times-$side"
}

# A warm-up of each (page cache, table file), not timed.
"$old" solve --table "$work/3x3.slidedb" < "$work/boards.txt" > /dev/null
"$new" solve --table "$work/3x3.slidedb" < "$work/boards.txt" > /dev/null
for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then
        run old "$old"; run new "$new"
    else
        run new "$new"; run old "$old"
    fi
    printf 'round %d: old %s s wall %s s cpu, new %s s wall %s s cpu\n' "$round" \
        $(tail -n1 "$work/times-old") $(tail -n1 "$work/times-new")
done

if ! cmp -s "$work/out-old.txt" "$work/out-new.txt"; then
    echo "$0: the outputs differ" >&2
    exit 1
fi
echo "outputs identical ($(wc -l < "$work/out-new.txt") lines)"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ow=$(cut -d' ' -f1 "$work/times-old" | median)
oc=$(cut -d' ' -f2 "$work/times-old" | median)
nw=$(cut -d' ' -f1 "$work/times-new" | median)
nc=$(cut -d' ' -f2 "$work/times-new" | median)
awk -v ow="$ow" -v oc="$oc" -v nw="$nw" -v nc="$nc" -v n="$boards" 'BEGIN {
    printf "median of %d rounds: old %.3f s wall %.3f s cpu (%.2f M boards/s), new %.3f s wall %.3f s cpu (%.2f M boards/s)\n", \
        '"$rounds"', ow, oc, n / ow / 1e6, nw, nc, n / nw / 1e6
    printf "new vs old: %.2fx the rate (wall), %.2fx less cpu\n", ow / nw, oc / nc
}'
