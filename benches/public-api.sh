#!/usr/bin/env bash
# The library's public API as rustdoc shows it to a user, counted at git
# revisions: the public modules, the items of each kind (from all.html),
# and the inherent methods and associated functions of the public types.
#
#   benches/public-api.sh f19d83b HEAD
#
# Each revision is unpacked with `git archive` into target/public-api/REV
# and documented with `cargo doc --no-deps -p slidedb` (no private items),
# into one shared target directory, so the dependencies are built once.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
shared="$root/target/public-api/target"
mkdir -p "$shared"
for rev in "$@"; do
  commit=$(git rev-parse --short "$rev")
  dir="$root/target/public-api/$commit"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir"
    git archive "$commit" | tar -x -C "$dir"
  fi
  rm -rf "$shared/doc/slidedb"
  (cd "$dir" && CARGO_TARGET_DIR="$shared" cargo doc --quiet --no-deps -p slidedb 2>/dev/null)
  python3 - "$shared/doc/slidedb" "$rev ($commit)" <<'PY'
import pathlib, re, sys
doc = pathlib.Path(sys.argv[1])
all_html = (doc / "all.html").read_text()
kinds = {}
for kind, body in re.findall(r'<h3 id="([a-z-]+)">.*?</h3><ul class="all-items">(.*?)</ul>', all_html, re.S):
    kinds[kind] = len(re.findall(r"<li>", body))
modules = sum(1 for p in doc.rglob("index.html")) - 1
methods = 0
for page in doc.rglob("*.html"):
    if not re.match(r"(struct|enum|trait|union)\.", page.name):
        continue
    text = page.read_text()
    start = text.find('id="implementations-list"')
    if start >= 0:
        end = min(i for i in (text.find(m, start) for m in (
            'id="trait-implementations"', 'id="synthetic-implementations"',
            'id="blanket-implementations"', "</main>")) if i >= 0)
        methods += len(set(re.findall(r'id="method\.([a-z0-9_]+)"', text[start:end])))
    methods += len(set(re.findall(r'id="tymethod\.([a-z0-9_]+)"', text)))
items = sum(kinds.values())
print(f"{sys.argv[2]}: modules {modules}, items {items} "
      f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}), "
      f"inherent methods {methods}, functions+methods {kinds.get('functions', 0) + methods}")
PY
done
