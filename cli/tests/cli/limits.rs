//! What a command may take of the machine: threads, and the memory of a
//! search, bounded whatever a user types.

use crate::exe::*;

use std::process::Command;

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
    // Workers are counted as workers.
    let (code, _, err) = run_gen(
        &["--workers=0", "--out", path_str(&data.path().join("w"))],
        data.path(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("use 1 to 256 workers"), "{err}");
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

/// Every time flag of both programs reads one grammar (`500ms`, `90s`,
/// `5m`, `1h30m`, a bare number of seconds) and refuses anything else
/// with one message.
#[test]
fn every_time_flag_reads_one_grammar() {
    let data = tempdir();
    let out = data.path().join("t");
    let hosts = data.path().join("hosts");
    std::fs::write(&hosts, "127.0.0.1:1\n").unwrap();
    let out = path_str(&out);
    let hosts = path_str(&hosts);
    let flags: [(&str, Vec<&str>); 3] = [
        (
            "slidedb",
            vec!["compare", "1 2 3 4 5 6 7 0 8", "--max-time"],
        ),
        (
            "slidedb-gen",
            vec!["--size", "2x2", "--out", out, "--checkpoint-every"],
        ),
        (
            "slidedb-gen",
            vec![
                "--hosts",
                hosts,
                "--process",
                "0",
                "--out",
                out,
                "--peer-timeout",
            ],
        ),
    ];
    for (program, args) in &flags {
        for bad in ["5x", "-1s", "1e3"] {
            let mut args = args.clone();
            let flag = format!("{}={bad}", args.pop().unwrap());
            args.push(&flag);
            let (code, _, err) = if *program == "slidedb" {
                run(&args, None, data.path())
            } else {
                run_gen(&args, data.path())
            };
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(
                err.contains(&format!(
                    "{bad:?} is not a time: write a time like 500ms, 90s, 5m, 1h30m or 0 (a bare number is seconds)"
                )),
                "{args:?}: {err}"
            );
        }
    }
    // In range, where a flag has one.
    let (code, _, err) = run(&["serve", "--max-search=200s"], None, data.path());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("\"200s\" is out of range: give a time from 1ms to 100s"),
        "{err}"
    );
    let (code, answer, err) = run(
        &["compare", "1 2 3 4 5 6 7 0 8", "--max-time", "1500ms"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(answer.contains("bfs"), "{answer}");
    let (code, _, err) = run_gen(
        &[
            "--size",
            "2x2",
            "--out",
            out,
            "--checkpoint-every",
            "1m30s",
            "--quiet",
        ],
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
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
