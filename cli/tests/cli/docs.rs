//! The documents say what the code does: the README's command-line
//! examples are run and their output compared, and the limits FORMAT.md
//! and the README state are the library's constants. (The README's Python
//! session is run by the Python package's tests, as a doctest.)

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::exe::{SLIDEDB, tempdir};

/// The project's file `name`, as text.
fn document(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One `$ command` of an indented example and the lines shown after it.
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The `    $ ` examples of `text`, in order.
fn examples(text: &str) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(command) = line.strip_prefix("    $ ") {
            found.push(Example {
                line: i + 1,
                command: command.to_string(),
                shown: Vec::new(),
            });
            open = true;
        } else if open && (line.starts_with("    ") || line.is_empty()) {
            let last = found.last_mut().expect("open");
            last.shown
                .push(line.strip_prefix("    ").unwrap_or("").to_string());
        } else {
            open = false;
        }
    }
    for example in &mut found {
        while example.shown.last().is_some_and(|l| l.is_empty()) {
            example.shown.pop();
        }
    }
    found
}

/// Whether an example is run here: the 3×3 and 2×3 queries and builds,
/// whose output is exact (no times, no elisions) and takes milliseconds.
fn runs_here(example: &Example) -> bool {
    let c = &example.command;
    let heavy = [
        "3x4", "4x4", "5x5", "2x7", "compare", "verify", "curl", "serve", "hosts", "cat ", "mkdir",
        "merge", "\\",
    ];
    (c.starts_with("slidedb ") || c.starts_with("printf ") || c.starts_with("slidedb-gen "))
        && !heavy.iter().any(|h| c.contains(h))
}

/// Every quick command-line example of the README prints what the README
/// shows: stdout line for line, and the lines it shows from stderr
/// (after stdout, as a terminal would show them here) among stderr's.
#[test]
fn the_readmes_examples_print_what_it_shows() {
    let text = document("README.md");
    let all = examples(&text);
    assert!(all.len() > 20, "the README's examples were not found");
    let bin = Path::new(SLIDEDB).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let data = tempdir();
    let cwd = tempdir();
    let mut ran = 0;
    for example in all.iter().filter(|e| runs_here(e)) {
        let out = Command::new("bash")
            .args(["-c", &example.command])
            .env("PATH", &path)
            .env("SLIDEDB_DATA", data.path())
            .current_dir(cwd.path())
            .output()
            .expect("run bash");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        if example.command.starts_with("slidedb-gen ")
            || example.shown.iter().any(|l| l.contains("..."))
        {
            // A build (its lines hold times) or an elided output: it ran.
            assert!(
                out.status.code().is_some_and(|c| c < 2),
                "README line {}: {}\n{stderr}",
                example.line,
                example.command
            );
            continue;
        }
        let mut printed: Vec<&str> = stdout.lines().collect();
        while printed.last().is_some_and(|l| l.is_empty()) {
            printed.pop();
        }
        let shown: Vec<&str> = example.shown.iter().map(String::as_str).collect();
        assert!(
            shown.len() >= printed.len() && shown[..printed.len()] == printed[..],
            "README line {}: `{}` prints\n{stdout}\nbut the README shows\n{}",
            example.line,
            example.command,
            shown.join("\n")
        );
        for line in &shown[printed.len()..] {
            assert!(
                stderr.lines().any(|l| l == *line),
                "README line {}: `{}` says on stderr\n{stderr}\nnot {line:?}",
                example.line,
                example.command
            );
        }
        ran += 1;
    }
    assert!(ran >= 12, "only {ran} examples ran");
}

/// The limits the documents state are the library's constants.
#[test]
fn the_documents_state_the_librarys_limits() {
    let format = document("FORMAT.md");
    let cols = format
        .lines()
        .find(|l| l.starts_with("| `cols` |"))
        .expect("FORMAT.md's cols row");
    assert!(
        cols.contains(&format!("rows × cols ≤ {}", slidedb::MAX_TABLE_CELLS)),
        "{cols}"
    );
    let readme = document("README.md");
    for (pattern, limit) in [
        ("board of up to {} cells", slidedb::MAX_TABLE_CELLS),
        ("Full tables stay at {} cells", slidedb::MAX_TABLE_CELLS),
        ("full tables go up to {} cells", slidedb::MAX_TABLE_CELLS),
        (
            "The in-memory build (up to {} cells)",
            slidedb::MAX_IN_MEMORY_CELLS,
        ),
        (
            "both sides at least 2, at most {} cells",
            slidedb::MAX_CELLS,
        ),
    ] {
        let numbers = numbers_in(&readme, pattern);
        assert!(!numbers.is_empty(), "README.md never says {pattern:?}");
        assert!(
            numbers.iter().all(|&n| n == limit),
            "README.md says {pattern:?} with {numbers:?}, the library's limit is {limit}"
        );
    }
}

/// The limits docs/ states (no message is quoted there) are the
/// library's too.
#[test]
fn the_notes_in_docs_state_the_librarys_limits() {
    let scale = document("docs/scale.md");
    for pattern in ["refuses boards past {} cells", "refuses more than {} cells"] {
        let numbers = numbers_in(&scale, pattern);
        assert!(!numbers.is_empty(), "docs/scale.md never says {pattern:?}");
        assert!(
            numbers.iter().all(|&n| n == slidedb::MAX_TABLE_CELLS),
            "docs/scale.md says {pattern:?} with {numbers:?}"
        );
    }
}

/// Every number that fills the `{}` of `pattern` in `text`.
fn numbers_in(text: &str, pattern: &str) -> Vec<usize> {
    let (before, after) = pattern.split_once("{}").expect("a {} in the pattern");
    text.match_indices(before)
        .filter_map(|(at, _)| {
            let rest = &text[at + before.len()..];
            let digits = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let number = rest[..digits].parse().ok()?;
            rest[digits..].starts_with(after).then_some(number)
        })
        .collect()
}
