//! End-to-end tests of the `slidedb` and `slidedb-gen` binaries.
//!
//! Every test runs the built binaries as child processes with its own
//! table folder (`SLIDEDB_DATA`) and its own working directory, both
//! temporary, so nothing is read from or written into the repository.

use crate::common;
use crate::exe::*;

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

#[test]
fn solve_readme_board_exact_and_valid() {
    let data = tempdir();
    let board = "2 3 4 1 5 x 7 6 8";
    let (code, stdout, stderr) = run(&["solve", board], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "stdout: {stdout:?}");
    assert!(stdout.ends_with('\n'));
    let moves = lines[0];
    assert_eq!(moves.len(), 19, "moves: {moves:?}");
    assert!(is_moves(moves), "moves: {moves:?}");
    assert_eq!(apply(&cells(board), 3, moves), cells("1 2 3 4 5 6 7 8 0"));
    assert_eq!(moves, "ullddrurdllurdruldr");
}

#[test]
fn solve_with_goal_blank_first() {
    let data = tempdir();
    let (code, stdout, stderr) = run(
        &["solve", "724506831", "--goal", "012345678"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "stdout: {stdout:?}");
    let moves = lines[0];
    assert_eq!(moves.len(), 26, "moves: {moves:?}");
    assert!(is_moves(moves), "moves: {moves:?}");
    assert_eq!(apply(&cells("724506831"), 3, moves), cells("012345678"));
    // Its goal has the blank in a corner: the corner class's table serves
    // it, renamed and rotated, and is the only table built.
    let built: Vec<_> = fs::read_dir(data.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(built, ["3x3-1-2-3-4-5-6-7-8-0.slidedb"]);
}

#[test]
fn solve_solved_board_prints_empty_line() {
    let data = tempdir();
    let (code, stdout, stderr) = run(&["solve", "1 2 3 4 5 6 7 8 0"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "\n");
}

#[test]
fn solve_unsolvable_exits_1() {
    let data = tempdir();
    let (code, stdout, stderr) = run(&["solve", "2 1 3 4 5 6 7 8 0"], None, data.path());
    assert_eq!(stdout, "unsolvable\n");
    assert_eq!(code, 1, "stderr: {stderr}");
}

#[test]
fn solve_invalid_board_exits_2() {
    let data = tempdir();
    let (code, stdout, stderr) = run(&["solve", "1 2 3"], None, data.path());
    assert_eq!(stdout, "invalid\n");
    assert_eq!(code, 2);
    assert!(
        stderr.contains("slidedb: board 1:"),
        "stderr names the board: {stderr:?}"
    );
}

#[test]
fn solve_unsolvable_and_invalid_exits_2() {
    let data = tempdir();
    let (code, stdout, stderr) = run(
        &["solve", "2 1 3 4 5 6 7 8 0", "1 2 3", "1 2 3 4 5 6 7 0 8"],
        None,
        data.path(),
    );
    assert_eq!(stdout, "unsolvable\ninvalid\nr\n");
    assert_eq!(code, 2);
    assert!(stderr.contains("slidedb: board 2:"), "stderr: {stderr:?}");
    assert!(!stderr.contains("board 1:"), "stderr: {stderr:?}");
    assert!(!stderr.contains("board 3:"), "stderr: {stderr:?}");
}

/// Lines: solvable, invalid, empty, solved with CRLF, unsolvable, and a
/// last one without a newline.
const BATCH: &[u8] =
    b"2 3 4 1 5 x 7 6 8\n1 2 3\n\n1 2 3 4 5 6 7 8 0\r\n2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 0 8";

#[test]
fn solve_stdin_batch_one_line_per_input() {
    let data = tempdir();
    let (code, stdout, stderr) = run(&["solve"], Some(BATCH), data.path());
    assert_eq!(
        stdout,
        "ullddrurdllurdruldr\ninvalid\ninvalid\n\nunsolvable\nr\n"
    );
    assert_eq!(code, 2);
    assert_eq!(stderr_line_numbers(&stderr), vec![2, 3], "stderr: {stderr}");
}

#[test]
fn solve_stdin_crlf_invalid_line_and_no_final_newline() {
    let data = tempdir();
    let input = b"1 2 3 4 5 6 7 0 8\r\n1 2\r\n1 2 3 4 5 6 0 7 8";
    let (code, stdout, stderr) = run(&["solve"], Some(input), data.path());
    assert_eq!(stdout, "r\ninvalid\nrr\n");
    assert_eq!(code, 2);
    assert_eq!(stderr_line_numbers(&stderr), vec![2], "stderr: {stderr}");
}

#[test]
fn solve_dash_reads_stdin_in_place() {
    let data = tempdir();
    let (code, stdout, stderr) = run(
        &["solve", "1 2 3 4 5 6 0 7 8", "-", "1 2 3 4 5 6 7 8 0"],
        Some(b"1 2 3 4 5 6 7 0 8\n2 1 3 4 5 6 7 8 0\n"),
        data.path(),
    );
    assert_eq!(stdout, "rr\nr\nunsolvable\n\n");
    assert_eq!(code, 1, "stderr: {stderr}");
}

#[test]
fn solve_json_lines() {
    let data = tempdir();
    let input = b"2 3 4 1 5 x 7 6 8\n1 2 3\r\n2 1 3 4 5 6 7 8 0\n\n1 2 3 4 5 6 7 8 0";
    let (code, stdout, stderr) = run(&["solve", "--json"], Some(input), data.path());
    assert_eq!(code, 2, "stderr: {stderr}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {l:?}: {e}")))
        .collect();
    assert_eq!(lines.len(), 5, "stdout: {stdout}");

    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().expect("an object").keys().cloned().collect();
        k.sort();
        k
    };
    let answer_keys = ["board", "distance", "goal", "moves", "solvable"];
    let invalid_keys = ["error", "input", "line"];

    let solved = &lines[0];
    assert_eq!(keys(solved), answer_keys);
    assert_eq!(solved["board"], "2 3 4 1 5 0 7 6 8");
    assert_eq!(solved["goal"], "1 2 3 4 5 6 7 8 0");
    assert_eq!(solved["solvable"], true);
    assert_eq!(solved["distance"], 19);
    assert_eq!(solved["moves"], "ullddrurdllurdruldr");

    let bad = &lines[1];
    assert_eq!(keys(bad), invalid_keys);
    assert_eq!(bad["line"], 2);
    assert_eq!(bad["input"], "1 2 3");
    assert!(
        bad["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{bad}"
    );

    let unsolvable = &lines[2];
    assert_eq!(keys(unsolvable), answer_keys);
    assert_eq!(unsolvable["board"], "2 1 3 4 5 6 7 8 0");
    assert_eq!(unsolvable["solvable"], false);
    assert!(unsolvable["distance"].is_null(), "{unsolvable}");
    assert!(unsolvable["moves"].is_null(), "{unsolvable}");

    let empty = &lines[3];
    assert_eq!(keys(empty), invalid_keys);
    assert_eq!(empty["line"], 4);
    assert_eq!(empty["input"], "");
    assert!(empty["error"].as_str().is_some_and(|e| !e.is_empty()));

    let done = &lines[4];
    assert_eq!(keys(done), answer_keys);
    assert_eq!(done["solvable"], true);
    assert_eq!(done["distance"], 0);
    assert_eq!(done["moves"], "");

    assert_eq!(stderr_line_numbers(&stderr), vec![2, 4], "stderr: {stderr}");
}

#[test]
fn solve_steps_prints_moves_then_grids() {
    let data = tempdir();
    let board = "8 6 7 2 5 4 3 0 1"; // one of the two hardest boards
    let (code, stdout, stderr) = run(&["solve", "--steps", board], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let (first, rest) = stdout.split_once('\n').expect("a first line");
    assert_eq!(first.len(), 31, "moves: {first:?}");
    assert!(is_moves(first), "moves: {first:?}");
    assert_eq!(apply(&cells(board), 3, first), cells("1 2 3 4 5 6 7 8 0"));

    // Then, for every step, a header and the grid after that many moves.
    let mut here = cells(board);
    let mut expected = format!("\nstep 0 of 31\n{}", grid(&here, 3));
    for (i, letter) in first.chars().enumerate() {
        common::apply_letter(&mut here, 3, letter);
        expected.push_str(&format!(
            "\nstep {} of 31: {letter}\n{}",
            i + 1,
            grid(&here, 3)
        ));
    }
    expected.push('\n');
    assert_eq!(rest, expected);
    assert!(rest.ends_with("1 2 3\n4 5 6\n7 8 .\n\n"));
}

#[test]
fn solve_size_2x3_and_ambiguous_six_cells() {
    let data = tempdir();
    let (code, stdout, stderr) = run(&["solve", "--size", "2x3", "123405"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "r\n");
    assert!(data.path().join("2x3-1-2-3-4-5-0.slidedb").is_file());

    let (code, stdout, stderr) = run(&["solve", "123405"], None, data.path());
    assert_eq!(code, 2);
    assert_eq!(stdout, "invalid\n");
    assert!(stderr.contains("2x3 or 3x2"), "stderr: {stderr:?}");
}

#[test]
fn first_solve_builds_and_saves_the_table() {
    let data = tempdir();
    let file = data.path().join(DEFAULT_3X3);
    assert!(!file.exists());
    let (code, stdout, stderr) = run(&["solve", "1 2 3 4 5 6 7 0 8"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "r\n");
    assert!(stderr.contains("built"), "stderr: {stderr:?}");
    assert!(stderr.contains(DEFAULT_3X3), "stderr: {stderr:?}");
    assert!(file.is_file(), "{} was not created", file.display());
    let saved = fs::read(&file).expect("read the table");

    let (code, stdout, stderr) = run(&["solve", "1 2 3 4 5 6 7 0 8"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "r\n");
    assert!(!stderr.contains("built"), "stderr: {stderr:?}");
    assert_eq!(fs::read(&file).expect("read the table"), saved);
}

#[test]
fn gen_refuses_to_overwrite_without_force() {
    let data = tempdir();
    let dir = tempdir();
    let out = dir.path().join("t.slidedb");
    let out_s = path_str(&out);

    let (code, stdout, stderr) = run_gen(&["--out", out_s], data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "");
    assert!(!stderr.is_empty(), "progress is reported without --quiet");
    let first = fs::read(&out).expect("the table was written");
    assert!(first.starts_with(b"SLIDEDB\0"));

    // An existing file is left alone without --force: check with a
    // sentinel, so that rewriting the same bytes would also be caught.
    fs::write(&out, b"sentinel").expect("write sentinel");
    let (code, _, stderr) = run_gen(&["--out", out_s], data.path());
    assert_eq!(code, 2);
    assert!(stderr.contains("--force"), "stderr: {stderr:?}");
    assert_eq!(fs::read(&out).expect("read"), b"sentinel");
    let (code, _, _) = run_gen(&["--quiet", "--out", out_s], data.path());
    assert_eq!(code, 2);
    assert_eq!(fs::read(&out).expect("read"), b"sentinel");

    let (code, stdout, stderr) = run_gen(&["--force", "--out", out_s], data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "");
    assert_eq!(fs::read(&out).expect("read"), first);

    // No temporary files are left beside it, nothing in the data folder.
    let names: Vec<_> = fs::read_dir(dir.path())
        .expect("read")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("t.slidedb")]);
    assert_eq!(fs::read_dir(data.path()).expect("read").count(), 0);
}

#[test]
fn gen_quiet_prints_nothing() {
    let data = tempdir();
    let dir = tempdir();
    let out = dir.path().join("q.slidedb");
    let (code, stdout, stderr) = run_gen(&["--quiet", "--out", path_str(&out)], data.path());
    assert_eq!(code, 0);
    assert_eq!(stdout, "");
    assert_eq!(stderr, "");
    assert!(out.is_file());
    let (code, stdout, stderr) = run_gen(
        &["--quiet", "--force", "--out", path_str(&out)],
        data.path(),
    );
    assert_eq!(code, 0);
    assert_eq!(stdout, "");
    assert_eq!(stderr, "");
}

#[test]
fn gen_default_output_is_in_data_folder() {
    let data = tempdir();
    let (code, _, stderr) = run_gen(&["--quiet"], data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(data.path().join(DEFAULT_3X3).is_file());
    // slidedb then finds it there instead of building one.
    let (code, stdout, stderr) = run(&["solve", "1 2 3 4 5 6 7 0 8"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "r\n");
    assert!(!stderr.contains("built"), "stderr: {stderr:?}");
}

#[test]
fn solve_with_explicit_table() {
    let data = tempdir();
    let dir = tempdir();
    let table = gen_table(dir.path(), "mine.slidedb", data.path());
    let (code, stdout, stderr) = run(
        &[
            "solve",
            "--table",
            path_str(&table),
            "2 3 4 1 5 x 7 6 8",
            "2 1 3 4 5 6 7 8 0",
        ],
        None,
        data.path(),
    );
    assert_eq!(stdout, "ullddrurdllurdruldr\nunsolvable\n");
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(!stderr.contains("built"), "stderr: {stderr:?}");
    // The given table was used: nothing was built into the data folder.
    assert_eq!(fs::read_dir(data.path()).expect("read").count(), 0);

    // A board of another size cannot use it.
    let (code, stdout, stderr) = run(
        &[
            "solve",
            "--table",
            path_str(&table),
            "--size",
            "2x3",
            "123405",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.contains("2x3"), "stderr: {stderr:?}");
}

#[test]
fn stats_json() {
    let data = tempdir();
    let (code, stdout, stderr) = run(&["stats", "--json"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout.lines().count(), 1, "stdout: {stdout}");
    let v: Value = serde_json::from_str(&stdout).expect("stats JSON");
    assert_eq!(v["states"], 181440);
    assert_eq!(v["max_distance"], 31);
    assert_eq!(v["size"], "3x3");
    assert_eq!(v["goal"], "1 2 3 4 5 6 7 8 0");
    let layers: Vec<u64> = v["layers"]
        .as_array()
        .expect("layers")
        .iter()
        .map(|l| l.as_u64().expect("a count"))
        .collect();
    assert_eq!(layers.len(), 32);
    assert_eq!(layers.iter().sum::<u64>(), 181440);
    assert_eq!(layers[0], 1);
    assert_eq!(layers[31], 2);
    let hardest: Vec<&str> = v["hardest"]
        .as_array()
        .expect("hardest")
        .iter()
        .map(|h| h.as_str().expect("a board"))
        .collect();
    assert!(hardest.contains(&"8 6 7 2 5 4 3 0 1"), "{hardest:?}");
    assert!(hardest.contains(&"6 4 7 8 5 0 3 2 1"), "{hardest:?}");
    assert_eq!(hardest.len(), 2);
}

#[test]
fn stats_plain() {
    let data = tempdir();
    let (code, stdout, stderr) = run(&["stats"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(stdout.contains("181440"), "stdout: {stdout}");
    assert!(stdout.contains("31"), "stdout: {stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("states") && l.ends_with(" 181440")),
        "stdout: {stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("max distance") && l.ends_with(" 31")),
        "stdout: {stdout}"
    );
}

/// `slidedb solve` and `slidedb stats` with `--table bad` both exit 2 with
/// an error on stderr and nothing on stdout.
fn assert_bad_table(bad: &Path, data: &Path) {
    let bad_s = path_str(bad);
    for args in [
        vec!["solve", "--table", bad_s, "1 2 3 4 5 6 7 0 8"],
        vec!["stats", "--table", bad_s],
    ] {
        let (code, stdout, stderr) = run(&args, None, data);
        assert_eq!(code, 2, "{args:?}: stdout {stdout:?}, stderr {stderr:?}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains("slidedb: error:"), "{args:?}: {stderr:?}");
        assert_one_advice(&stderr);
    }
}

#[test]
fn table_that_is_a_text_file() {
    let data = tempdir();
    let dir = tempdir();
    let text = dir.path().join("notes.txt");
    fs::write(&text, "this is not a table\n").expect("write");
    assert_bad_table(&text, data.path());
    let empty = dir.path().join("empty.slidedb");
    fs::write(&empty, b"").expect("write");
    assert_bad_table(&empty, data.path());
}

#[test]
fn table_truncated_or_damaged() {
    let data = tempdir();
    let dir = tempdir();
    let good = gen_table(dir.path(), "good.slidedb", data.path());
    let bytes = fs::read(&good).expect("read");
    for (name, len) in [
        ("header.slidedb", 10),
        ("half.slidedb", bytes.len() / 2),
        ("short.slidedb", bytes.len() - 1),
    ] {
        let cut = dir.path().join(name);
        fs::write(&cut, &bytes[..len]).expect("write");
        assert_bad_table(&cut, data.path());
    }
    // One flipped byte in the body.
    let mut flipped = bytes.clone();
    let at = bytes.len() * 3 / 4;
    flipped[at] ^= 0xff;
    let damaged = dir.path().join("damaged.slidedb");
    fs::write(&damaged, &flipped).expect("write");
    assert_bad_table(&damaged, data.path());
    // Extra bytes at the end.
    let mut longer = bytes.clone();
    longer.extend_from_slice(b"junk");
    let long = dir.path().join("long.slidedb");
    fs::write(&long, &longer).expect("write");
    assert_bad_table(&long, data.path());
    // A missing file.
    assert_bad_table(&dir.path().join("missing.slidedb"), data.path());
}

/// The command a damaged table's error suggests is one `slidedb-gen`
/// accepts: through a symbolic link it names the file linked to, and for a
/// directory of shards it is the distributed build. Run as suggested (with
/// the size the table was built with), it rebuilds the table, and the same
/// query answers.
#[test]
fn a_damaged_tables_hint_is_a_command_that_works() {
    let data = tempdir();
    let dir = tempdir();
    let damage = |file: &Path| {
        let mut bytes = fs::read(file).expect("read");
        let at = bytes.len() - 100;
        bytes[at] ^= 0xff;
        fs::write(file, bytes).expect("write");
    };
    let file = gen_table(dir.path(), "t.slidedb", data.path());
    damage(&file);
    let link = dir.path().join("link.slidedb");
    std::os::unix::fs::symlink(&file, &link).expect("symlink");
    let shards = dir.path().join("shards");
    let (code, _, err) = run_gen(
        &[
            "--size",
            "2x4",
            "--workers",
            "2",
            "--out",
            path_str(&shards),
            "--quiet",
        ],
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    damage(&shards.join("shard-0-of-2.slidedb"));
    for (table, board, size) in [
        (&link, "1 2 3 4 5 6 7 0 8", "3x3"),
        (&shards, "1 2 3 4 5 6 0 7", "2x4"),
    ] {
        let solve = ["solve", "--table", path_str(table), board];
        let (code, _, err) = run(&solve, None, data.path());
        assert_eq!(code, 2, "{err}");
        // The command runs to the end of its line, or to what it leaves
        // to the user in brackets.
        let suggested = err
            .split_once("slidedb-gen ")
            .and_then(|(_, rest)| rest.lines().next())
            .map(|command| command.split(" (").next().unwrap_or(command))
            .unwrap_or_else(|| panic!("no command in {err}"));
        assert_one_advice(&err);
        let mut args: Vec<&str> = suggested.split_whitespace().collect();
        if !args.contains(&"--size") {
            args.extend(["--size", size]);
        }
        args.push("--quiet");
        let (code, _, gen_err) = run_gen(&args, data.path());
        assert_eq!(code, 0, "{err}\nsuggested {args:?}: {gen_err}");
        let (code, out, err) = run(&solve, None, data.path());
        assert_eq!((code, out.as_str()), (0, "r\n"), "{err}");
    }
}

#[test]
fn solve_survives_closed_stdout() {
    let data = tempdir();
    let cwd = tempdir();
    // Build the table first so the run below does nothing but answer.
    let (code, _, _) = run(&["solve", "1 2 3 4 5 6 7 8 0"], None, data.path());
    assert_eq!(code, 0);

    // The deadline runs from the start: no blocking call below waits past it.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut child = Command::new(SLIDEDB)
        .arg("solve")
        .env("SLIDEDB_DATA", data.path())
        .current_dir(cwd.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start slidedb");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = thread::spawn(move || {
        let line = b"2 3 4 1 5 x 7 6 8\n";
        for _ in 0..100_000 {
            // The child stops reading once its stdout is gone.
            if stdin.write_all(line).is_err() {
                break;
            }
        }
    });
    // Read the first answer in a thread, so that waiting for it is bounded
    // by the deadline; then close stdout.
    let stdout = child.stdout.take().expect("stdout");
    let (sender, receiver) = std::sync::mpsc::channel();
    thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        let mut first = String::new();
        let read = stdout.read_line(&mut first).map(|_| first);
        let _ = sender.send(read);
        // `stdout` is dropped here: the pipe closes.
    });
    let wait = deadline.saturating_duration_since(Instant::now());
    let first = match receiver.recv_timeout(wait) {
        Ok(read) => read.expect("read one line"),
        Err(_) => {
            let _ = child.kill();
            panic!("slidedb gave no first answer before the deadline");
        }
    };
    assert_eq!(first, "ullddrurdllurdruldr\n");

    let mut err_pipe = child.stderr.take().expect("stderr");
    let reader = thread::spawn(move || {
        let mut text = String::new();
        err_pipe.read_to_string(&mut text).expect("read stderr");
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("slidedb did not exit after its stdout was closed");
        }
        thread::sleep(Duration::from_millis(20));
    };
    writer.join().expect("writer thread");
    let stderr = reader.join().expect("stderr reader thread");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert_eq!(
        status.code(),
        Some(0),
        "a closed stdout ends the run quietly; stderr: {stderr}"
    );
}

/// A batch stops at the first board whose table cannot be had (missing and
/// too big to build here): the lines before it are answered, and one
/// message names the line and the slidedb-gen command that builds the
/// table. `invalid` stays for lines that are not boards.
#[test]
fn a_batch_stops_at_the_first_board_whose_table_cannot_be_had() {
    let data = tempdir();
    let input = b"1 2 3 4 5 6 7 0 8\nnot a board\n1 2 3 4/5 6 7 8/9 10 0 11\n1 2 3 4 5 6 7 8 0\n2 1 3 4/5 6 7 8/9 10 0 11\n";
    let (code, out, err) = run(&["solve"], Some(input), data.path());
    assert_eq!(out, "r\ninvalid\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("line 3") && err.contains("slidedb-gen --size 3x4"),
        "{err}"
    );
    assert_eq!(err.matches("slidedb-gen").count(), 1, "{err}");
    assert_eq!(err.matches("slidedb: error").count(), 1, "{err}");
}

/// A board of 10 to 12 cells without its table names the command that
/// builds it (such tables are not built on the fly).
#[test]
fn big_board_without_a_table_names_the_generator_command() {
    let data = tempdir();
    let (code, out, err) = run(
        &["solve", "--size", "2x5", "1 2 3 4 5 6 7 8 0 9"],
        None,
        data.path(),
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("slidedb-gen --size 2x5 --goal \"1 2 3 4 5 6 7 8 9 0\""),
        "{err}"
    );
}

/// A line longer than 64 KiB is `invalid` without holding it in memory,
/// and the lines after it are still answered.
#[test]
fn an_over_long_line_is_invalid_and_the_rest_answered() {
    let data = tempdir();
    let mut input = vec![b'1'; 3 << 20];
    input.extend_from_slice(b"\n1 2 3 4 5 6 7 0 8\n");
    let (code, out, err) = run(&["solve"], Some(&input), data.path());
    assert_eq!((code, out.as_str()), (2, "invalid\nr\n"));
    assert!(
        err.contains("line 1: the line is longer than 65536 bytes"),
        "{err}"
    );
}

/// A FIFO or a directory passed as the table is refused at once, never
/// waited on.
#[test]
fn table_that_is_not_a_regular_file() {
    let data = tempdir();
    let fifo = data.path().join("fifo");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let (code, _, err) = run(&["stats", "--table", path_str(&fifo)], None, data.path());
    assert_eq!(code, 2);
    assert!(err.contains("not a regular file"), "{err}");
    let (code, _, err) = run(
        &["stats", "--table", path_str(data.path())],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("is a directory"), "{err}");
}

/// An unreadable table names the file and the reason once.
#[test]
fn missing_table_file_is_named_once() {
    let data = tempdir();
    let missing = data.path().join("nope.slidedb");
    let (code, _, err) = run(
        &["solve", "--table", path_str(&missing), "1 2 3 4 5 6 7 0 8"],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("nope.slidedb"), "{err}");
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
}

/// `--algo` answers with a search, under the same output contract.
#[test]
fn solve_with_each_search_algorithm() {
    let data = tempdir();
    let board = "2 3 4 1 5 x 7 6 8";
    for algo in ["astar", "idastar", "bfs", "iddfs"] {
        let (code, out, err) = run(
            &["solve", "--algo", algo, board, "2 1 3 4 5 6 7 8 0"],
            None,
            data.path(),
        );
        assert_eq!(code, 1, "{algo}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{algo}");
        assert_eq!(lines[0].len(), 19, "{algo}: optimal length");
        assert_eq!(
            apply(&cells(board), 3, lines[0]),
            cells("1 2 3 4 5 6 7 8 0"),
            "{algo}"
        );
        assert_eq!(lines[1], "unsolvable", "{algo}");
    }
    let (code, out, _) = run(&["solve", "--algo", "dfs", board], None, data.path());
    assert_eq!(code, 0);
    assert_eq!(
        apply(&cells(board), 3, out.trim_end()),
        cells("1 2 3 4 5 6 7 8 0")
    );
    // A search needs no table: nothing was built.
    assert_eq!(fs::read_dir(data.path()).unwrap().count(), 0);
    let (code, _, err) = run(&["solve", "--algo", "nope", board], None, data.path());
    assert_eq!(code, 2);
    assert!(err.contains("nope"), "{err}");
}

/// The course project's comparison: every algorithm, one row each, then
/// each one's moves; the optimal ones agree with the table.
#[test]
fn compare_prints_a_row_and_the_moves_of_each_algorithm() {
    let data = tempdir();
    let (code, out, err) = run(
        &["compare", "724506831", "--goal", "012345678"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains("7 2 4 5 0 6 8 3 1") && lines[1].starts_with("algorithm"),
        "{out}"
    );
    let names = ["table", "astar", "idastar", "bfs", "dfs", "iddfs"];
    for (row, name) in lines[2..8].iter().zip(names) {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[0], name, "{row}");
        if name == "dfs" {
            assert_eq!(fields[2], "no", "{row}");
        } else {
            assert_eq!((fields[1], fields[2]), ("26", "yes"), "{row}");
        }
    }
    let goal = cells("0 1 2 3 4 5 6 7 8");
    for (line, name) in lines[9..15].iter().zip(names) {
        let (who, moves) = line.split_once(char::is_whitespace).unwrap();
        assert_eq!(who, name);
        if name == "dfs" {
            // Shortened in the table view: its start only (checked whole
            // in the JSON test).
            assert!(moves.contains("… ("), "{line}");
            continue;
        }
        assert_eq!(apply(&cells("724506831"), 3, moves.trim()), goal, "{name}");
    }
}

/// A row that runs over a second shows its progress on stderr: with
/// stderr piped, a plain line naming the algorithm, its nodes expanded and
/// its time, at most one per 5 s; `--quiet` shows none. The results on
/// stdout are the same either way (but for the time column): the progress
/// display does not even change the peak heap measured. The row is IDA*
/// with Manhattan distance on a 52-move 4x4 board, about 2.5 s here; the
/// two runs go side by side.
#[test]
fn compare_shows_progress_of_a_slow_row_on_stderr() {
    let data = tempdir();
    let board = "3 15 9 5 6 7 2 8 0 13 10 4 14 11 12 1";
    let args = [
        "compare",
        "--size",
        "4x4",
        board,
        "--algos",
        "idastar",
        "--max-time",
        "0",
    ];
    let quiet_args: Vec<&str> = args.iter().copied().chain(["--quiet"]).collect();
    let ((code, out, err), (quiet_code, quiet_out, quiet_err)) = thread::scope(|s| {
        let loud = s.spawn(|| run(&args, None, data.path()));
        let quiet = run(&quiet_args, None, data.path());
        (loud.join().unwrap(), quiet)
    });
    assert_eq!((code, quiet_code), (0, 0), "{err}\n{quiet_err}");
    let is_progress = |l: &&str| l.starts_with("slidedb: compare: ");
    // The row's line, its time last: "idastar 52 ? ... 1.5 KiB 2.41 s".
    let row = out.lines().nth(2).expect("a row");
    let fields: Vec<&str> = row.split_whitespace().collect();
    assert_eq!((fields[0], fields[1]), ("idastar", "52"), "{out}");
    let secs: f64 = fields[fields.len() - 2].parse().expect("a time in s");
    assert_eq!(fields[fields.len() - 1], "s", "{row}: a row of seconds");
    let progress: Vec<&str> = err.lines().filter(is_progress).collect();
    assert!(!progress.is_empty(), "no progress line in {err:?}");
    assert!(
        progress.len() as f64 <= 1.0 + secs / 5.0,
        "too many lines for {secs} s: {progress:?}"
    );
    for line in &progress {
        let rest = line.strip_prefix("slidedb: compare: idastar: ").unwrap();
        let (expanded, time) = rest.split_once(" expanded, ").expect(line);
        let (n, unit) = expanded.split_once(' ').expect(line);
        assert!(
            n.parse::<f64>().unwrap() > 0.0 && ["k", "M"].contains(&unit),
            "{line}"
        );
        let s: u64 = time.strip_suffix(" s").expect(line).parse().expect(line);
        assert!((1..=secs.ceil() as u64).contains(&s), "{line}");
    }
    // Nothing of it on stdout, nor with --quiet; stdout the same but for
    // the time of the row.
    assert!(!out.contains("expanded,"), "{out}");
    assert_eq!(
        quiet_err.lines().filter(is_progress).count(),
        0,
        "{quiet_err}"
    );
    let untimed = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| match l.strip_suffix(" s") {
                Some(timed) if l.starts_with("idastar ") => timed
                    .rsplit_once(' ')
                    .expect("a time")
                    .0
                    .trim_end()
                    .to_string(),
                _ => l.to_string(),
            })
            .collect()
    };
    assert_eq!(untimed(&out), untimed(&quiet_out));
    assert_eq!(out.lines().count(), 5, "{out}");
}

/// A hard 3x4 board (53 moves from the goal) that IDDFS and IDA* with
/// Manhattan distance take far longer than a second on.
const HARD_3X4: &str = "4 3 2 1 11 7 6 5 0 8 10 9";

/// A row that passes `--max-time` is stopped and says what it did (nodes
/// expanded, the depth its paths reached); the other rows still run, and
/// the run exits 0: a stopped row is a measurement. Without `--max-time`,
/// each row has 10 s.
#[test]
fn compare_stops_a_row_at_its_time_budget_and_says_what_it_did() {
    let data = tempdir();
    let args = [
        "compare",
        "--size",
        "3x4",
        HARD_3X4,
        "--algos",
        "iddfs,idastar",
        "--max-time",
        "500ms",
    ];
    let (code, out, err) = run(&args, None, data.path());
    assert_eq!(code, 0, "{out}\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    for (row, algo) in [(lines[2], "iddfs"), (lines[3], "idastar")] {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(&fields[..3], [algo, "stopped", "-"], "{out}");
        let expanded: u64 = fields[3].parse().expect("nodes expanded");
        assert!(expanded > 0, "{row}");
    }
    for (line, algo) in [(lines[5], "iddfs"), (lines[6], "idastar")] {
        let said = line.strip_prefix(algo).expect(line).trim_start();
        let rest = said
            .strip_prefix("stopped at --max-time 500.0 ms: no solution after ")
            .expect(line);
        let (nodes, depth) = rest
            .split_once(" nodes expanded, paths explored to depth ")
            .expect(line);
        assert!(nodes.parse::<u64>().unwrap() > 0, "{line}");
        assert!(depth.parse::<u32>().unwrap() > 10, "{line}");
    }
    let json: Vec<&str> = args.iter().copied().chain(["--json"]).collect();
    let (code, out, err) = run(&json, None, data.path());
    assert_eq!(code, 0, "{err}");
    for line in out.lines() {
        let row: Value = serde_json::from_str(line).expect("JSON");
        assert_eq!(row["stopped"], true, "{line}");
        assert!(row["moves"].is_null() && row["optimal"].is_null(), "{line}");
        assert!(row["expanded"].as_u64().unwrap() > 0, "{line}");
    }
    let (code, help, _) = run(&["compare", "--help"], None, data.path());
    assert_eq!(code, 0);
    assert!(help.contains("[default: 10s]"), "{help}");
}

/// Rows are printed as they finish: IDA*'s row (a 36-move 3x4 board,
/// milliseconds) is on stdout while IDDFS (minutes on it) still runs, and
/// a Ctrl-C then ends the run with the row printed.
#[test]
fn compare_prints_each_row_as_it_finishes() {
    let data = tempdir();
    let cwd = tempdir();
    let board = "9 0 5 6 8 1 7 2 3 11 4 10";
    let mut child = Command::new(SLIDEDB)
        .args([
            "compare",
            "--size",
            "3x4",
            board,
            "--algos",
            "idastar,iddfs",
            "--max-time",
            "120s",
            "--quiet",
        ])
        .env("SLIDEDB_DATA", data.path())
        .current_dir(cwd.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start slidedb");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut head = String::new();
    for _ in 0..3 {
        stdout.read_line(&mut head).expect("read a line");
    }
    let running = child.try_wait().expect("try_wait").is_none();
    // SAFETY: kill(2) with the pid of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let _ = child.wait();
    assert!(
        running,
        "the run ended before its first row was read: {head}"
    );
    let row: Vec<&str> = head
        .lines()
        .nth(2)
        .expect("a row")
        .split_whitespace()
        .collect();
    assert_eq!(&row[..3], ["idastar", "36", "?"], "{head}");
}

#[test]
fn compare_json_has_one_object_per_algorithm() {
    let data = tempdir();
    let (code, out, err) = run(
        &[
            "compare",
            "8 6 7 2 5 4 3 0 1",
            "--algos",
            "table,astar,idastar",
            "--json",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    for (row, name) in rows.iter().zip(["table", "astar", "idastar"]) {
        assert_eq!(row["algorithm"], name);
        assert_eq!(row["length"], 31);
        assert_eq!(row["optimal"], true);
        for key in [
            "expanded",
            "generated",
            "peak_open",
            "peak_stored",
            "peak_heap_bytes",
            "micros",
        ] {
            assert!(row[key].is_u64(), "{name} {key}");
        }
    }
    // A* keeps thousands of boards; IDA* only its path.
    assert!(rows[1]["peak_stored"].as_u64().unwrap() > 1000);
    assert_eq!(rows[2]["peak_stored"], 31);
    assert!(rows[1]["peak_heap_bytes"].as_u64() > rows[2]["peak_heap_bytes"].as_u64());
    // An unsolvable board: every row says so, exit 1.
    let (code, out, _) = run(
        &[
            "compare",
            "2 1 3 4 5 6 7 8 0",
            "--algos",
            "astar,bfs",
            "--json",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 1);
    for line in out.lines() {
        let row: Value = serde_json::from_str(line).unwrap();
        assert!(row["moves"].is_null() && row["length"].is_null(), "{line}");
    }
}

/// `verify` on a damaged table finds the fault and exits 1.
#[test]
fn verify_finds_a_damaged_entry() {
    let data = tempdir();
    let table = gen_table(data.path(), "t.slidedb", data.path());
    let (code, out, err) = run(
        &["verify", "--table", path_str(&table), "--sample", "200"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("200 states checked, 0 mismatches"), "{out}");
    let mut bytes = fs::read(&table).unwrap();
    let last = bytes.len() - 100;
    bytes[last] ^= 0x01;
    fs::write(&table, &bytes).unwrap();
    let (code, out, _) = run(
        &["verify", "--table", path_str(&table), "--sample", "10"],
        None,
        data.path(),
    );
    assert_eq!(code, 1);
    assert!(out.contains("FAULT") && out.contains("checksum"), "{out}");
}

/// `--sample 0` checks the table and samples no search (the default past
/// 12 cells, where one A* search can take minutes).
#[test]
fn verify_with_no_sample_checks_the_table_alone() {
    let data = tempdir();
    let table = gen_table(data.path(), "t.slidedb", data.path());
    let (code, out, err) = run(
        &["verify", "--table", path_str(&table), "--sample", "0"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("fresh search agree"), "{out}");
    assert!(out.contains("astar: not sampled"), "{out}");
    assert!(!out.contains("states checked"), "{out}");
}

/// An entry changed with the checksums made right again passes the
/// checksum, and `verify` finds it by its neighbours (FORMAT.md: body CRC
/// at 56, header CRC over bytes 0..60 at 60).
#[test]
fn verify_finds_a_wrong_entry_under_a_right_checksum() {
    let data = tempdir();
    let table = gen_table(data.path(), "t.slidedb", data.path());
    let mut bytes = fs::read(&table).unwrap();
    let body = u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize;
    // Entry 4 × 1000 (board 1000 of blank cell 0), from r to r + 1 mod 3.
    let at = body + 1000;
    let r = bytes[at] & 3;
    bytes[at] = (bytes[at] & !3) | ((r + 1) % 3);
    let crc = crc32fast::hash(&bytes[body..]);
    bytes[56..60].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&bytes[..60]);
    bytes[60..64].copy_from_slice(&crc.to_le_bytes());
    fs::write(&table, &bytes).unwrap();
    let (code, out, err) = run(
        &["verify", "--table", path_str(&table), "--sample", "10"],
        None,
        data.path(),
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("FAULT") && out.contains("the entry of"),
        "{out}"
    );
    assert!(!out.contains("checksum"), "{out}");
}

/// Every goal of 3x3 is served by one of three tables (corner, edge,
/// centre), and the answers are optimal toward each goal.
#[test]
fn three_tables_serve_every_three_by_three_goal() {
    let data = tempdir();
    let board = "8 6 7 2 5 4 3 0 1";
    for goal in [
        "1 2 3 4 5 6 7 8 0",
        "0 8 7 6 5 4 3 2 1",
        "1 0 2 3 4 5 6 7 8",
        "5 6 7 8 0 1 2 3 4",
        "2 1 3 4 0 5 6 7 8",
    ] {
        let (code, out, err) = run(&["solve", "--goal", goal, board], None, data.path());
        let (_, want, _) = run(
            &["solve", "--algo", "idastar", "--goal", goal, board],
            None,
            data.path(),
        );
        if want.trim() == "unsolvable" {
            assert_eq!((code, out.trim()), (1, "unsolvable"), "{goal}");
            continue;
        }
        assert_eq!(code, 0, "{goal}: {err}");
        assert_eq!(
            out.trim().len(),
            want.trim().len(),
            "{goal}: optimal length"
        );
        assert_eq!(apply(&cells(board), 3, out.trim()), cells(goal), "{goal}");
    }
    let mut built: Vec<String> = fs::read_dir(data.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.ends_with(".verified"))
        .collect();
    built.sort();
    assert_eq!(
        built,
        [
            "3x3-1-2-3-4-0-5-6-7-8.slidedb",
            "3x3-1-2-3-4-5-6-7-0-8.slidedb",
            "3x3-1-2-3-4-5-6-7-8-0.slidedb"
        ]
    );
}

/// A number of any length is a tile out of range, written as typed (cut
/// with an ellipsis past 40 characters), as an argument and on stdin.
#[test]
fn long_numbers_are_out_of_range_as_typed() {
    let data = tempdir();
    for digits in [20, 26, 100] {
        let (board, want) = board_with_a_long_number(digits);
        let (code, out, err) = run(&["solve", &board], None, data.path());
        assert_eq!((code, out.as_str()), (2, "invalid\n"), "{err}");
        assert!(err.contains(&want), "{err}");
        assert!(!err.contains("is not a tile"), "{err}");
        let (code, out, _) = run(&["solve", "--json"], Some(board.as_bytes()), data.path());
        assert_eq!(code, 2);
        assert!(out.contains(&format!("\"error\":\"{want}\"")), "{out}");
    }
}

/// Every kind of bad line gets `invalid`, its own message naming the line,
/// and the good lines around it are answered; exit 2.
#[test]
fn hostile_lines_in_a_batch() {
    let data = tempdir();
    let cases: &[(&[u8], &str)] = &[
        (b"1 2 3 4 5 6 0", "make no board"),
        (b"1 2 3 4 5 6 7 0", "could be 2x4 or 4x2"),
        (b"1 2 3 4 5 6 7 8 0 9", "could be 2x5 or 5x2"),
        (b"1 2 3 4 5 6 7 7 0", "tile 7 appears twice"),
        (b"1 2 3 4 5 6 7 8 9", "tile 9 is out of range"),
        (b"1 2 3 4 5 6 7 8 8", "no blank"),
        (b"1 2 3 4 5 6 0 8 0", "2 blanks"),
        (b"1 2 3 4 5 6 7 8 q", "\"q\" is not a tile"),
        (b"1,2,3,4,,5,6,7,8,0", "empty cell"),
        (b"12 3,4,5,6,7,8,0", "mixed separators"),
        (b"123/45/678", "rows of unequal length"),
        (b"", "the board is empty"),
        (b"1 2 3 4 \xff 5 6 7 8 0", "not UTF-8"),
        (b"1 2 3 4 5\x006 7 8 0", "NUL byte"),
    ];
    let mut input = b"1 2 3 4 5 6 7 0 8\n".to_vec();
    for (line, _) in cases {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    input.extend_from_slice(b"1 2 3 4 5 6 7 0 8\n");
    let (code, out, err) = run(&["solve"], Some(&input), data.path());
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), cases.len() + 2, "{out}");
    assert_eq!((lines[0], *lines.last().unwrap()), ("r", "r"));
    for (i, (line, why)) in cases.iter().enumerate() {
        assert_eq!(
            lines[i + 1],
            "invalid",
            "{:?}",
            String::from_utf8_lossy(line)
        );
        let message = err
            .lines()
            .find(|l| l.starts_with(&format!("slidedb: line {}:", i + 2)))
            .unwrap_or_else(|| panic!("no message for line {}: {err}", i + 2));
        assert!(message.contains(why), "{message:?} should say {why:?}");
    }
}

/// Sizes and goals that contradict each other are errors before anything
/// is answered.
#[test]
fn contradicting_sizes_and_goals() {
    let data = tempdir();
    for (args, why) in [
        (
            &["solve", "--size", "2x3", "123/456/780"][..],
            "the size is 2x3",
        ),
        (
            &["solve", "--goal", "1 2 3 4 5 6 7 8 8", "123456780"][..],
            "bad goal",
        ),
        (
            &["solve", "--goal", "12345670", "123456780"][..],
            "bad goal",
        ),
        (&["solve", "--size", "1x9", "123456780"][..], "1x9"),
        (
            &[
                "solve",
                "--goal",
                "1 2 3 4 5 0",
                "--size",
                "2x3",
                "1 2 3 4 5 6 7 8 0",
            ][..],
            "a 2x3 board has 6",
        ),
    ] {
        let (code, out, err) = run(args, None, data.path());
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

/// A table of another goal class, or of a newer format, is refused with
/// a message that says what to do.
#[test]
fn wrong_tables_say_what_to_do() {
    let data = tempdir();
    let table = gen_table(data.path(), "corner.slidedb", data.path());
    let (code, _, err) = run(
        &[
            "solve",
            "--table",
            path_str(&table),
            "--goal",
            "1 2 3 4 0 5 6 7 8",
            "1 2 3 4 5 6 7 0 8",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("does not serve") && err.contains("slidedb-gen"),
        "{err}"
    );
    let mut bytes = fs::read(&table).unwrap();
    bytes[10] = 9; // format version 9
    let newer = data.path().join("newer.slidedb");
    fs::write(&newer, &bytes).unwrap();
    let (code, _, err) = run(
        &["solve", "--table", path_str(&newer), "123456708"],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("version 9") && err.contains("rebuild"),
        "{err}"
    );
}

// ---- The 15-puzzle: pattern databases ----

/// The goal of Korf's instances: blank top left.
const KORF_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

/// The `count` shortest of Korf's 100: (board, optimal length).
fn easiest_korf(count: usize) -> Vec<(String, usize)> {
    let text = fs::read_to_string(crate::shared::data_dir().join("korf100.txt")).unwrap();
    let mut all: Vec<(String, usize)> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1..17].join(" "), f[17].parse().unwrap())
        })
        .collect();
    all.sort_by_key(|i| i.1);
    all.truncate(count);
    all
}

/// `slidedb-gen --pdb` writes the 5-5-5 databases where `slidedb solve`
/// finds them, and every answer (batch, any corner goal) is optimal.
#[test]
fn fifteen_puzzle_batch_is_optimal_through_pattern_databases() {
    let data = tempdir();
    // Korf's goal is served by the canonical corner goal's databases.
    let (code, _, err) = run_gen(&["--goal", KORF_GOAL, "--pdb", "5-5-5"], data.path());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("group 3 depth"), "{err}");
    let name = "4x4-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0-pdb-5-5-5.slidedb";
    assert!(data.path().join(name).is_file());
    let instances = easiest_korf(3);
    let input: String = instances.iter().map(|(b, _)| format!("{b}\n")).collect();
    let (code, out, err) = run(
        &["solve", "--goal", KORF_GOAL],
        Some(input.as_bytes()),
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("Manhattan"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), instances.len());
    let goal: Vec<u8> = (0..16).collect();
    for ((board, length), moves) in instances.iter().zip(&lines) {
        assert_eq!(moves.len(), *length, "{board}");
        let cells: Vec<u8> = board.split(' ').map(|t| t.parse().unwrap()).collect();
        assert_eq!(common::apply_letters(&cells, 4, moves), goal, "{board}");
    }
    // The usual goal (blank last), as JSON, through the same databases.
    let (code, out, err) = run(
        &[
            "solve",
            "--size",
            "4x4",
            "--json",
            "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["moves"], "rrr");
    assert_eq!(v["distance"], 3);
    // --steps prints each board on the way.
    let (code, out, _) = run(
        &[
            "solve",
            "--size",
            "4x4",
            "--steps",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0);
    assert!(
        out.starts_with("r\n") && out.contains("step 1 of 1: r"),
        "{out}"
    );
    // probe: the distance and each move's outcome, each by IDA* over the
    // databases; the same board after each move, solved, agrees.
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15";
    let (code, out, err) = run(
        &["probe", "--size", "4x4", "--json", board],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["distance"], 2);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{out}"); // the blank on the bottom edge
    let cells: Vec<u8> = board.split(' ').map(|t| t.parse().unwrap()).collect();
    for m in moves {
        let letter = m["move"].as_str().unwrap();
        let after = common::apply_letters(&cells, 4, letter);
        let after: Vec<String> = after.iter().map(|t| t.to_string()).collect();
        assert_eq!(m["board"], after.join(" "));
        let (_, solved, _) = run(
            &["solve", "--size", "4x4", "--json", &after.join(" ")],
            None,
            data.path(),
        );
        let solved: Value = serde_json::from_str(solved.trim()).unwrap();
        assert_eq!(m["distance"], solved["distance"], "{letter}");
        assert_eq!(m["optimal"], letter == "r", "{letter}");
    }
    let (code, out, _) = run(&["probe", "--size", "4x4", board], None, data.path());
    assert_eq!((code, out.as_str()), (0, "2  u:3 l:3 r:1*\n"));
    // compare runs IDA* over the databases and over Manhattan distance,
    // not the searches that cannot finish on 4x4.
    let (code, out, err) = run(
        &[
            "compare",
            "--size",
            "4x4",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15",
            "--json",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    for (row, name) in rows.iter().zip(["table", "idastar"]) {
        assert_eq!(row["algorithm"], name);
        assert_eq!(row["moves"], "rr");
        assert_eq!(row["optimal"], true);
    }
    assert!(err.contains("--algos"), "{err}");
    // verify checks the databases' bytes (there is no exact 4x4 table).
    let (code, out, _) = run(&["verify", "--size", "4x4"], None, data.path());
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("checksum and layer counts agree"), "{out}");
    // stats describes the databases.
    let (code, out, _) = run(&["stats", "--size", "4x4"], None, data.path());
    assert_eq!(code, 0);
    assert!(out.contains("partition     5-5-5"), "{out}");
    assert_eq!(out.matches("524160 entries").count(), 3, "{out}");
    // A damaged byte is a fault of verify (exit 1).
    let file = data.path().join(name);
    let mut bytes = fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&file, &bytes).unwrap();
    let (code, out, _) = run(&["verify", "--size", "4x4"], None, data.path());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAULT") && out.contains("checksum"), "{out}");
}

/// Without databases, a 4x4 board is still answered optimally (by IDA*
/// with Manhattan distance), with a hint on stderr saying how to build
/// them; unsolvable boards answer at once.
#[test]
fn fifteen_puzzle_without_databases_falls_back_with_a_hint() {
    let data = tempdir();
    let (code, out, err) = run(
        &[
            "solve",
            "--size",
            "4x4",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15",
            "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "rr\nunsolvable\n");
    assert_eq!(err.matches("slidedb-gen --size 4x4").count(), 1, "{err}");
    assert!(err.contains("--pdb"), "{err}");
    // No full 4x4 table can be built; the message names --pdb.
    let (code, _, err) = run_gen(&["--size", "4x4"], data.path());
    assert_eq!(code, 2);
    assert!(err.contains("--pdb"), "{err}");
    // Sizes that do not add up are refused before any work.
    let (code, _, err) = run_gen(&["--size", "4x4", "--pdb", "6-6"], data.path());
    assert_eq!(code, 2);
    assert!(err.contains("add up to 12"), "{err}");
}

/// `slidedb-gen --pdb 5-5-5-blank` writes blank-aware databases under
/// their own name, beside the plain ones of the same groups, and
/// `slidedb solve` answers optimally with both in the folder.
#[test]
fn blank_aware_databases_are_built_by_name_and_solve_optimally() {
    let data = tempdir();
    for spec in ["5-5-5-blank", "5-5-5"] {
        let (code, _, err) = run_gen(&["--goal", KORF_GOAL, "--pdb", spec], data.path());
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("group 3 depth"), "{err}");
        let name = format!("4x4-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0-pdb-{spec}.slidedb");
        assert!(data.path().join(&name).is_file(), "{name}");
    }
    // Built again: refused without --force, replaced with it.
    let again = ["--goal", KORF_GOAL, "--pdb", "5-5-5-blank"];
    let (code, _, err) = run_gen(&again, data.path());
    assert_eq!(code, 2);
    assert!(err.contains("pass --force"), "{err}");
    let (code, _, err) = run_gen(&[&again[..], &["--force", "--quiet"]].concat(), data.path());
    assert_eq!(code, 0, "{err}");
    // Built in memory in one go: the flags of a build to a file are refused.
    let other = tempdir();
    let (code, _, err) = run_gen(&[&again[..], &["--memory", "1G"]].concat(), other.path());
    assert_eq!(code, 2);
    assert!(err.contains("built in memory"), "{err}");
    let instances = easiest_korf(3);
    let input: String = instances.iter().map(|(b, _)| format!("{b}\n")).collect();
    let (code, out, err) = run(
        &["solve", "--goal", KORF_GOAL],
        Some(input.as_bytes()),
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let goal: Vec<u8> = (0..16).collect();
    for ((board, length), moves) in instances.iter().zip(out.lines()) {
        assert_eq!(moves.len(), *length, "{board}");
        let cells: Vec<u8> = board.split(' ').map(|t| t.parse().unwrap()).collect();
        assert_eq!(common::apply_letters(&cells, 4, moves), goal, "{board}");
    }
    // A suffix on no partition is refused before any work.
    let (code, _, err) = run_gen(
        &["--size", "4x4", "--pdb", "5-5-5-blank-blank"],
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("\"blank\""), "{err}");
    // Blank-aware groups are built in memory only: 7 tiles of 5x5 are
    // refused before any work, and the message says what to do.
    let (code, _, err) = run_gen(&["--size", "5x5", "--pdb", "7-7-7-3-blank"], data.path());
    assert_eq!(code, 2);
    assert!(
        err.contains("use smaller groups, or plain entries"),
        "{err}"
    );
}

/// `--pdb` names a file; one of another goal class, a full table, or a
/// damaged file is an error (exit 2) that says so.
#[test]
fn pattern_database_files_are_checked() {
    let data = tempdir();
    let file = data.path().join("p.slidedb");
    let f = file.to_str().unwrap();
    let (code, _, err) = run_gen(&["--size", "2x4", "--pdb", "4-3", "--out", f], data.path());
    assert_eq!(code, 0, "{err}");
    // `solve --pdb FILE --algo idastar --heuristic pdb ARGS…`.
    let idastar = |pdb: &str, args: &[&str]| {
        let head = [
            "solve",
            "--pdb",
            pdb,
            "--algo",
            "idastar",
            "--heuristic",
            "pdb",
        ];
        run(&[&head[..], args].concat(), None, data.path())
    };
    let (code, out, _) = idastar(f, &["5 1 2 3 0 6 7 4"]);
    assert_eq!(code, 0);
    assert_eq!(out, "urrrd\n");
    // Another class (blank on the top edge) is not served.
    let (code, _, err) = idastar(
        f,
        &[
            "--size",
            "2x4",
            "--goal",
            "1 0 2 3 4 5 6 7",
            "0 1 2 3 4 5 6 7",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("does not serve"), "{err}");
    // A full table is not a pattern database.
    let table = data.path().join("t.slidedb");
    let t = table.to_str().unwrap();
    assert_eq!(run_gen(&["--size", "2x4", "--out", t], data.path()).0, 0);
    let (code, _, err) = idastar(t, &["0 1 2 3 4 5 6 7"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a pattern database"), "{err}");
    // A damaged body fails its checksum (small files are checked on open).
    let mut bytes = fs::read(&file).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    fs::write(&file, &bytes).unwrap();
    let (code, _, err) = idastar(f, &["5 1 2 3 0 6 7 4"]);
    assert_eq!(code, 2);
    assert!(err.contains("checksum"), "{err}");
}

/// `verify --algo idastar --heuristic pdb` checks IDA* over the goal's
/// pattern databases against the exact table.
#[test]
fn verify_checks_idastar_over_pattern_databases() {
    let data = tempdir();
    let (code, _, err) = run_gen(&["--size", "2x5", "--pdb", "5-4"], data.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(run_gen(&["--size", "2x5"], data.path()).0, 0);
    let (code, out, err) = run(
        &[
            "verify",
            "--size",
            "2x5",
            "--algo",
            "idastar",
            "--heuristic",
            "pdb",
            "--sample",
            "300",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(
            "pattern databases 5-4 for goal 1 2 3 4 5 6 7 8 9 0: checksum and layer counts agree"
        ),
        "{out}"
    );
    assert!(out.contains("300 states checked, 0 mismatches"), "{out}");
    // Named with --pdb, they answer boards whose table is missing (10
    // cells are not built on the fly): IDA* over them, not an error.
    let pdb = data.path().join("2x5-1-2-3-4-5-6-7-8-9-0-pdb-5-4.slidedb");
    fs::remove_file(data.path().join("2x5-1-2-3-4-5-6-7-8-9-0.slidedb")).unwrap();
    let (code, out, err) = run(
        &[
            "solve",
            "--pdb",
            pdb.to_str().unwrap(),
            "1 2 3 4 5 6 7 8 0 9",
        ],
        None,
        data.path(),
    );
    assert_eq!((code, out.as_str()), (0, "r\n"), "{err}");
    // --heuristic pdb with a search that takes no estimate is refused
    // once, before any board is read.
    let (code, out, err) = run(
        &[
            "solve",
            "--size",
            "2x5",
            "--algo",
            "bfs",
            "--heuristic",
            "pdb",
        ],
        Some(b"1 2 3 4 5 6 7 8 0 9\n1 2 3 4 5 6 7 8 0 9\n"),
        data.path(),
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err.lines().count(), 1, "{err}");
    // Without databases it says how to build them.
    let empty = tempdir();
    let (code, _, err) = run(
        &[
            "verify",
            "--size",
            "2x3",
            "--algo",
            "idastar",
            "--heuristic",
            "pdb",
        ],
        None,
        empty.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("--pdb"), "{err}");
}

/// `compare`: an unsolvable board's rows claim no optimality; the columns
/// stay aligned; a long depth-first path is shortened in the table view
/// and whole in JSON, whose names are the table's.
#[test]
fn compare_reads_right() {
    let data = tempdir();
    let (code, out, err) = run(
        &["compare", "--algos", "table,astar,bfs", "2 1 3 4 5 6 7 8 0"],
        None,
        data.path(),
    );
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let header = lines[1];
    for row in &lines[2..5] {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(&fields[1..3], ["unsolvable", "-"], "{row}");
        // Right-aligned columns end where the header's do.
        assert_eq!(
            row.find("unsolvable").unwrap() + "unsolvable".len(),
            header.find("moves").unwrap() + "moves".len(),
            "{out}"
        );
    }
    let (code, out, err) = run(
        &[
            "compare",
            "--algos",
            "table,dfs",
            "--goal",
            "012345678",
            "724506831",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let dfs = out
        .lines()
        .find(|l| l.starts_with("dfs ") && l.contains('…'))
        .expect(&out);
    assert!(dfs.contains("moves; all of them with --json"), "{dfs}");
    assert!(dfs.len() < 200, "{dfs}");
    let (_, out, _) = run(
        &[
            "compare",
            "--algos",
            "dfs",
            "--goal",
            "012345678",
            "--json",
            "724506831",
        ],
        None,
        data.path(),
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        v["moves"].as_str().unwrap().len() as u64,
        v["length"].as_u64().unwrap()
    );
    assert!(v["length"].as_u64().unwrap() > 1000);
    for name in ["peak_open", "peak_stored", "peak_heap_bytes"] {
        assert!(v.get(name).is_some(), "{name}: {out}");
    }
}

/// Two blanks are two blanks, not an ambiguous size; a byte-order mark on
/// the first line is no cell.
#[test]
fn two_blanks_and_a_byte_order_mark_read_right() {
    let data = tempdir();
    let (code, out, err) = run(&["solve", "1 2 3 4 5 6 7 8 x x"], None, data.path());
    assert_eq!((code, out.as_str()), (2, "invalid\n"));
    assert!(err.contains("2 blanks"), "{err}");
    let (code, out, err) = run(
        &["solve"],
        Some(b"\xef\xbb\xbf2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 0 8\n"),
        data.path(),
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "ullddrurdllurdruldr\nr\n"),
        "{err}"
    );
}

/// The library asks for the size in its own words; the command line names
/// its option, for a board and for a goal.
#[test]
fn a_board_of_two_sizes_asks_for_the_size_option() {
    let data = tempdir();
    let (code, out, err) = run(&["solve", "1 2 3 4 5 0"], None, data.path());
    assert_eq!((code, out.as_str()), (2, "invalid\n"));
    assert!(
        err.contains("could be 2x3 or 3x2: give the size with --size, or split the rows with /"),
        "{err}"
    );
    let (code, _, err) = run(
        &["solve", "--goal", "1 2 3 4 5 0", "1 2 3 4 0 5"],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("give the size with --size"), "{err}");
}
