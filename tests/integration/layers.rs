//! The library's modules stand in layers: each imports only from those
//! below it (the README's table), so there is no cycle, the read side
//! (`table/`, `pdb/`) never imports a builder, and the engine imports no
//! builder or checker. Read from the sources, outside comments and test
//! modules.

use std::collections::BTreeSet;
use std::path::Path;

/// The top-level modules, lowest first: a module may import those before
/// it, but for [`FORBIDDEN`].
const ORDER: &[&str] = &[
    "words", "board", "search", "system", "format", "rank", "symmetry", "random", "solution",
    "solver", "store", "goals", "bfs", "table", "pdb", "build", "verify", "database", "records",
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

/// The top-level modules `text` imports (`crate::name`), outside comment
/// lines and its `#[cfg(test)]` module.
fn imports(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (at, _) in line.match_indices("crate::") {
            let name: String = line[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            found.insert(name);
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_imports_only_from_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" {
            continue;
        }
        let rank = ORDER
            .iter()
            .position(|m| *m == top)
            .unwrap_or_else(|| panic!("{top} is not in the layers: add it to ORDER"));
        seen.insert(top.clone());
        for name in imports(&std::fs::read_to_string(file).unwrap()) {
            if name == top {
                continue;
            }
            // A re-export at the root (`crate::generate`) names no module.
            let Some(other) = ORDER.iter().position(|m| *m == name) else {
                continue;
            };
            if other > rank || FORBIDDEN.contains(&(top.as_str(), name.as_str())) {
                wrong.push(format!("{} imports {name}", relative.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
    assert_eq!(seen.len(), ORDER.len(), "every layer has a module");
}

/// The check itself finds an upward import, and skips comments and tests.
#[test]
fn the_layer_check_reads_imports() {
    let text = "use crate::board::Board;\n// crate::database in a comment\nfn f() { crate::table::x(); }\n#[cfg(test)]\nmod tests { use crate::solver; }\n";
    let found: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(found, ["board", "table"]);
}
