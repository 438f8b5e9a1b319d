//! The multi-tile metric on the command line: `--metric` on `slidedb-gen`
//! and on `slidedb`'s commands, the data folder's file per metric, and a
//! file of one metric asked for in the other refused, naming both.

use std::path::Path;

use crate::exe::{self, path_str, run_gen, tempdir};

/// Builds the `size` table in the multi-tile metric into `file`.
fn gen_multi(size: &str, file: &Path, data: &Path) {
    let args = ["--size", size, "--metric", "multi", "--out", path_str(file)];
    let (code, _, err) = run_gen(&[&args[..], &["--quiet"]].concat(), data);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn solve_probe_and_count_answer_in_the_metric_asked_for() {
    let data = tempdir();
    let board = "1 2 3 / 4 5 6 / 0 7 8";
    let (code, out, err) = exe::run(&["solve", board], None, data.path());
    assert_eq!((code, out.as_str()), (0, "rr\n"), "{err}");
    let (code, out, err) = exe::run(
        &["solve", "--metric", "multi", "--json", board],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(record["distance"], 1);
    assert_eq!(record["moves"], "rr");
    assert_eq!(record["metric"], "multi");
    assert_eq!(record["slides"], serde_json::json!(["rr"]));
    // The single-tile answer's JSON has no metric: it is the default.
    let (_, out, _) = exe::run(&["solve", "--json", board], None, data.path());
    assert!(!out.contains("metric"), "{out}");
    let (code, out, _) = exe::run(&["probe", "--metric", "mtm", board], None, data.path());
    assert_eq!((code, out.as_str()), (0, "1  u:2 uu:2 r:1 rr:0*\n"));
    let (code, out, _) = exe::run(
        &["count", "--metric", "multi", "8 6 7 2 5 4 3 0 1"],
        None,
        data.path(),
    );
    assert_eq!(code, 0);
    let n: u64 = out.trim().parse().unwrap();
    assert!(n >= 1, "{out}");
    // One table a metric in the data folder, built on first use.
    let names: Vec<String> = std::fs::read_dir(data.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".slidedb"))
        .collect();
    assert!(
        names.contains(&"3x3-1-2-3-4-5-6-7-8-0.slidedb".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"3x3-1-2-3-4-5-6-7-8-0-multi.slidedb".to_string()),
        "{names:?}"
    );
    let (code, _, err) = exe::run(&["solve", "--metric", "diagonal", board], None, data.path());
    assert_eq!(code, 2);
    assert!(err.contains("no metric \"diagonal\""), "{err}");
}

#[test]
fn a_file_of_one_metric_is_refused_in_the_other_naming_both() {
    let dir = tempdir();
    let data = tempdir();
    let file = dir.path().join("multi.slidedb");
    gen_multi("2x3", &file, data.path());
    let board = "4 1 2 5 0 3";
    // Named alone, the file answers in its own metric.
    let (code, out, err) = exe::run(&["stats", "--table", path_str(&file)], None, data.path());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("metric        multi-tile"), "{out}");
    let (code, _, err) = exe::run(
        &["solve", "--table", path_str(&file), board],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    // Asked in the other metric: refused, naming both.
    let (code, out, err) = exe::run(
        &[
            "solve",
            "--table",
            path_str(&file),
            "--metric",
            "single",
            board,
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("in the multi-tile metric, but the single-tile metric was asked for"),
        "{err}"
    );
    // A multi-tile table under a single-tile name in the data folder.
    std::fs::copy(&file, data.path().join("2x3-1-2-3-4-5-0.slidedb")).unwrap();
    let (code, _, err) = exe::run(&["solve", "--size", "2x3", board], None, data.path());
    assert_eq!(code, 2);
    assert!(
        err.contains("multi-tile metric") && err.contains("single-tile metric"),
        "{err}"
    );
}

#[test]
fn what_the_multi_tile_metric_does_not_answer_is_refused_saying_so() {
    let data = tempdir();
    // Past 14 cells, only 4x4 toward a goal with its blank in a corner.
    for args in [
        &[
            "solve",
            "--metric",
            "multi",
            "--goal",
            "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15",
            "1 2 3 4 5 6 0 7 8 9 10 11 12 13 14 15",
        ][..],
        &[
            "solve",
            "--metric",
            "multi",
            "--size",
            "3x5",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14",
        ][..],
    ] {
        let (code, out, err) = exe::run(args, None, data.path());
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(
            err.contains("boards are not answered in the multi-tile metric")
                && err.contains("toward a goal with the blank in a corner"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("building"), "refused before any work: {err}");
    }
    let (code, _, err) = exe::run(
        &[
            "solve",
            "--metric",
            "multi",
            "--size",
            "3x4",
            "1 2 3 4 5 6 7 8 9 10 0 11",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--metric multi"),
        "the fix names the metric: {err}"
    );
    // The 2x7 build keeps 16.3 GB resident, and has no form in segments.
    let (code, _, err) = run_gen(
        &["--size", "2x7", "--metric", "multi", "--memory", "1G"],
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("in the multi-tile metric keeps its 16345929600 bytes"),
        "{err}"
    );
    // The queries that need a full table say that 4x4 has none in this
    // metric, not that pattern databases answer it (they count
    // single-tile moves).
    for args in [
        &["stats", "--metric", "multi", "--size", "4x4"][..],
        &[
            "random",
            "--metric",
            "multi",
            "--size",
            "4x4",
            "--distance",
            "5",
        ][..],
    ] {
        let (code, _, err) = exe::run(args, None, data.path());
        assert_eq!(code, 2, "{args:?}");
        assert!(
            err.contains("no full table can serve 4x4 in the multi-tile metric")
                && err.contains("solved and probed there by IDA*")
                && !err.contains("pattern databases answer")
                && !err.contains("building"),
            "{args:?}: {err}"
        );
    }
}

/// A 4x4 board in the multi-tile metric is solved optimally by IDA* under
/// the coloured pattern database, which the process builds once, first,
/// and says so on stderr: each solution is legal, reaches the goal, and
/// counts its slides as its distance; an unsolvable board makes the exit
/// code 1. (Other goals with a corner blank, mirrored: the library's
/// tests.)
#[test]
fn a_4x4_board_is_solved_in_the_multi_tile_metric() {
    let data = tempdir();
    let boards = [
        // One slide of three tiles.
        ("1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15", Some(1)),
        ("12 1 10 2 7 11 4 14 5 0 9 15 8 13 6 3", None),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", None),
    ];
    let input: String = boards.iter().map(|(b, _)| format!("{b}\n")).collect();
    let (code, out, err) = exe::run(
        &["solve", "--json", "--metric", "multi", "--size", "4x4"],
        Some(input.as_bytes()),
        data.path(),
    );
    assert_eq!(code, 1, "one board is unsolvable: {err}");
    assert_eq!(
        err.matches("built the 4x4 pattern database of the multi-tile metric")
            .count(),
        1,
        "{err}"
    );
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON record a line"))
        .collect();
    assert_eq!(records.len(), boards.len(), "{out}");
    let goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0";
    for ((board, distance), record) in boards.iter().zip(&records) {
        assert_eq!(record["metric"], "multi", "{record}");
        if board.ends_with("15 14 0") {
            assert_eq!(record["solvable"], false, "{record}");
            continue;
        }
        let moves = record["moves"].as_str().unwrap();
        let slides = record["slides"].as_array().unwrap();
        assert_eq!(record["distance"], slides.len(), "{record}");
        let joined: String = slides.iter().map(|s| s.as_str().unwrap()).collect();
        assert_eq!(joined, moves);
        // No two slides in a row run along one axis (they would be one
        // slide, or none).
        for pair in slides.windows(2) {
            let axis = |s: &serde_json::Value| "ud".contains(&s.as_str().unwrap()[..1]);
            assert_ne!(axis(&pair[0]), axis(&pair[1]), "{record}");
        }
        assert_eq!(
            exe::apply(&exe::cells(board), 4, moves),
            exe::cells(goal),
            "{record}"
        );
        if let Some(d) = distance {
            assert_eq!(record["distance"], *d, "{record}");
        }
    }
}

/// A classic search named with `--algo` answers in the metric asked for:
/// the README board is 14 multi-tile moves by every optimal search, as by
/// the table, and the JSON says the metric and the moves.
#[test]
fn a_named_search_answers_in_the_multi_tile_metric() {
    let data = tempdir();
    for algo in ["table", "astar", "idastar", "bfs"] {
        let (code, out, err) = exe::run(
            &[
                "solve",
                "--metric",
                "multi",
                "--algo",
                algo,
                "--json",
                "2 3 4 1 5 x 7 6 8",
            ],
            None,
            data.path(),
        );
        assert_eq!(code, 0, "{algo}: {err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["distance"], 14, "{algo}: {out}");
        assert_eq!(v["metric"], "multi", "{algo}: {out}");
        let slides = v["slides"].as_array().unwrap();
        assert_eq!(slides.len(), 14, "{algo}: {out}");
        let joined: String = slides.iter().map(|m| m.as_str().unwrap()).collect();
        assert_eq!(joined, v["moves"].as_str().unwrap(), "{algo}");
    }
}

/// The two-bit file build in the multi-tile metric (a memory limit or
/// checkpoints ask for it; 13 and 14 cells always take it) writes the
/// in-memory multi-tile build's bytes, toward several goals.
#[test]
fn the_resumable_multi_tile_build_is_the_in_memory_one() {
    let data = tempdir();
    let dir = tempdir();
    for (size, goal) in [
        ("2x3", "1 2 3 4 5 0"),
        ("3x3", "1 2 3 4 5 6 7 8 0"),
        ("3x3", "1 2 3 4 0 5 6 7 8"),
        ("2x5", "1 2 3 4 5 6 7 8 9 0"),
        ("4x2", "0 1 2 3 4 5 6 7"),
    ] {
        let (a, b) = (dir.path().join("a.slidedb"), dir.path().join("b.slidedb"));
        let (a_str, b_str) = (path_str(&a), path_str(&b));
        let common = [
            "--size", size, "--goal", goal, "--metric", "multi", "--force",
        ];
        let mut two_bit = common.to_vec();
        two_bit.extend(["--out", a_str, "--checkpoint-every", "0"]);
        let (code, _, err) = run_gen(&two_bit, data.path());
        assert_eq!(code, 0, "{size} {goal}: {err}");
        assert!(err.contains("two-bit search"), "{size} {goal}: {err}");
        let mut in_memory = common.to_vec();
        in_memory.extend(["--out", b_str]);
        let (code, _, err) = run_gen(&in_memory, data.path());
        assert_eq!(code, 0, "{size} {goal}: {err}");
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "{size} toward {goal}: the same bytes"
        );
    }
}

/// The README's board, whose multi-tile distance `solve` gives.
const README_BOARD: &str = "2 3 4 1 5 x 7 6 8";

/// `solve --metric multi`'s distance for `board`.
fn multi_distance(board: &str, data: &std::path::Path) -> u64 {
    let (code, out, err) = exe::run(&["solve", "--metric", "multi", "--json", board], None, data);
    assert_eq!(code, 0, "{err}");
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    record["distance"].as_u64().unwrap()
}

/// `compare --metric multi` runs every row in the multi-tile metric: the
/// table is the multi-tile table, each optimal row is as long as `solve
/// --metric multi` says, in multi-tile moves, and is judged optimal
/// against it; the JSON rows carry `metric` and `slides` as `solve
/// --json` does, and each path plays to the goal.
#[test]
fn compare_in_the_multi_tile_metric_answers_every_row_in_it() {
    let data = tempdir();
    let want = multi_distance(README_BOARD, data.path());
    assert_eq!(want, 14);
    let (code, out, err) = exe::run(
        &[
            "compare",
            "--metric",
            "multi",
            "--json",
            "--quiet",
            README_BOARD,
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["table", "astar", "idastar", "bfs", "dfs", "iddfs"]);
    let board = exe::cells(README_BOARD);
    let goal = exe::cells("1 2 3 4 5 6 7 8 0");
    for row in &rows {
        let name = row["algorithm"].as_str().unwrap();
        assert_eq!(row["metric"], "multi", "{name}: {row}");
        let moves = row["moves"].as_str().unwrap();
        assert_eq!(
            exe::apply(&board, 3, moves),
            goal,
            "{name} plays to the goal"
        );
        let slides: Vec<&str> = row["slides"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(slides.concat(), moves, "{name}: the slides are the path");
        let length = row["length"].as_u64().unwrap();
        assert_eq!(length, slides.len() as u64, "{name}: one move a slide");
        if name == "dfs" {
            assert!(length >= want, "{name}");
            assert_eq!(row["optimal"], length == want, "{name}");
        } else {
            assert_eq!(length, want, "{name}: {row}");
            assert_eq!(row["optimal"], true, "{name}");
        }
        assert_eq!(row["stopped"], false, "{name}");
    }
    // The single-tile rows carry no metric, as `solve --json`'s do not.
    let (code, out, err) = exe::run(
        &[
            "compare",
            "--json",
            "--quiet",
            "--algos",
            "table,idastar",
            README_BOARD,
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("metric") && !out.contains("slides"), "{out}");
    assert!(out.contains(r#""length":19"#), "{out}");
}

/// The table view in the multi-tile metric says so, counts each row in
/// multi-tile moves and shows the paths as moves apart; every heuristic
/// is taken in its admissible multi-tile form, and `pdb` is refused.
#[test]
fn compare_in_the_multi_tile_metric_shows_multi_tile_moves_under_every_heuristic() {
    let data = tempdir();
    for heuristic in ["manhattan", "linear-conflict", "walking-distance"] {
        let (code, out, err) = exe::run(
            &[
                "compare",
                "--metric",
                "mtm",
                "--algos",
                "table,astar,idastar",
                "--heuristic",
                heuristic,
                "--quiet",
                README_BOARD,
            ],
            None,
            data.path(),
        );
        assert_eq!(code, 0, "{heuristic}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "board 2 3 4 1 5 0 7 6 8  goal 1 2 3 4 5 6 7 8 0  multi-tile moves"
        );
        for (line, name) in lines[2..5].iter().zip(["table", "astar", "idastar"]) {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(&words[..3], [name, "14", "yes"], "{heuristic}: {line}");
        }
        // The paths, a move a word: 14 words after the name.
        for line in &lines[6..9] {
            assert_eq!(line.split_whitespace().count(), 15, "{heuristic}: {line}");
        }
    }
    let (code, _, err) = exe::run(
        &[
            "compare",
            "--metric",
            "multi",
            "--heuristic",
            "pdb",
            README_BOARD,
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--heuristic pdb is for solve and verify"),
        "{err}"
    );
}

/// `verify --metric multi --sample N` checks the multi-tile table, then
/// the search on the sample in multi-tile moves: IDA* and A* with the
/// metric's estimate by default, and with Manhattan in its multi-tile
/// form; pattern databases, single-tile only, are refused saying so.
#[test]
fn verify_in_the_multi_tile_metric_checks_a_sample_of_searches_in_it() {
    let data = tempdir();
    for (algo, heuristic) in [
        ("idastar", None),
        ("astar", None),
        ("idastar", Some("manhattan")),
    ] {
        let mut args = vec!["verify", "--metric", "multi", "--size", "3x3"];
        args.extend(["--sample", "50", "--algo", algo]);
        if let Some(h) = heuristic {
            args.extend(["--heuristic", h]);
        }
        let (code, out, err) = exe::run(&args, None, data.path());
        assert_eq!(code, 0, "{algo} {heuristic:?}: {out}{err}");
        assert!(out.contains("fresh search agree"), "{out}");
        assert!(
            out.contains(&format!("{algo}: 50 states checked, 0 mismatches")),
            "{algo} {heuristic:?}: {out}"
        );
    }
    let (code, _, err) = exe::run(
        &[
            "verify",
            "--metric",
            "multi",
            "--size",
            "3x3",
            "--heuristic",
            "pdb",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("not answered in the multi-tile metric") && err.contains("pattern databases"),
        "{err}"
    );
}

/// A multi-tile table with one entry changed and its checksums made
/// right again passes the checksum, and `verify` finds the entry by the
/// multi-tile neighbour rule, naming its board; the search is not
/// checked against it.
#[test]
fn verify_finds_a_wrong_entry_of_a_multi_tile_table() {
    let data = tempdir();
    let dir = tempdir();
    let file = dir.path().join("multi.slidedb");
    gen_multi("3x3", &file, data.path());
    let (code, out, err) = exe::run(
        &["verify", "--table", path_str(&file), "--sample", "10"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("astar: 10 states checked, 0 mismatches"),
        "{out}"
    );
    let mut bytes = std::fs::read(&file).unwrap();
    let body = u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize;
    // Entry 4 × 1000, from r to r + 1 mod 3 (FORMAT.md: body CRC at 56,
    // header CRC over bytes 0..60 at 60).
    let at = body + 1000;
    let r = bytes[at] & 3;
    bytes[at] = (bytes[at] & !3) | ((r + 1) % 3);
    let crc = crc32fast::hash(&bytes[body..]);
    bytes[56..60].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&bytes[..60]);
    bytes[60..64].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    let (code, out, err) = exe::run(
        &["verify", "--table", path_str(&file), "--sample", "10"],
        None,
        data.path(),
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("table: FAULT: the entry of "), "{out}");
    assert!(!out.contains("checksum"), "{out}");
    assert!(out.contains("the search is not checked"), "{out}");
}

/// `--heuristic walking-distance` names the multi-tile metric's estimate
/// anywhere a heuristic is taken; in the single-tile metric it is
/// admissible too, and `solve --algo idastar` under it is optimal.
#[test]
fn the_walking_distance_is_named_on_the_command_line() {
    let data = tempdir();
    let (code, out, err) = exe::run(
        &[
            "solve",
            "--algo",
            "idastar",
            "--heuristic",
            "walking-distance",
            "--json",
            README_BOARD,
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(record["distance"], 19, "{out}");
    let (code, out, err) = exe::run(
        &[
            "verify",
            "--size",
            "2x3",
            "--algo",
            "astar",
            "--heuristic",
            "walking-distance",
            "--all",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("astar: 360 states checked, 0 mismatches"),
        "{out}"
    );
}
