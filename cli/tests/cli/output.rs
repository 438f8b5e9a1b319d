//! What every command does with stdout and stderr when they fail: a full
//! stdout is one message and exit 2, a closed one ends quietly.

use crate::exe::*;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// Every command line that writes to stdout, for both binaries.
pub fn writing_commands(table: &Path) -> Vec<(&'static str, Vec<String>)> {
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
