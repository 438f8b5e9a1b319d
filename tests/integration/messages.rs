//! The library's messages name no command-line option: a library error
//! states its fix in the library's terms (a process by its number in the
//! hosts list, a table by its file), and each front end adds its own flag
//! words. Read from the string literals of `src/`, outside comments and
//! test modules.

use std::path::{Path, PathBuf};

/// The string literals of Rust source `text` outside `mod tests { … }`
/// blocks and outside comments, each with its line (from 1). Enough of
/// Rust's lexical rules for this: line and block comments, strings with
/// escapes, raw strings (`r"…"`, `r#"…"#`, with a `b` or `c` before),
/// character literals told from lifetimes.
fn literals(text: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let (mut i, mut line, mut depth) = (0, 1, 0usize);
    // The brace depth inside which a test module's body lies.
    let mut tests: Option<usize> = None;
    // The last word, to see `mod tests` come.
    let mut words: Vec<String> = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if next == Some('*') => {
                let mut nested = 0;
                while i < chars.len() {
                    if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                        nested += 1;
                        i += 2;
                    } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                        nested -= 1;
                        i += 2;
                        if nested == 0 {
                            break;
                        }
                    } else {
                        line += (chars[i] == '\n') as usize;
                        i += 1;
                    }
                }
            }
            '{' => {
                if words.len() >= 2
                    && words[words.len() - 2] == "mod"
                    && words[words.len() - 1] == "tests"
                    && tests.is_none()
                {
                    tests = Some(depth);
                }
                words.clear();
                depth += 1;
                i += 1;
            }
            '}' => {
                depth -= 1;
                if tests == Some(depth) {
                    tests = None;
                }
                words.clear();
                i += 1;
            }
            '"' => {
                let start = line;
                let mut value = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        value.push(chars[i]);
                        i += 1;
                    }
                    line += (chars[i] == '\n') as usize;
                    value.push(chars[i]);
                    i += 1;
                }
                i += 1;
                if tests.is_none() {
                    found.push((start, value));
                }
            }
            '\'' => {
                // A character literal ('x', '\n', '\u{..}'), or a lifetime.
                if next == Some('\\') {
                    i += 3;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if chars.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            c if ident(c) => {
                let mut word = String::new();
                while i < chars.len() && ident(chars[i]) {
                    word.push(chars[i]);
                    i += 1;
                }
                let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
                if matches!(word.as_str(), "r" | "br" | "cr") && chars.get(i + hashes) == Some(&'"')
                {
                    // A raw string: no escapes, closed by `"` and as many `#`.
                    let close: String = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    let body: String = chars[i + hashes + 1..].iter().collect();
                    let end = body.find(&close).expect("a raw string closes");
                    let value = body[..end].to_string();
                    if tests.is_none() {
                        found.push((line, value.clone()));
                    }
                    line += value.matches('\n').count();
                    i += hashes + 1 + value.chars().count() + close.chars().count();
                    continue;
                }
                words.push(word);
            }
            ';' => {
                words.clear();
                i += 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// Whether `literal` names a command-line option: `--` then a letter.
fn names_an_option(literal: &str) -> bool {
    literal
        .as_bytes()
        .windows(3)
        .any(|w| w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_alphabetic())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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
fn no_library_message_names_a_command_line_option() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "the sources are found: {files:?}");
    let mut wrong = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for (line, literal) in literals(&text) {
            if names_an_option(&literal) {
                let at = path.strip_prefix(&src).unwrap().display();
                wrong.push(format!("src/{at}:{line}: {literal:?}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "library messages that name a command-line option (state the fix in the library's terms; the front end adds its flags):\n{}",
        wrong.join("\n")
    );
}

/// The reader finds what it must and skips what it must: a planted
/// option in a message, a raw or byte string and a multi-line string is
/// found (after a test module too, at its line); one in a comment, a doc
/// comment or a test module is not, nor `--` before a space.
#[test]
fn the_reader_finds_options_in_messages_only() {
    let planted = r###"
//! Run it with --force.
/// Give --out DIR.
fn f<'a>(x: &'a str) -> String {
    let c = '"';
    let d = '\'';
    let b = br"--bytes";
    /* "--block" */
    let e = "use --process 3";
    let r = r#"raw "--workers" here"#;
    let m = "a message
over two lines: --memory";
    format!("{x}{c}{d}{e}{r}{m}{b:?}-- x")
}
#[cfg(test)]
mod tests {
    fn g() { let _ = "--in-a-test"; let _ = '{'; }
}
fn h() { let _ = "after the tests --after"; }
"###;
    let named: Vec<(usize, String)> = literals(planted)
        .into_iter()
        .filter(|(_, l)| names_an_option(l))
        .collect();
    let lines: Vec<usize> = named.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [7, 9, 10, 11, 19], "{named:?}");
    assert_eq!(named[0].1, "--bytes");
    assert!(named[1].1.contains("--process 3"), "{named:?}");
    assert!(named[2].1.contains("\"--workers\""), "{named:?}");
    assert!(!names_an_option("-- x"));
    assert!(!names_an_option("a - b"));
}
