//! `slidedb verify`: A* agrees with the table on every 3x3 state, for
//! goals with the blank in a corner, on an edge and in the centre (CI runs
//! the tests in release mode, where this takes seconds); a long check
//! shows its progress.

use crate::exe::*;

use std::process::Command;

fn verify_all(goal: &str) {
    let data = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_slidedb"))
        .args(["verify", "--all", "--algo", "astar", "--goal", goal])
        .env("SLIDEDB_DATA", data.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("table: 181440 states"), "{stdout}");
    assert!(
        stdout.contains("astar: 181440 states checked, 0 mismatches"),
        "{stdout}"
    );
}

#[test]
fn astar_is_optimal_on_every_state_blank_in_a_corner() {
    verify_all("1 2 3 4 5 6 7 8 0");
}

#[test]
fn astar_is_optimal_on_every_state_blank_on_an_edge() {
    verify_all("1 0 2 3 4 5 6 7 8");
}

#[test]
fn astar_is_optimal_on_every_state_blank_in_the_centre() {
    verify_all("1 2 3 4 0 5 6 7 8");
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
