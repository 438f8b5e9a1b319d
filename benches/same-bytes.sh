#!/usr/bin/env bash
# Proves that a change writes the same files: two builds of the programs
# write the same tables, shards, pattern databases and page data, and
# every file is compared byte for byte (cmp):
#   - full tables of 2x3, 2x4, 3x3 (toward corner, edge and centre goals),
#     2x5 and 3x4, in memory; 3x4 also by the two-bit file build, resident
#     and in segments;
#   - the distributed build (--workers 2) of 3x3 and 2x5: each run's
#     shards carry a run identity of their own, so they differ by design;
#     their merged tables are compared, and each build merges the other's
#     shards to the same bytes;
#   - pattern databases: 3x3 4-4, and 4x4 5-5-5 and 6-6-3;
#   - the data files of the static page (`slidedb page`: its tables, its
#     4x4 databases and site.json).
#
#   benches/same-bytes.sh BASE [HEAD]
#   benches/same-bytes.sh OLD_SLIDEDB_GEN NEW_SLIDEDB_GEN
#
# BASE and HEAD are git revisions (HEAD defaults to the work tree, as it
# is, uncommitted changes included). Each revision is exported with `git
# archive` (no worktree is registered in the repository) and built with
# `cargo build --release --bins` and the fast settings (no LTO, 16 codegen
# units), in one target folder, target/same-bytes/target, so the
# dependencies build once; a commit's binaries are kept in
# target/same-bytes/<commit>/ and not built again. Given two executables
# instead, it compares those `slidedb-gen` binaries (and the page if a
# `slidedb` stands beside each).
#
# ONLY=REGEX runs only the cases whose names match (`page` for the page).
# Prints one line a file, `same` or `DIFFERENT`, exits 1 if any differs
# and 2 on any error. The cases take about a minute a side once built.
set -Eeuo pipefail
shopt -s inherit_errexit
trap 'echo "$0: failed at line $LINENO" >&2; exit 2' ERR
cd "$(dirname "$0")/.."
repo=$PWD
root=$repo/target/same-bytes

if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
  echo "usage: $0 BASE [HEAD]   (git revisions; HEAD defaults to the work tree)" >&2
  echo "       $0 OLD_SLIDEDB_GEN NEW_SLIDEDB_GEN" >&2
  exit 2
fi

# build REV: builds the programs of REV ("" for the work tree) and prints
# the folder that holds its slidedb and slidedb-gen.
build() {
  local rev=$1 sha src out
  if [ -z "$rev" ]; then
    src=$repo
    out=$root/worktree
  else
    if ! sha=$(git rev-parse --verify --quiet "$rev^{commit}"); then
      echo "$0: $rev is not a git revision" >&2
      exit 2
    fi
    out=$root/$sha
    if [ -x "$out/slidedb-gen" ] && [ -x "$out/slidedb" ]; then
      echo "$0: $rev ($sha) built already, in $out" >&2
      echo "$out"
      return
    fi
    src=$out/src
    rm -rf "$src"
    mkdir -p "$src"
    git archive "$sha" | tar -x -C "$src"
  fi
  echo "$0: building ${rev:-the work tree}..." >&2
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_INCREMENTAL=false CARGO_TARGET_DIR=$root/target \
    cargo build --release --bins --locked --quiet --manifest-path "$src/Cargo.toml" >&2
  mkdir -p "$out"
  cp "$root/target/release/slidedb" "$root/target/release/slidedb-gen" "$out/"
  if [ -n "$rev" ]; then
    rm -rf "$src"
  fi
  echo "$out"
}

if [ "$#" -eq 2 ] && [ -f "$1" ] && [ -x "$1" ] && [ -f "$2" ] && [ -x "$2" ]; then
  old_gen=$1
  new_gen=$2
  old_page=$(dirname "$1")/slidedb
  new_page=$(dirname "$2")/slidedb
else
  old_dir=$(build "$1")
  new_dir=$(build "${2:-}")
  old_gen=$old_dir/slidedb-gen
  new_gen=$new_dir/slidedb-gen
  old_page=$old_dir/slidedb
  new_page=$new_dir/slidedb
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

different=0
# quietly COMMAND...: runs it, its messages kept back unless it fails.
quietly() {
  if ! "$@" >"$work/log" 2>&1; then
    cat "$work/log" >&2
    echo "$0: failed: $*" >&2
    exit 2
  fi
}

# compare NAME OLD NEW: one line, `same` with the size or `DIFFERENT`.
compare() {
  if cmp -s "$2" "$3"; then
    printf 'same       %s (%s bytes)\n' "$1" "$(stat -c %s "$3")"
  else
    printf 'DIFFERENT  %s\n' "$1"
    different=1
  fi
}

cases=(
  "2x3|--size 2x3"
  "2x4|--size 2x4"
  "3x3|--size 3x3"
  "3x3-blank-first|--goal 0,1,2,3,4,5,6,7,8"
  "3x3-centre|--goal 1,2,3,4,0,5,6,7,8"
  "2x5|--size 2x5"
  "3x4|--size 3x4"
  "3x4-two-bit|--size 3x4 --memory 1G --no-checkpoints"
  "3x4-segments|--size 3x4 --memory 48M --no-checkpoints"
  "3x3-shards|--size 3x3 --workers 2"
  "2x5-shards|--size 2x5 --workers 2"
  "3x3-pdb-4-4|--size 3x3 --pdb 4-4"
  "4x4-pdb-5-5-5|--size 4x4 --pdb 5-5-5"
  "4x4-pdb-6-6-3|--size 4x4 --pdb 6-6-3"
)

for case in "${cases[@]}"; do
  name=${case%%|*}
  [[ $name =~ ${ONLY:-.} ]] || continue
  read -r -a args <<<"${case#*|}"
  for side in old new; do
    exe=$old_gen
    [ "$side" = new ] && exe=$new_gen
    mkdir -p "$work/$side/data"
    SLIDEDB_DATA="$work/$side/data" "$exe" "${args[@]}" --quiet --out "$work/$side/$name"
    if [ -d "$work/$side/$name" ]; then
      quietly "$exe" merge "$work/$side/$name" --out "$work/$side/$name.merged"
    fi
  done
  if [ -d "$work/new/$name" ]; then
    quietly "$new_gen" merge "$work/old/$name" --out "$work/cross-new.merged"
    quietly "$old_gen" merge "$work/new/$name" --out "$work/cross-old.merged"
    compare "$name (merged)" "$work/old/$name.merged" "$work/new/$name.merged"
    compare "$name (old shards merged by the new build)" "$work/old/$name.merged" "$work/cross-new.merged"
    compare "$name (new shards merged by the old build)" "$work/old/$name.merged" "$work/cross-old.merged"
    rm -f "$work"/cross-*.merged
  else
    compare "$name" "$work/old/$name" "$work/new/$name"
  fi
  rm -rf "$work/old/$name"* "$work/new/$name"*
done

if ! [[ page =~ ${ONLY:-.} ]]; then
  :
elif [ -x "$old_page" ] && [ -x "$new_page" ]; then
  for side in old new; do
    exe=$old_page
    [ "$side" = new ] && exe=$new_page
    quietly "$exe" page --out "$work/$side/page" --data "$work/$side/page-data"
  done
  # The page's code is the JavaScript package and the page's own files,
  # copied: a change to them shows in git. Its data is compared here.
  found=0
  while IFS= read -r file; do
    found=1
    if [ -f "$work/new/page/$file" ]; then
      compare "page/$file" "$work/old/page/$file" "$work/new/page/$file"
    else
      printf 'DIFFERENT  page/%s (the new build did not write it)\n' "$file"
      different=1
    fi
  done < <(cd "$work/old/page" && find data -type f | sort)
  while IFS= read -r file; do
    if [ ! -f "$work/old/page/$file" ]; then
      printf 'DIFFERENT  page/%s (the old build did not write it)\n' "$file"
      different=1
    fi
  done < <(cd "$work/new/page" && find data -type f | sort)
  if [ "$found" = 0 ]; then
    echo "$0: the page wrote no data files" >&2
    exit 2
  fi
else
  echo "$0: no slidedb beside the slidedb-gen binaries: the page is not compared" >&2
fi
exit "$different"
