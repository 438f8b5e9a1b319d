#!/usr/bin/env bash
# Builds the same tables and pattern databases with two `slidedb-gen`
# binaries and compares every file byte for byte: in-memory tables toward
# corner, edge and centre goals, the two-bit file build (resident and in
# segments), the distributed build's shards (merged, and each binary
# merging the other's), and pattern databases. For a change that must not change the bytes on disk.
#
#   benches/same-bytes.sh OLD_SLIDEDB_GEN NEW_SLIDEDB_GEN
#
# Prints one line a case, `same` or `DIFFERENT`, and exits 1 if any differs.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 OLD_SLIDEDB_GEN NEW_SLIDEDB_GEN" >&2
  exit 2
fi
old=$1
new=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=(
  "3x3|--size 3x3"
  "3x3-blank-first|--goal 0,1,2,3,4,5,6,7,8"
  "3x3-centre|--goal 1,2,3,4,0,5,6,7,8"
  "2x5|--size 2x5"
  "3x4|--size 3x4"
  "3x4-two-bit|--size 3x4 --memory 1G --no-checkpoints"
  "3x4-segments|--size 3x4 --memory 48M --no-checkpoints"
  "2x5-shards|--size 2x5 --workers 2"
  "3x3-pdb-4-4|--size 3x3 --pdb 4-4"
  "4x4-pdb-5-5-5|--size 4x4 --pdb 5-5-5"
)

different=0
for case in "${cases[@]}"; do
  name=${case%%|*}
  read -r -a args <<<"${case#*|}"
  for side in old new; do
    exe=$old
    [ "$side" = new ] && exe=$new
    mkdir -p "$work/$side/data"
    SLIDEDB_DATA="$work/$side/data" "$exe" "${args[@]}" --quiet --out "$work/$side/$name"
    if [ -d "$work/$side/$name" ]; then
      "$exe" merge "$work/$side/$name" --out "$work/$side/$name.merged" >/dev/null 2>&1
    fi
  done
  if [ -d "$work/new/$name" ]; then
    # Every distributed run's shards carry a run identity of their own, so
    # two runs' shards differ by design: the merged tables must be the
    # same, and each binary must merge the other's shards to them.
    "$new" merge "$work/old/$name" --out "$work/cross-new.merged" >/dev/null 2>&1
    "$old" merge "$work/new/$name" --out "$work/cross-old.merged" >/dev/null 2>&1
    if cmp -s "$work/old/$name.merged" "$work/new/$name.merged" &&
      cmp -s "$work/old/$name.merged" "$work/cross-new.merged" &&
      cmp -s "$work/old/$name.merged" "$work/cross-old.merged"; then
      bytes=$(stat -c %s "$work/new/$name.merged")
      echo "same       $name (merged, each binary merging the other's shards: $bytes bytes)"
    else
      echo "DIFFERENT  $name"
      different=1
    fi
    rm -f "$work"/cross-*.merged
  elif cmp -s "$work/old/$name" "$work/new/$name"; then
    bytes=$(stat -c %s "$work/new/$name")
    echo "same       $name ($bytes bytes)"
  else
    echo "DIFFERENT  $name"
    different=1
  fi
  rm -rf "$work/old/$name"* "$work/new/$name"*
done
exit "$different"
