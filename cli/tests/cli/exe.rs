//! Running the built binaries in tests: each run gets its own data folder
//! (`SLIDEDB_DATA`) and a fresh empty working directory, and fails the test
//! if the program panicked, died by a signal, or wrote into its working
//! directory.

use crate::common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;

pub const SLIDEDB: &str = env!("CARGO_BIN_EXE_slidedb");
pub const SLIDEDB_GEN: &str = env!("CARGO_BIN_EXE_slidedb-gen");

/// The default file name of the 3x3 table with the usual goal.
pub const DEFAULT_3X3: &str = "3x3-1-2-3-4-5-6-7-8-0.slidedb";

/// Runs `exe` with `args`, feeding it `stdin` (or nothing), with `data` as
/// its table folder and a fresh empty working directory. Returns the exit
/// code, stdout and stderr. Fails the test if the child died by a signal,
/// printed panic text, or wrote anything into its working directory.
pub fn run_exe(
    exe: &str,
    args: &[&str],
    stdin: Option<&[u8]>,
    data: &Path,
) -> (i32, String, String) {
    run_in(exe, args, stdin, &[("SLIDEDB_DATA", Some(data))])
}

/// Like [`run_exe`], with the environment changed by `env`: each variable
/// set to a path, or removed (`None`).
pub fn run_in(
    exe: &str,
    args: &[&str],
    stdin: Option<&[u8]>,
    env: &[(&str, Option<&Path>)],
) -> (i32, String, String) {
    let cwd = tempfile::tempdir().expect("temp working directory");
    let mut command = Command::new(exe);
    for (name, value) in env {
        match value {
            Some(v) => command.env(name, v),
            None => command.env_remove(name),
        };
    }
    let mut child = command
        .args(args)
        .current_dir(cwd.path())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
    // Feed stdin from another thread so a child that writes a lot before
    // reading everything cannot deadlock against us.
    let writer = stdin.map(|bytes| {
        let bytes = bytes.to_vec();
        let mut pipe = child.stdin.take().expect("piped stdin");
        thread::spawn(move || {
            // The child may stop reading early; that is not our failure.
            let _ = pipe.write_all(&bytes);
        })
    });
    let output = child.wait_with_output().expect("wait for the child");
    if let Some(w) = writer {
        w.join().expect("stdin writer thread");
    }
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
    let code = output
        .status
        .code()
        .unwrap_or_else(|| panic!("{exe} {args:?} was killed by a signal; stderr:\n{stderr}"));
    assert!(
        !stderr.contains("panicked"),
        "{exe} {args:?} panicked; stderr:\n{stderr}"
    );
    let left: Vec<_> = fs::read_dir(cwd.path())
        .expect("read the working directory")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert!(
        left.is_empty(),
        "{exe} {args:?} wrote into its working directory: {left:?}"
    );
    (code, stdout, stderr)
}

/// Runs `slidedb`.
pub fn run(args: &[&str], stdin: Option<&[u8]>, data: &Path) -> (i32, String, String) {
    run_exe(SLIDEDB, args, stdin, data)
}

/// Runs `slidedb-gen`.
pub fn run_gen(args: &[&str], data: &Path) -> (i32, String, String) {
    run_exe(SLIDEDB_GEN, args, None, data)
}

pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

/// A board from text such as "2 3 4 1 5 x 7 6 8" or "724506831": one cell
/// per whitespace-separated token, or per character when there is a single
/// token; `x` is the blank (0).
pub fn cells(text: &str) -> Vec<u8> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let tokens: Vec<String> = if tokens.len() == 1 {
        tokens[0].chars().map(|c| c.to_string()).collect()
    } else {
        tokens.iter().map(|t| t.to_string()).collect()
    };
    tokens
        .iter()
        .map(|t| match t.as_str() {
            "x" | "X" | "_" | "." => 0,
            n => n.parse().expect("a tile number"),
        })
        .collect()
}

/// The board after every move of `moves`.
pub fn apply(board: &[u8], cols: usize, moves: &str) -> Vec<u8> {
    common::apply_letters(board, cols, moves)
}

/// The board as `slidedb solve --steps` draws it: rows of cells split by a
/// space, the blank as `.`.
pub fn grid(board: &[u8], cols: usize) -> String {
    let mut out = String::new();
    for row in board.chunks(cols) {
        let cells: Vec<String> = row
            .iter()
            .map(|&t| {
                if t == 0 {
                    ".".to_string()
                } else {
                    t.to_string()
                }
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

pub fn is_moves(s: &str) -> bool {
    s.chars().all(|c| matches!(c, 'u' | 'd' | 'l' | 'r'))
}

/// Lines of stderr of the form `slidedb: line N: ...`, as their N.
pub fn stderr_line_numbers(stderr: &str) -> Vec<usize> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("slidedb: line "))
        .map(|rest| {
            let (n, _) = rest.split_once(':').expect("`line N:`");
            n.parse().expect("a line number")
        })
        .collect()
}

/// Builds a 3x3 table with `slidedb-gen --quiet` at `dir/name`.
pub fn gen_table(dir: &Path, name: &str, data: &Path) -> PathBuf {
    let out = dir.join(name);
    let (code, stdout, stderr) = run_gen(&["--quiet", "--out", path_str(&out)], data);
    assert_eq!(code, 0, "slidedb-gen failed: {stderr}");
    assert_eq!(stdout, "");
    assert!(out.is_file());
    out
}

/// Asserts that an error says what to do once: at most one of the
/// library's pieces of advice (each a whole sentence, alternatives
/// included), and no other `rebuild …`/`… again`/`check the path`
/// beside it. A command that shows how to follow the advice
/// (`…, with\n    slidedb-gen …`) is part of it.
pub fn assert_one_advice(err: &str) {
    const ADVICE: [&str; 8] = [
        "copy it again from the process that wrote it, or build the sharded table again",
        "copy it again from a process that wrote it, or build the sharded table again",
        "copy every shard of one finished build into the directory, or build again",
        "use that slidedb, or rebuild it",
        "rebuild it with this one",
        "rebuild it",
        "check the path",
        "listing them again",
    ];
    let mut rest = err.to_string();
    let mut found = Vec::new();
    for advice in ADVICE {
        while let Some(at) = rest.find(advice) {
            found.push(advice);
            rest.replace_range(at..at + advice.len(), "<advice>");
        }
    }
    assert!(
        found.len() <= 1,
        "advice given {} times: {found:?} in {err}",
        found.len()
    );
    for twice in ["rebuild", " again", "check the path"] {
        assert!(
            !rest.contains(twice),
            "{twice:?} beside the advice {found:?} in {err}"
        );
    }
}

/// A 3x3 board whose first tile is a number of `digits` nines, and the
/// refusal every front end gives it: the number as typed, cut with an
/// ellipsis past 40 characters.
pub fn board_with_a_long_number(digits: usize) -> (String, String) {
    let number = "9".repeat(digits);
    let shown = match digits > 40 {
        true => format!("{}…", "9".repeat(40)),
        false => number.clone(),
    };
    (
        format!("{number} 1 2 3 4 5 6 7 0"),
        format!("tile {shown} is out of range: a 3x3 board has tiles 1 to 8"),
    )
}
