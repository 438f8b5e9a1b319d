//! The defects a new user found (issue 11), each reproduced through the
//! binaries: `--force` replaces only a regular file; no command panics on
//! a full or closed stdout; counts a user types are bounded; small
//! messages and inputs that read wrongly.

use crate::exe::*;

use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `slidedb-gen --out X --force` onto anything but a regular file is
/// refused, leaves X as it was, and does not suggest `--force`.
#[test]
fn force_replaces_only_a_regular_file() {
    let data = tempdir();
    let dir = data.path();
    fs::write(dir.join("target"), b"kept").unwrap();
    std::os::unix::fs::symlink("target", dir.join("link")).unwrap();
    fs::create_dir(dir.join("folder")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(dir.join("socket")).unwrap();
    let mut cases = vec!["link", "folder", "socket"];
    if Command::new("mkfifo")
        .arg(dir.join("fifo"))
        .status()
        .is_ok_and(|s| s.success())
    {
        cases.push("fifo");
    } else {
        eprintln!("no mkfifo here: the FIFO case is skipped");
    }
    // A character device (the case) needs root.
    let device = Command::new("mknod")
        .arg(dir.join("device"))
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if device {
        cases.push("device");
    } else {
        eprintln!("mknod is not allowed here (not root?): the device case is skipped");
    }
    for name in cases {
        let path = dir.join(name);
        let before = fs::symlink_metadata(&path).unwrap().file_type();
        for force in [true, false] {
            let mut args = vec!["--size", "2x3", "--quiet", "--out", path_str(&path)];
            if force {
                args.push("--force");
            }
            let (code, _, err) = run_gen(&args, dir);
            assert_eq!(code, 2, "{name}: {err}");
            assert!(!err.contains("--force"), "{name}: {err}");
            assert_eq!(err.lines().count(), 1, "{name}: {err}");
            let after = fs::symlink_metadata(&path).unwrap().file_type();
            assert_eq!(before, after, "{name} was replaced");
        }
    }
    assert_eq!(fs::read(dir.join("target")).unwrap(), b"kept");
    if device {
        assert!(
            fs::symlink_metadata(dir.join("device"))
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
    // A regular file is replaced with --force, and only then.
    let file = dir.join("old.slidedb");
    fs::write(&file, b"old").unwrap();
    let (code, _, err) = run_gen(&["--size", "2x3", "--quiet", "--out", path_str(&file)], dir);
    assert_eq!(code, 2);
    assert!(err.contains("pass --force"), "{err}");
    let (code, _, err) = run_gen(
        &[
            "--size",
            "2x3",
            "--quiet",
            "--out",
            path_str(&file),
            "--force",
        ],
        dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(fs::read(&file).unwrap().starts_with(b"SLIDEDB\0"));
}

/// Every command line that writes to stdout, for both binaries.
fn writing_commands(table: &Path) -> Vec<(&'static str, Vec<String>)> {
    let t = path_str(table).to_string();
    let slidedb = |args: &[&str]| {
        (
            SLIDEDB,
            args.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    };
    vec![
        slidedb(&["solve", "--table", &t, "2 3 4 1 5 x 7 6 8"]),
        slidedb(&["solve", "--table", &t, "--json", "2 3 4 1 5 x 7 6 8"]),
        slidedb(&["stats", "--table", &t]),
        slidedb(&["stats", "--table", &t, "--json"]),
        slidedb(&[
            "compare",
            "--table",
            &t,
            "--algos",
            "table,astar",
            "724506831",
        ]),
        slidedb(&["verify", "--table", &t, "--sample", "10"]),
        slidedb(&["--help"]),
        slidedb(&["--version"]),
        slidedb(&["solve", "--help"]),
        slidedb(&["completions", "bash"]),
        slidedb(&["man"]),
        (SLIDEDB_GEN, vec!["--help".to_string()]),
        (SLIDEDB_GEN, vec!["--version".to_string()]),
        (
            SLIDEDB_GEN,
            vec!["--completions".to_string(), "bash".to_string()],
        ),
        (SLIDEDB_GEN, vec!["--man".to_string()]),
    ]
}

/// A full stdout (`/dev/full`) is one clear message and exit 2, never a
/// panic; every command, both binaries.
#[test]
fn a_full_stdout_is_one_message_and_exit_2() {
    let data = tempdir();
    let table = gen_table(data.path(), "t.slidedb", data.path());
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    for (exe, args) in writing_commands(&table) {
        let output = Command::new(exe)
            .args(&args)
            .env("SLIDEDB_DATA", data.path())
            .stdout(full.try_clone().unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(
            err.matches("cannot write the output: No space left on device")
                .count(),
            1,
            "{args:?}: {err}"
        );
    }
}

/// A stdout closed before anything is written ends each command quietly:
/// exit 0 and nothing on stderr but what it says before writing.
#[test]
fn a_closed_stdout_ends_quietly() {
    let data = tempdir();
    let table = gen_table(data.path(), "t.slidedb", data.path());
    for (exe, args) in writing_commands(&table) {
        let started = Instant::now();
        let mut child = Command::new(exe)
            .args(&args)
            .env("SLIDEDB_DATA", data.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader is gone before any write
        // The deadline runs from the start, before any blocking call.
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{args:?} did not end"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("error") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

/// Counts a user types are bounded before they cost anything.
#[test]
fn threads_are_bounded() {
    let data = tempdir();
    for n in ["100000", "0", "-1", "many"] {
        let threads = format!("--threads={n}");
        let (code, _, err) = run_gen(
            &[&threads, "--out", path_str(&data.path().join("t"))],
            data.path(),
        );
        assert_eq!(code, 2, "{n}: {err}");
        assert!(err.contains("use 1 to 256 threads"), "{n}: {err}");
        assert!(!data.path().join("t").exists());
    }
    let (code, _, err) = run_gen(
        &[
            "--threads",
            "256",
            "--size",
            "2x3",
            "--quiet",
            "--out",
            path_str(&data.path().join("t")),
        ],
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
}

/// The smaller defects: `slidedb-gen --version` names itself; two blanks
/// are two blanks, not an ambiguous size; a byte-order mark on the first
/// line is no cell; a data folder that is a file says so.
#[test]
fn small_defects() {
    let data = tempdir();
    let (code, out, _) = run_gen(&["--version"], data.path());
    assert_eq!(
        (code, out.trim()),
        (0, concat!("slidedb-gen ", env!("CARGO_PKG_VERSION")))
    );
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
    let file = data.path().join("not-a-folder");
    fs::write(&file, b"x").unwrap();
    let (code, out, err) = run(
        &["solve", "--data", path_str(&file), "1 2 3 4 5 6 7 0 8"],
        None,
        data.path(),
    );
    assert_eq!((code, out.as_str()), (0, "r\n"), "{err}");
    assert!(
        err.contains("is not a folder") && !err.contains("os error 17"),
        "{err}"
    );
    let (code, _, err) = run_gen(&["--data", path_str(&file), "--quiet"], data.path());
    assert_eq!(code, 2);
    assert!(err.contains("is not a folder"), "{err}");
}

/// No answer comes from bytes not checked since the file last changed:
/// the first open checks the whole body and stamps the file; later opens
/// (other processes too) skip the check while the file is unchanged; a
/// change in place, even with the modification time set back, is checked
/// again and refused.
#[test]
fn a_file_is_checked_again_after_any_change() {
    use slidedb::{Board, Database, Event, Shape};
    use std::sync::{Arc, Mutex};
    let dir = tempdir();
    let goal = Board::solved(Shape::new(2, 4).unwrap());
    let path = dir.path().join(slidedb::default_file_name(&goal));
    let table = slidedb::generate(&goal, |_| {}).unwrap();
    slidedb::write_atomic(&path, table.as_bytes(), false).unwrap();
    let open = || {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let log = heard.clone();
        let db = Database::builder()
            .data_dir(dir.path())
            .on_event(move |e| {
                if let Event::Verified { stamped, .. } = e {
                    log.lock().unwrap().push(*stamped);
                }
            })
            .open()
            .unwrap();
        let answer = db.solve(&"1 2 3 4 / 5 6 0 7".parse().unwrap(), &goal);
        let checks = heard.lock().unwrap().clone();
        (answer, checks)
    };
    let (answer, checks) = open();
    assert_eq!(answer.unwrap().distance(), Some(1));
    assert_eq!(checks, [true], "checked and stamped on first open");
    let (answer, checks) = open();
    assert_eq!(answer.unwrap().distance(), Some(1));
    assert!(
        checks.is_empty(),
        "not checked again while unchanged: {checks:?}"
    );
    // A byte of the body changed in place, the modification time restored.
    let modified = fs::metadata(&path).unwrap().modified().unwrap();
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    fs::write(&path, &bytes).unwrap();
    fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let (answer, _) = open();
    let err = answer.expect_err("damaged bytes give no answer");
    assert!(err.to_string().contains(path.to_str().unwrap()), "{err}");
    assert!(format!("{:?}", err).contains("Checksum"), "{err:?}");
}

/// The case through the command line: pattern databases over
/// 4 MiB (6-6-3, 11.5 MB; such files were not checked on open) damaged
/// after a first use: the next query is refused, not answered.
#[test]
fn damaged_pattern_databases_over_4_mib_give_no_answer() {
    let data = tempdir();
    let (code, _, err) = run_gen(&["--size", "4x4", "--pdb", "6-6-3", "--quiet"], data.path());
    assert_eq!(code, 0, "{err}");
    let file = data
        .path()
        .join("4x4-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0-pdb-6-6-3.slidedb");
    assert!(fs::metadata(&file).unwrap().len() > 4 << 20);
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15";
    let (code, out, err) = run(&["solve", "--size", "4x4", board], None, data.path());
    assert_eq!((code, out.as_str()), (0, "rr\n"), "{err}");
    // Inflate one entry of the body: an overestimate, which IDA* would
    // follow to a longer path.
    let mut bytes = fs::read(&file).unwrap();
    let at = bytes.len() - 1000;
    bytes[at] = bytes[at].wrapping_add(7);
    fs::write(&file, &bytes).unwrap();
    let (code, out, err) = run(&["solve", "--size", "4x4", board], None, data.path());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("checksum") && err.contains("pdb-6-6-3"),
        "{err}"
    );
}

/// A search that cannot fit in the memory it may use is never ended by a
/// failed allocation: by default `compare` leaves such rows out, with a
/// note; named, or asked of `solve`, a search stops at its memory with one
/// clear error. Under an address-space limit (`ulimit -v`) the default
/// memory follows the limit.
#[test]
fn searches_stop_within_their_memory() {
    // No 3x4 table: the table row is left out too (no yardstick).
    let data = tempdir();
    let near = "1 2 3 4 5 6 7 8 9 10 0 11";
    let (code, out, err) = run(&["compare", "--size", "3x4", near], None, data.path());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("astar, bfs, dfs not run"), "{err}");
    let rows: Vec<&str> = out.lines().skip(2).take_while(|l| !l.is_empty()).collect();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names, ["idastar", "iddfs"], "{out}");
    let hardest = "0 8 6 9 11 7 10 1 4 3 2 5";
    for args in [
        &[
            "solve",
            "--size",
            "3x4",
            "--algo",
            "bfs",
            "--search-memory",
            "64M",
            hardest,
        ][..],
        &[
            "compare",
            "--size",
            "3x4",
            "--algos",
            "bfs",
            "--search-memory",
            "64M",
            hardest,
        ][..],
    ] {
        let (code, _, err) = run(args, None, data.path());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("stopped at its limit"), "{args:?}: {err}");
        assert_eq!(err.matches("slidedb: error").count(), 1, "{args:?}: {err}");
    }
    // Under a 700 MB address space, BFS on a 4x4 board stops at half of it.
    let script = format!(
        "ulimit -v 700000 && exec {SLIDEDB} solve --goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15' --algo bfs '14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3'"
    );
    let output = Command::new("sh")
        .args(["-c", &script])
        .env("SLIDEDB_DATA", data.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("stopped at its limit"), "{err}");
}

/// Options that nothing would use are refused, not ignored; `--json` and
/// `--steps` work together.
#[test]
fn options_that_do_nothing_are_refused() {
    let data = tempdir();
    let board = "1 2 3 4 5 6 0 7 8";
    for args in [
        &[
            "solve",
            "--heuristic",
            "linear-conflict",
            "--algo",
            "bfs",
            board,
        ][..],
        &["solve", "--heuristic", "manhattan", "--algo", "dfs", board][..],
        &["solve", "--heuristic", "pdb", board][..],
        &["solve", "--heuristic", "manhattan", board][..],
        &["solve", "--heuristic", "pdb", "--algo", "iddfs", board][..],
    ] {
        let (code, out, err) = run(args, None, data.path());
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains("takes none"), "{args:?}: {err}");
    }
    let (code, out, err) = run(
        &[
            "solve",
            "--algo",
            "astar",
            "--heuristic",
            "linear-conflict",
            board,
        ],
        None,
        data.path(),
    );
    assert_eq!((code, out.as_str()), (0, "rr\n"), "{err}");
    let (code, out, err) = run(&["solve", "--json", "--steps", board], None, data.path());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["moves"], "rr");
    assert_eq!(
        v["steps"],
        serde_json::json!([
            "1 2 3 4 5 6 0 7 8",
            "1 2 3 4 5 6 7 0 8",
            "1 2 3 4 5 6 7 8 0"
        ])
    );
    // Without --steps the object has no steps.
    let (_, out, _) = run(&["solve", "--json", board], None, data.path());
    assert!(!out.contains("steps"), "{out}");
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

/// Completions for every shell clap knows and a manual page, generated
/// from the command definitions; `--help` says what the answers and the
/// exit codes mean.
#[test]
fn completions_man_page_and_help() {
    let data = tempdir();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = run(&["completions", shell], None, data.path());
        assert_eq!(code, 0, "{shell}: {err}");
        for word in ["slidedb", "solve", "compare", "search-memory"] {
            assert!(out.contains(word), "{shell} lacks {word}");
        }
    }
    let (code, _, err) = run(&["completions", "tcsh"], None, data.path());
    assert_eq!(code, 2, "{err}");
    let (code, out, _) = run(&["man"], None, data.path());
    assert_eq!(code, 0);
    assert!(
        out.contains(".TH slidedb 1") && out.contains("slidedb\\-solve"),
        "{out}"
    );
    let pages = tempdir();
    let (code, _, err) = run(&["man", "--dir", path_str(pages.path())], None, data.path());
    assert_eq!(code, 0, "{err}");
    for page in [
        "slidedb.1",
        "slidedb-solve.1",
        "slidedb-stats.1",
        "slidedb-compare.1",
        "slidedb-verify.1",
    ] {
        let text = fs::read_to_string(pages.path().join(page)).unwrap();
        assert!(text.starts_with(".ie"), "{page}");
    }
    let (_, help, _) = run(&["--help"], None, data.path());
    for words in ["unsolvable", "invalid", "Exit status: 0", "1 when", "2 on"] {
        assert!(help.contains(words), "--help lacks {words:?}:\n{help}");
    }
}

/// The manual lists only pages it writes (no `slidedb-help(1)`: `--help`
/// is in each page), a usage error of `random` shows its real usage, and
/// `slidedb-gen` describes itself, not the query tool.
#[test]
fn the_manual_usage_and_descriptions_say_what_is_true() {
    let data = tempdir();
    let pages = tempdir();
    let (code, _, err) = run(&["man", "--dir", path_str(pages.path())], None, data.path());
    assert_eq!(code, 0, "{err}");
    let written: Vec<String> = fs::read_dir(pages.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let main = fs::read_to_string(pages.path().join("slidedb.1")).unwrap();
    let listed: Vec<&str> = main
        .lines()
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|l| l.trim_start_matches("\\fB"))
        .collect();
    assert!(!listed.is_empty(), "{main}");
    for page in &listed {
        let file = format!("{}.1", page.replace("\\-", "-"));
        assert!(
            written.contains(&file),
            "{page}(1) listed, {file} not written: {written:?}"
        );
    }
    assert!(!main.contains("help(1)"), "{main}");
    let (code, _, err) = run(
        &["random", "--distance", "5", "--min", "3", "--max", "6"],
        None,
        data.path(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("Usage: slidedb random [--distance D | --min D --max D] [OPTIONS]"),
        "{err}"
    );
    let (_, query, _) = run(&["--help"], None, data.path());
    let (_, build, _) = run_gen(&["--help"], data.path());
    let first = |help: &str| help.lines().next().unwrap_or("").to_string();
    assert_ne!(first(&query), first(&build));
    assert!(
        first(&build).starts_with("Build the exact distance table"),
        "{build}"
    );
}

/// `slidedb-gen` too: `--completions SHELL` and `--man [DIR]`, generated
/// from its flags, and nothing built; each only alone.
#[test]
fn slidedb_gen_completions_and_man_page() {
    let data = tempdir();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = run_gen(&["--completions", shell], data.path());
        assert_eq!(code, 0, "{shell}: {err}");
        for word in ["slidedb-gen", "pdb", "threads", "completions"] {
            assert!(out.contains(word), "{shell} lacks {word}");
        }
    }
    let (code, out, _) = run_gen(&["--man"], data.path());
    assert_eq!(code, 0);
    assert!(
        out.contains(".TH slidedb-gen 1") && out.contains("\\-\\-pdb"),
        "{out}"
    );
    let pages = tempdir();
    let (code, out, err) = run_gen(&["--man", path_str(pages.path())], data.path());
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let mut names: Vec<_> = fs::read_dir(pages.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    // A page for the program and one for its subcommand.
    assert_eq!(names, ["slidedb-gen-merge.1", "slidedb-gen.1"]);
    let text = fs::read_to_string(pages.path().join("slidedb-gen.1")).unwrap();
    assert!(text.starts_with(".ie") && text.contains(".TH slidedb-gen 1"));
    // Nothing was built, nor a data folder made.
    assert_eq!(fs::read_dir(data.path()).unwrap().count(), 0);
    // Usage errors: an unknown shell, a missing folder, another flag.
    for args in [
        &["--completions", "tcsh"][..],
        &["--man", "/nonexistent/slidedb-man"],
        &["--completions", "bash", "--quiet"],
        &["--man", "--size", "2x3"],
    ] {
        let (code, out, err) = run_gen(args, data.path());
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
    assert_eq!(fs::read_dir(data.path()).unwrap().count(), 0);
}

/// Several `solve` processes that each build the same missing table at
/// once all answer, and none tells the user to pass `--force` (which
/// `solve` does not have) or reports an error.
#[test]
fn concurrent_builds_of_one_table_all_answer() {
    let data = tempdir();
    let children: Vec<_> = (0..6)
        .map(|_| {
            Command::new(SLIDEDB)
                .args(["solve", "2 3 4 1 5 x 7 6 8"])
                .env("SLIDEDB_DATA", data.path())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{err}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "ullddrurdllurdruldr\n"
        );
        assert!(!err.contains("--force") && !err.contains("error"), "{err}");
    }
    assert!(data.path().join(DEFAULT_3X3).is_file());
}

/// A long check shows progress: `verify` on the 3x4 table (239,500,800
/// states, about 20 s) prints a line per stage and tenth when stderr is no
/// terminal; `--quiet` prints none. (Builds the 3x4 table: run with
/// `--ignored`, as CI does.)
#[test]
#[ignore = "builds and checks the 3x4 table: about 30 s"]
fn a_long_verify_shows_progress() {
    let data = tempdir();
    let table = data.path().join("t34.slidedb");
    let (code, _, err) = run_gen(
        &["--size", "3x4", "--quiet", "--out", path_str(&table)],
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(
        &["verify", "--table", path_str(&table), "--sample", "1"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{out}{err}");
    for line in [
        "slidedb: verify: the checksum: 0%",
        "slidedb: verify: each entry against its neighbours: 50%",
        "slidedb: verify: against a fresh search: 100%",
    ] {
        assert!(err.contains(line), "no {line:?} in {err}");
    }
    assert!(err.lines().count() < 40, "{err}");
}
