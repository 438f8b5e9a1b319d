//! `slidedb verify --all`: A* agrees with the table on every 3x3 state, for
//! goals with the blank in a corner, on an edge and in the centre. (CI runs
//! the tests in release mode, where this takes seconds.)

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
