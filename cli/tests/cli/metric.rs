//! The multi-tile metric on the command line: `--metric` on `slidedb-gen`
//! and on `slidedb`'s commands, the data folder's file per metric, and a
//! file of one metric asked for in the other refused, naming both.

use crate::exe::{self, path_str, run_gen, tempdir};

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
    let (code, _, err) = run_gen(
        &[
            "--size",
            "2x3",
            "--metric",
            "multi",
            "--out",
            path_str(&file),
            "--quiet",
        ],
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
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
    let (code, _, err) = exe::run(
        &[
            "solve",
            "--metric",
            "multi",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("4x4 boards are not answered in the multi-tile metric"),
        "{err}"
    );
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
    let (code, _, err) = exe::run(
        &["compare", "--metric", "multi", "724506831"],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("single-tile moves"), "{err}");
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
