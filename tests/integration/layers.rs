//! The library's modules stand in layers: each imports only from those
//! below it (the README's table), so there is no cycle, the read side
//! (`table/`, `pdb/`) never imports a builder, and the engine imports no
//! builder or checker. The front ends (the command line, the server, the
//! page and Python) reach the library only through its engine, requests
//! and records.
//!
//! Both rules are read from the sources by a small reader of Rust: it drops
//! comments and literals, skips `mod tests { … }` blocks and any single
//! item gated by `#[cfg(test)]` (and reads on after it), and follows every
//! path that starts at `crate`, `super`, `self` or `slidedb`, `use` groups
//! (`crate::{a, b::{c, d}}`, over several lines) included. The checks are
//! functions over a file's path and text, so the test of the test below
//! plants imports in strings and needs no files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules, lowest first: a module may import those before
/// it, but for [`FORBIDDEN`].
const ORDER: &[&str] = &[
    "words",
    "board",
    "search",
    "system",
    "format",
    "rank",
    "symmetry",
    "duplicates",
    "random",
    "solution",
    "multi_heuristic",
    "solver",
    "output",
    "store",
    "goals",
    "bfs",
    "table",
    "pdb",
    "build",
    "verify",
    "database",
    "records",
    "request",
];

/// Imports the order would allow that the layers do not: the read side
/// answers without a solver, pattern databases stand beside the tables,
/// and the engine neither builds files nor checks them in full.
const FORBIDDEN: &[(&str, &str)] = &[
    ("table", "solver"),
    ("pdb", "solver"),
    ("pdb", "bfs"),
    ("pdb", "table"),
    ("database", "build"),
    ("database", "verify"),
];

/// The folders of the front ends' Rust: the `slidedb` and `slidedb-gen`
/// programs with the cli library, and the Python package.
const FRONT_DIRS: &[&str] = &["cli/src", "python/src"];

/// The library's modules a front end may name (`slidedb::board::…`): the
/// fronts reach the library only through its engine (`database`), what
/// they ask (`request`), what they answer (`records`, `words`) and the
/// plain types those speak in. Beside these, a front may name what
/// `src/lib.rs` re-exports at the root (`slidedb::Board`,
/// `slidedb::generate`), read from it at test time. `output` is here
/// because it holds the rules every front's `--out` shares (the atomic
/// write, what `--force` may replace, the folders made): a front that
/// writes a file a user named follows them rather than copying them.
/// Every other public module (`rank`, `symmetry`, `table`, `pdb`,
/// `build`) is the library's inside: a front that needs one of them
/// copies a policy the library should own. The private modules (`store`,
/// `format`, `bfs`, `system`, `goals`) cannot be named outside at all.
const FRONT_MODULES: &[&str] = &[
    "board", "database", "request", "records", "words", "random", "solution", "search", "solver",
    "verify", "output",
];

/// The generator program's folder, and the modules it may name beside
/// [`FRONT_MODULES`]: building tables is its whole job, so it drives the
/// builders (`build`) itself; no other front does.
const GENERATOR_DIR: &str = "cli/src/bin/slidedb-gen/";

/// See [`GENERATOR_DIR`].
const GENERATOR_MODULES: &[&str] = &["build"];

/// Front files allowed to name a module the fronts' rule refuses: (file,
/// module). None: every front reaches the library through its engine,
/// requests and records. An entry no longer needed fails the test, so
/// the list can only shrink.
const KNOWN: &[(&str, &str)] = &[];

// ---------------------------------------------------------------------
// The reader.

/// A token of Rust source, comments and literals dropped: a name (keywords
/// included) or a symbol (`::`, `=>` and `->` as one, any other character
/// alone).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Sym(String),
}

/// The tokens of `text`, without its comments (`//`, `///`, `//!`, nested
/// `/* */`), its string, byte, C and raw string literals, its character
/// literals, numbers and lifetimes.
fn tokens(text: &str) -> Vec<Tok> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let ident_start = |ch: char| ch.is_alphabetic() || ch == '_';
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(end) = literal_end(&c, i) {
            i = end;
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // An escaped character: '\n', '\'', '\u{..}'.
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                // A lifetime or a label.
                i += 1;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
            }
        } else if ch == 'r' && at(i + 1) == '#' && ident_start(at(i + 2)) {
            // A raw name: r#type.
            let start = i + 2;
            i = start;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
        } else if ident_start(ch) {
            let start = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
        } else if ch.is_ascii_digit() {
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
        } else {
            let two: String = [ch, at(i + 1)].iter().collect();
            if matches!(two.as_str(), "::" | "=>" | "->") {
                out.push(Tok::Sym(two));
                i += 2;
            } else {
                out.push(Tok::Sym(ch.to_string()));
                i += 1;
            }
        }
    }
    out
}

/// Where the string or byte literal starting at `i` ends: `"…"`, `b"…"`,
/// `c"…"`, `r#"…"#`, `br"…"`, `b'…'`; `None` if none starts there.
fn literal_end(c: &[char], i: usize) -> Option<usize> {
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let mut j = i;
    if (at(j) == 'b' && matches!(at(j + 1), '"' | 'r' | '\''))
        || (at(j) == 'c' && matches!(at(j + 1), '"' | 'r'))
    {
        j += 1;
    }
    if at(j) == '\'' && j > i {
        // A byte: b'x', b'\''.
        j += if at(j + 1) == '\\' { 3 } else { 2 };
        while j < c.len() && c[j] != '\'' {
            j += 1;
        }
        return Some(j + 1);
    }
    if at(j) == 'r' && matches!(at(j + 1), '"' | '#') {
        let mut hashes = 0;
        let mut k = j + 1;
        while at(k) == '#' {
            hashes += 1;
            k += 1;
        }
        if at(k) != '"' {
            return None;
        }
        k += 1;
        while k < c.len() {
            if c[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                return Some(k + 1 + hashes);
            }
            k += 1;
        }
        return Some(c.len());
    }
    if at(j) == '"' {
        let mut k = j + 1;
        while k < c.len() && c[k] != '"' {
            k += if c[k] == '\\' { 2 } else { 1 };
        }
        return Some(k + 1);
    }
    None
}

fn is(t: &[Tok], i: usize, sym: &str) -> bool {
    matches!(t.get(i), Some(Tok::Sym(s)) if s == sym)
}

fn ident(t: &[Tok], i: usize) -> Option<&str> {
    match t.get(i) {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// The index of the bracket closing the one at `open`.
fn matching(t: &[Tok], open: usize) -> usize {
    let mut depth = 0;
    for (i, tok) in t.iter().enumerate().skip(open) {
        if let Tok::Sym(s) = tok {
            match s.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth -= 1;
                    if depth == 0 {
                        return i;
                    }
                }
                _ => {}
            }
        }
    }
    t.len()
}

/// Whether an attribute's inside is exactly `cfg(test)`.
fn is_cfg_test(inside: &[Tok]) -> bool {
    inside
        == [
            Tok::Ident("cfg".into()),
            Tok::Sym("(".into()),
            Tok::Ident("test".into()),
            Tok::Sym(")".into()),
        ]
}

/// The production code of `t`: without `mod tests { … }` blocks (whatever
/// precedes them) and without each item, field, variant, match arm or
/// statement gated by `#[cfg(test)]`; what follows them is kept.
fn production(t: &[Tok]) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if is(t, i, "#") && is(t, i + 1, "!") && is(t, i + 2, "[") {
            let end = matching(t, i + 2);
            if is_cfg_test(&t[i + 3..end.min(t.len())]) {
                let count = |sym: &str| out.iter().filter(|x| **x == Tok::Sym(sym.into())).count();
                let (open, closed) = (count("{"), count("}"));
                assert_eq!(
                    open, closed,
                    "#![cfg(test)] inside a block: teach the reader"
                );
                return Vec::new();
            }
            out.extend_from_slice(&t[i..=end.min(t.len() - 1)]);
            i = end + 1;
        } else if is(t, i, "#") && is(t, i + 1, "[") {
            let end = matching(t, i + 1);
            if is_cfg_test(&t[i + 2..end.min(t.len())]) {
                i = skip_item(t, end + 1);
            } else {
                out.extend_from_slice(&t[i..=end.min(t.len() - 1)]);
                i = end + 1;
            }
        } else if ident(t, i) == Some("mod")
            && ident(t, i + 1) == Some("tests")
            && is(t, i + 2, "{")
        {
            i = matching(t, i + 2) + 1;
        } else {
            out.push(t[i].clone());
            i += 1;
        }
    }
    out
}

/// The index after the item starting at `i` (its attributes first): an
/// item with a body (`fn`, `mod`, `impl`, `struct`, `enum`, `trait`,
/// `macro_rules!`, a block, a loop) ends with its first block or `;`; any
/// other (`use`, `const`, `let`, a field, a variant, an arm, a statement)
/// at its `;` or `,`, at the end of an arm's block, or before the bracket
/// that closes what holds it.
fn skip_item(t: &[Tok], mut i: usize) -> usize {
    while is(t, i, "#") && is(t, i + 1, "[") {
        i = matching(t, i + 1) + 1;
    }
    let braced = has_body(t, i);
    let mut depth = 0;
    while i < t.len() {
        if let Tok::Sym(s) = &t[i] {
            match s.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    if depth == 0 {
                        return i;
                    }
                    depth -= 1;
                    if depth == 0 && s == "}" && braced {
                        return i + 1;
                    }
                }
                ";" if depth == 0 => return i + 1,
                "," if depth == 0 && !braced => return i + 1,
                "=>" if depth == 0 && !braced && is(t, i + 1, "{") => {
                    let end = matching(t, i + 1) + 1;
                    return if is(t, end, ",") { end + 1 } else { end };
                }
                _ => {}
            }
        }
        i += 1;
    }
    i
}

/// Whether the item at `i` ends with a body: its first block.
fn has_body(t: &[Tok], mut i: usize) -> bool {
    if ident(t, i) == Some("pub") {
        i += 1;
        if is(t, i, "(") {
            i = matching(t, i) + 1;
        }
    }
    loop {
        match ident(t, i) {
            Some("unsafe" | "async" | "extern" | "default" | "auto" | "safe") => i += 1,
            Some("const")
                if matches!(ident(t, i + 1), Some("fn" | "unsafe" | "async" | "extern")) =>
            {
                i += 1
            }
            _ => break,
        }
    }
    is(t, i, "{")
        || matches!(
            ident(t, i),
            Some(
                "fn" | "mod"
                    | "impl"
                    | "struct"
                    | "enum"
                    | "trait"
                    | "union"
                    | "macro_rules"
                    | "for"
                    | "while"
                    | "loop"
                    | "match"
            )
        )
}

/// One leaf of a path or `use` tree: its segments from the first
/// (`crate`, `super`, `self`, `slidedb`, or a module in `lib.rs`), and the
/// name it is brought in as, if renamed.
#[derive(Debug, PartialEq)]
struct Leaf {
    segments: Vec<String>,
    alias: Option<String>,
}

/// The leaves of the path or `use` tree starting at `i`, and the index
/// after it: `a::b`, `a::{b, c::{d, self}}`, `a::*`, `a as b`.
fn tree(t: &[Tok], i: usize) -> (Vec<Leaf>, usize) {
    if is(t, i, "{") {
        let mut leaves = Vec::new();
        let mut j = i + 1;
        while j < t.len() && !is(t, j, "}") {
            let (more, next) = tree(t, j);
            leaves.extend(more);
            j = if next > j { next } else { j + 1 };
        }
        return (leaves, j + 1);
    }
    if is(t, i, "*") {
        let leaf = Leaf {
            segments: vec!["*".into()],
            alias: None,
        };
        return (vec![leaf], i + 1);
    }
    let Some(name) = ident(t, i) else {
        return (Vec::new(), i);
    };
    let next = i + 1;
    if is(t, next, "::")
        && (ident(t, next + 1).is_some() || is(t, next + 1, "{") || is(t, next + 1, "*"))
    {
        let (leaves, end) = tree(t, next + 1);
        let leaves = leaves
            .into_iter()
            .map(|mut l| {
                l.segments.insert(0, name.to_string());
                l
            })
            .collect();
        return (leaves, end);
    }
    let (alias, end) = match (ident(t, next), ident(t, next + 1)) {
        (Some("as"), Some(alias)) => (Some(alias.to_string()), next + 2),
        _ => (None, next),
    };
    let leaf = Leaf {
        segments: vec![name.to_string()],
        alias,
    };
    (vec![leaf], end)
}

/// A path the production code of a file names from the crate's root, its
/// parent or its library: where it stands (the inline `mod name { … }`
/// blocks around it, outermost first) and its segments.
#[derive(Debug)]
struct Named {
    inline: Vec<String>,
    segments: Vec<String>,
}

/// Every path the production code of `text` names that starts at
/// `crate`, `super`, `self` or `slidedb` (`use` trees, and paths in code
/// and types alike).
fn named_paths(text: &str) -> Vec<Named> {
    let t = production(&tokens(text));
    let mut found = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < t.len() {
        if ident(&t, i) == Some("mod")
            && is(&t, i + 2, "{")
            && let Some(name) = ident(&t, i + 1)
        {
            inline.push((name.to_string(), depth));
        }
        if is(&t, i, "{") {
            depth += 1;
        } else if is(&t, i, "}") {
            depth -= 1;
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
        }
        let root = matches!(ident(&t, i), Some("crate" | "super" | "self" | "slidedb"));
        // `a::slidedb::x` names something inside `a`; `::slidedb::x` the
        // crate.
        let inside = i >= 2 && is(&t, i - 1, "::") && ident(&t, i - 2).is_some();
        if root && is(&t, i + 1, "::") && !inside {
            let (leaves, end) = tree(&t, i);
            let here: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
            for leaf in leaves {
                found.push(Named {
                    inline: here.clone(),
                    segments: leaf.segments,
                });
            }
            // The tree's own braces are balanced: skip them.
            i = end;
            continue;
        }
        i += 1;
    }
    found
}

// ---------------------------------------------------------------------
// The rules.

/// What `src/lib.rs` declares: its modules, and each name it re-exports
/// (`pub use board::Board`) with the module it comes from.
struct Root {
    modules: BTreeSet<String>,
    items: BTreeMap<String, String>,
}

/// The modules and re-exports of `lib` (the text of `src/lib.rs`).
fn root_of(lib: &str) -> Root {
    let t = production(&tokens(lib));
    let mut modules = BTreeSet::new();
    let mut items = BTreeMap::new();
    for i in 0..t.len() {
        if ident(&t, i) == Some("mod") && is(&t, i + 2, ";") {
            modules.insert(ident(&t, i + 1).unwrap().to_string());
        }
        if ident(&t, i) == Some("use") && ident(&t, i.wrapping_sub(1)) == Some("pub") {
            for leaf in tree(&t, i + 1).0 {
                let mut segments = leaf.segments.as_slice();
                if segments
                    .first()
                    .is_some_and(|s| s == "crate" || s == "self")
                {
                    segments = &segments[1..];
                }
                if let [module, .., name] = segments {
                    let visible = leaf.alias.clone().unwrap_or(name.clone());
                    items.insert(visible, module.clone());
                }
            }
        }
    }
    Root { modules, items }
}

/// The module a library file is: `src/x.rs` is `x`, `src/a/mod.rs` is `a`,
/// `src/a/b.rs` is `a::b`, `src/lib.rs` the root.
fn module_of(path: &str) -> Vec<String> {
    let inner = path
        .strip_prefix("src/")
        .expect("a library file is under src/");
    let inner = inner.strip_suffix(".rs").expect("a Rust file");
    let mut parts: Vec<String> = inner.split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The top-level modules the library file at `path` (`src/…`) imports, a
/// root re-export counted as the module it comes from; and the paths that
/// name no module or climb above the root, as faults.
fn library_imports(path: &str, text: &str, root: &Root) -> (BTreeSet<String>, Vec<String>) {
    let file = module_of(path);
    let mut found = BTreeSet::new();
    let mut faults = Vec::new();
    for named in named_paths(text) {
        let mut base: Vec<String> = file.iter().chain(&named.inline).cloned().collect();
        let mut segments = named.segments.iter().peekable();
        match segments.next().map(String::as_str) {
            Some("crate") => base.clear(),
            Some("self") => {}
            Some("super") => {
                if base.pop().is_none() {
                    faults.push(format!(
                        "{path}: {} climbs above the root",
                        named.segments.join("::")
                    ));
                    continue;
                }
            }
            _ => continue,
        }
        let mut above = false;
        while let Some(s) = segments.peek() {
            match s.as_str() {
                "super" => above |= base.pop().is_none(),
                "self" => {}
                _ => break,
            }
            segments.next();
        }
        if above {
            faults.push(format!(
                "{path}: {} climbs above the root",
                named.segments.join("::")
            ));
            continue;
        }
        let name = if base.is_empty() {
            match segments.next() {
                Some(name) => name.clone(),
                None => continue,
            }
        } else {
            base[0].clone()
        };
        if root.modules.contains(&name) {
            found.insert(name);
        } else if let Some(module) = root.items.get(&name) {
            found.insert(module.clone());
        } else if name != "*" {
            faults.push(format!(
                "{path}: {} names `{name}`, neither a module nor a re-export of lib.rs",
                named.segments.join("::")
            ));
        }
    }
    (found, faults)
}

/// The imports of the library file at `path` against the layers: upward,
/// forbidden, or naming nothing the root declares.
fn library_faults(path: &str, text: &str, root: &Root) -> Vec<String> {
    let top = module_of(path)
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("{path} is the root"));
    let rank = ORDER
        .iter()
        .position(|m| *m == top)
        .unwrap_or_else(|| panic!("{top} is not in the layers: add it to ORDER"));
    let (names, mut faults) = library_imports(path, text, root);
    for name in names {
        if name == top {
            continue;
        }
        let other = ORDER
            .iter()
            .position(|m| *m == name)
            .unwrap_or_else(|| panic!("{name} is not in the layers: add it to ORDER"));
        if other > rank || FORBIDDEN.contains(&(top.as_str(), name.as_str())) {
            faults.push(format!("{path} imports {name}"));
        }
    }
    faults
}

/// The names under `slidedb::` the front file at `path` (`cli/src/…`,
/// `python/src/…`) names that the fronts' rule refuses: a module outside
/// [`FRONT_MODULES`] (and [`GENERATOR_MODULES`] in the generator), or a
/// root name `lib.rs` does not re-export.
fn front_refusals(path: &str, text: &str, root: &Root) -> BTreeSet<String> {
    let generator = path.starts_with(GENERATOR_DIR);
    let mut refused = BTreeSet::new();
    for named in named_paths(text) {
        let [first, name, ..] = named.segments.as_slice() else {
            continue;
        };
        if first != "slidedb" || name == "self" {
            continue;
        }
        let allowed = root.items.contains_key(name)
            || FRONT_MODULES.contains(&name.as_str())
            || (generator && GENERATOR_MODULES.contains(&name.as_str()));
        if !allowed {
            refused.insert(name.clone());
        }
    }
    refused
}

// ---------------------------------------------------------------------
// The tree.

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Rust files under `dir` (relative to the repository), as relative
/// paths with `/`, sorted.
fn rust_files(dir: &str) -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(&repo().join(dir), &mut found);
    let mut files: Vec<String> = found
        .iter()
        .map(|p| {
            let relative = p.strip_prefix(repo()).unwrap();
            let parts: Vec<&str> = relative.iter().map(|c| c.to_str().unwrap()).collect();
            parts.join("/")
        })
        .collect();
    files.sort();
    files
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap()
}

fn the_root() -> Root {
    root_of(&read("src/lib.rs"))
}

#[test]
fn every_module_imports_only_from_the_layers_below() {
    let root = the_root();
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for file in rust_files("src") {
        if file == "src/lib.rs" {
            continue;
        }
        seen.insert(module_of(&file)[0].clone());
        wrong.extend(library_faults(&file, &read(&file), &root));
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
    let order: BTreeSet<String> = ORDER.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        seen, order,
        "every layer has a module, every module a layer"
    );
    assert_eq!(root.modules, order, "lib.rs declares the layers' modules");
}

#[test]
fn the_fronts_reach_the_library_through_its_engine_requests_and_records() {
    let root = the_root();
    let mut found = BTreeSet::new();
    let mut files = 0;
    for dir in FRONT_DIRS {
        for file in rust_files(dir) {
            files += 1;
            for name in front_refusals(&file, &read(&file), &root) {
                found.insert((file.clone(), name));
            }
        }
    }
    assert!(files > 20, "the fronts' files are read ({files})");
    let known: BTreeSet<(String, String)> = KNOWN
        .iter()
        .map(|(f, m)| (f.to_string(), m.to_string()))
        .collect();
    let new: Vec<String> = found
        .difference(&known)
        .map(|(f, m)| format!("{f} names slidedb::{m}"))
        .collect();
    let stale: Vec<String> = known
        .difference(&found)
        .map(|(f, m)| format!("(\"{f}\", \"{m}\")"))
        .collect();
    assert!(
        new.is_empty(),
        "front files reach inside the library (go through its engine, requests and records):\n{}",
        new.join("\n")
    );
    assert!(
        stale.is_empty(),
        "KNOWN lists imports that are gone: remove them\n{}",
        stale.join("\n")
    );
}

// ---------------------------------------------------------------------
// The test of the test.

/// A root as `lib.rs` declares it, for the planted cases.
fn planted_root() -> Root {
    root_of(
        "pub mod words; pub mod board; pub mod table; pub mod database; pub mod request;\n\
         pub mod records; pub mod verify; pub mod store; pub mod build; pub mod pdb;\n\
         pub mod solver; pub mod rank; mod goals;\n\
         pub use board::{Board, Shape};\n\
         pub use database::Database;\n\
         pub use table::{Table, generate};\n\
         pub use store::write_atomic as write;\n",
    )
}

/// The layers' faults of `text` planted at `path`.
fn library(path: &str, text: &str) -> Vec<String> {
    library_faults(path, text, &planted_root())
}

/// The fronts' refusals of `text` planted at `path`.
fn front(path: &str, text: &str) -> Vec<String> {
    front_refusals(path, text, &planted_root())
        .into_iter()
        .collect()
}

#[test]
fn the_reader_drops_comments_literals_and_tests() {
    let text = r####"
        // crate::database in a line comment
        /// crate::database in a doc comment
        //! crate::database in a module's doc
        /* crate::database /* nested */ crate::database */
        const A: &str = "crate::database \" crate::database";
        const B: &str = r#"crate::database " crate::database"#;
        const C: &[u8] = b"crate::database";
        const D: char = '"'; const E: char = '\''; const F: u8 = b'"';
        fn f<'a>(x: &'a str) -> &'a str { x }
        mod tests { use crate::database; fn g() { crate::verify::x(); } }
        use crate::board::Board;
    "####;
    let names: Vec<Vec<String>> = named_paths(text).into_iter().map(|n| n.segments).collect();
    assert_eq!(names, [["crate", "board", "Board"]]);
}

#[test]
fn the_reader_reads_groups_renames_and_globs() {
    let text = "use crate::{\n    words,\n    table::{\n        Table,\n        generate as g,\n    },\n    board::{self, *},\n};\n";
    let names: Vec<String> = named_paths(text)
        .into_iter()
        .map(|n| n.segments.join("::"))
        .collect();
    assert_eq!(
        names,
        [
            "crate::words",
            "crate::table::Table",
            "crate::table::generate",
            "crate::board::self",
            "crate::board::*"
        ]
    );
}

#[test]
fn the_layer_check_reads_crate_groups() {
    assert_eq!(
        library("src/board.rs", "use crate::{words, database::Database};"),
        ["src/board.rs imports database"]
    );
    assert_eq!(
        library(
            "src/rank.rs",
            "use crate::{\n    words,\n    board::{\n        Board,\n        table::{Table as T},\n    },\n    records,\n};"
        ),
        // board::table does not exist, but the check reads the top only.
        ["src/rank.rs imports records"]
    );
    assert_eq!(
        library(
            "src/rank.rs",
            "use crate::{\n    words,\n    table::{\n        Table,\n    },\n};"
        ),
        ["src/rank.rs imports table"]
    );
    // A root re-export counts as its module.
    assert_eq!(
        library("src/board.rs", "fn f() { let t = crate::generate(); }"),
        ["src/board.rs imports table"]
    );
    assert_eq!(
        library("src/rank.rs", "use crate::write;"),
        ["src/rank.rs imports store"]
    );
    assert_eq!(
        library("src/board.rs", "use crate::nothing;"),
        [
            "src/board.rs: crate::nothing names `nothing`, neither a module nor a re-export of lib.rs"
        ]
    );
}

#[test]
fn the_layer_check_resolves_super_by_the_files_place() {
    // src/x.rs: `super` is the root.
    assert_eq!(
        library("src/solver.rs", "use super::database::Database;"),
        ["src/solver.rs imports database"]
    );
    // src/a/mod.rs: `super` is the root too.
    assert_eq!(
        library("src/pdb/mod.rs", "use super::{board::Board, table::Table};"),
        ["src/pdb/mod.rs imports table"]
    );
    // src/a/b.rs: `super` is `a`, `super::super` the root.
    assert_eq!(
        library("src/table/query.rs", "use super::verify::X;"),
        [] as [&str; 0]
    );
    assert_eq!(
        library("src/table/query.rs", "use super::super::verify::X;"),
        ["src/table/query.rs imports verify"]
    );
    assert_eq!(
        library(
            "src/table/query.rs",
            "fn f() { super::super::solver::go(); }"
        ),
        ["src/table/query.rs imports solver"]
    );
    // `self` is the file's own module.
    assert_eq!(
        library("src/table/query.rs", "use self::verify::X;"),
        [] as [&str; 0]
    );
    // An inline module is one level more.
    assert_eq!(
        library(
            "src/table/query.rs",
            "mod inner { use super::super::verify::X; }"
        ),
        [] as [&str; 0]
    );
    assert_eq!(
        library(
            "src/table/query.rs",
            "mod inner { use super::super::super::verify::X; }\nuse super::super::board::Board;"
        ),
        ["src/table/query.rs imports verify"]
    );
    assert_eq!(
        library("src/board.rs", "use super::super::x;"),
        ["src/board.rs: super::super::x climbs above the root"]
    );
}

#[test]
fn the_layer_check_reads_on_after_test_code() {
    // An item gated by #[cfg(test)] is skipped, the code after it is read.
    let text =
        "#[cfg(test)]\nfn helper() { crate::database::x(); }\nfn real() { crate::request::y(); }\n";
    assert_eq!(
        library("src/board.rs", text),
        ["src/board.rs imports request"]
    );
    // Gated fields, variants, arms and statements, then production code.
    let text = "enum P { Fast, #[cfg(test)] Runs(crate::verify::V), #[cfg(test)] Tables }\n\
                fn f(p: P) -> u8 { match p { P::Fast => 1, #[cfg(test)] P::Runs(_) => { crate::verify::v(); 2 } #[cfg(test)] P::Tables => crate::verify::w(), } }\n\
                struct S { a: u8, #[cfg(test)] #[allow(dead_code)] b: crate::verify::B, c: crate::records::R }\n\
                fn g() { #[cfg(test)] crate::verify::h(); #[cfg(test)] let _x = crate::verify::V; crate::database::open(); }\n\
                #[cfg(test)] use crate::verify;\n\
                #[cfg(test)] impl S { fn t() { crate::verify::t(); } }\n\
                pub(crate) const fn k() -> u8 { crate::request::K }\n";
    assert_eq!(
        library("src/board.rs", text),
        [
            "src/board.rs imports database",
            "src/board.rs imports records",
            "src/board.rs imports request"
        ]
    );
    // A `mod tests` block, whatever precedes it, then production code.
    let text = "#[cfg(test)]\npub(super) mod tests {\n    use crate::database;\n    #[test] fn t() { crate::verify::x(); }\n}\nfn after() { crate::records::r(); }\n";
    assert_eq!(
        library("src/board.rs", text),
        ["src/board.rs imports records"]
    );
    let text = "mod tests { use crate::database; }\nuse crate::records::R;\n";
    assert_eq!(
        library("src/board.rs", text),
        ["src/board.rs imports records"]
    );
    // The same import in a test module or a comment is not reported.
    let text = "// use crate::database;\n/* crate::database */\nconst S: &str = \"crate::database\";\n#[cfg(test)]\nmod tests { use crate::database; }\n";
    assert_eq!(library("src/board.rs", text), [] as [&str; 0]);
}

#[test]
fn the_layer_check_keeps_the_forbidden_pairs() {
    assert_eq!(
        library("src/pdb/ida.rs", "use crate::table::Table;"),
        ["src/pdb/ida.rs imports table"]
    );
    assert_eq!(
        library("src/pdb/ida.rs", "use crate::store::Bytes;"),
        [] as [&str; 0]
    );
}

#[test]
fn the_front_check_refuses_the_librarys_inside() {
    let serve = "cli/src/bin/slidedb/serve/routes.rs";
    assert_eq!(
        front(serve, "use slidedb::{Board, store::Bytes};"),
        ["store"]
    );
    assert_eq!(
        front(
            serve,
            "use slidedb::{\n    Board,\n    records::{SolveRecord, ProbeRecord},\n    table::{\n        MANIFEST_NAME,\n    },\n};"
        ),
        ["table"]
    );
    assert_eq!(front(serve, "use slidedb::build::merge;"), ["build"]);
    assert_eq!(front(serve, "fn f() { ::slidedb::pdb::go(); }"), ["pdb"]);
    // Only what lib.rs re-exports counts as a root item.
    assert_eq!(
        front(serve, "use slidedb::{Board, Shape, generate, write};"),
        [] as [&str; 0]
    );
    assert_eq!(
        front(serve, "use slidedb::{Solver, rank};"),
        ["Solver", "rank"]
    );
    assert_eq!(front(serve, "use slidedb::*;"), ["*"]);
    // The generator may drive the builders, not the rest of the inside.
    let generator = "cli/src/bin/slidedb-gen/main.rs";
    assert_eq!(
        front(
            generator,
            "use slidedb::build::work_files;\nfn f() { slidedb::pdb::Partition::x(); }"
        ),
        ["pdb"]
    );
    assert_eq!(
        front("cli/src/manual.rs", "fn f() { slidedb::build::go() }"),
        ["build"]
    );
    let python = "python/src/table.rs";
    assert_eq!(
        front(python, "fn f() -> &str { slidedb::table::MANIFEST_NAME }"),
        ["table"]
    );
    // After a test item it reads on; tests and comments are not reported.
    assert_eq!(
        front(
            python,
            "#[cfg(test)]\nuse slidedb::store;\nuse slidedb::symmetry::GoalClass;"
        ),
        ["symmetry"]
    );
    let quiet = "// use slidedb::store;\n/// [`slidedb::store::Bytes`]\nconst S: &str = \"slidedb::store\";\n#[cfg(test)]\nmod tests { use slidedb::{Database, pdb}; }\nmod tests { use slidedb::store; }\nuse slidedb::{Database, request::Distance, records, words};\nfn f() { other::slidedb::store::x(); }\n";
    for path in [serve, generator, python] {
        assert_eq!(front(path, quiet), [] as [&str; 0], "{path}");
    }
}
