//! The tablebase commands as a user runs them: probe, count, random, layer.
//!
//! Every test runs the built `slidedb` with its own empty data folder (the
//! small tables build themselves on first use). Answers are checked against
//! what the test works out itself: boards after a move by hand
//! (`exe::apply`), distances and solution counts by the plain reference BFS
//! of `common`, and distances again through `slidedb solve`.

use crate::common;
use crate::exe;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde_json::Value;
use slidedb::{Board, Move, Shape};

const SEED: &str = "2 3 4 1 5 x 7 6 8";
const SOLVED: &str = "1 2 3 4 5 6 7 8 0";
const UNSOLVABLE: &str = "2 1 3 4 5 6 7 8 0";
/// The course's board and its goal with the blank first.
const COURSE: &str = "7 2 4 5 0 6 8 3 1";
const BLANK_FIRST: &str = "0 1 2 3 4 5 6 7 8";
const CENTRE: &str = "1 2 3 4 0 5 6 7 8";
/// The two 3x3 boards 31 moves from the usual goal.
const ANTIPODES: [&str; 2] = ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"];

// ---------------------------------------------------------------- helpers

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {l:?}: {e}")))
        .collect()
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect();
    k.sort();
    k
}

/// Cells written as `Board`'s Display writes them: numbers, blank 0.
fn text(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A board's text in the canonical form (`x` → 0, one space).
fn canon(board: &str) -> String {
    text(&exe::cells(board))
}

/// Every legal move of the blank, in the order u d l r, and the cells
/// after it, worked out by hand.
fn legal_moves(cells: &[u8], cols: usize) -> Vec<(char, Vec<u8>)> {
    let rows = cells.len() / cols;
    let blank = cells.iter().position(|&t| t == 0).expect("a blank");
    let (r, c) = (blank / cols, blank % cols);
    let mut out = Vec::new();
    for (letter, legal) in [
        ('u', r > 0),
        ('d', r + 1 < rows),
        ('l', c > 0),
        ('r', c + 1 < cols),
    ] {
        if legal {
            out.push((letter, exe::apply(cells, cols, &letter.to_string())));
        }
    }
    out
}

/// Whether `cells` can reach `goal`, by parity alone (independent of the
/// library): the permutation taking one to the other, blank included, must
/// have the parity of the blank's taxicab distance between them.
fn reachable(cells: &[u8], goal: &[u8], cols: usize) -> bool {
    assert_eq!(cells.len(), goal.len());
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    if sorted != (0..cells.len() as u8).collect::<Vec<_>>() {
        return false;
    }
    let mut where_in_goal = vec![0usize; cells.len()];
    for (i, &t) in goal.iter().enumerate() {
        where_in_goal[t as usize] = i;
    }
    let perm: Vec<usize> = cells.iter().map(|&t| where_in_goal[t as usize]).collect();
    let mut seen = vec![false; perm.len()];
    let mut transpositions = 0;
    for start in 0..perm.len() {
        let mut len = 0;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = perm[i];
            len += 1;
        }
        if len > 0 {
            transpositions += len - 1;
        }
    }
    let b = cells.iter().position(|&t| t == 0).unwrap();
    let g = goal.iter().position(|&t| t == 0).unwrap();
    let taxicab = (b / cols).abs_diff(g / cols) + (b % cols).abs_diff(g % cols);
    transpositions % 2 == taxicab % 2
}

/// Every arrangement of the tiles 0..n, in lexicographic order.
fn permutations(n: u8) -> Vec<Vec<u8>> {
    fn go(rest: &mut Vec<u8>, here: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if rest.is_empty() {
            out.push(here.clone());
            return;
        }
        for i in 0..rest.len() {
            let t = rest.remove(i);
            here.push(t);
            go(rest, here, out);
            here.pop();
            rest.insert(i, t);
        }
    }
    let mut out = Vec::new();
    go(&mut (0..n).collect(), &mut Vec::new(), &mut out);
    out
}

/// Distances toward `goal` by the reference BFS, keyed by board text.
fn reference(goal: &str, shape: Shape) -> HashMap<String, u32> {
    let goal = Board::parse(goal, Some(shape)).unwrap();
    common::reference_bfs(&goal)
        .into_iter()
        .map(|(b, d)| (b.to_string(), d))
        .collect()
}

/// The number of optimal solutions of every board toward `goal`: 1 for the
/// goal, else the sum over the neighbours one closer, by the reference BFS.
fn reference_counts(goal: &str, shape: Shape) -> HashMap<String, (u32, u128)> {
    let goal = Board::parse(goal, Some(shape)).unwrap();
    let dist = common::reference_bfs(&goal);
    let mut order: Vec<(&Board, &u32)> = dist.iter().collect();
    order.sort_by_key(|&(_, &d)| d);
    let mut count: HashMap<Board, u128> = HashMap::new();
    for (b, &d) in order {
        let c = if d == 0 {
            1
        } else {
            Move::ALL
                .iter()
                .filter_map(|&m| b.apply(m))
                .filter(|n| dist[n] + 1 == d)
                .map(|n| count[&n])
                .sum()
        };
        count.insert(*b, c);
    }
    dist.iter()
        .map(|(b, &d)| (b.to_string(), (d, count[b])))
        .collect()
}

/// `slidedb solve --json` of every board (stdin), with `extra` options:
/// each board's distance, `None` if unsolvable.
fn solve_distances(boards: &[String], extra: &[&str], data: &Path) -> Vec<Option<u64>> {
    let mut args = vec!["solve", "--json"];
    args.extend_from_slice(extra);
    let input = boards.join("\n") + "\n";
    let (code, stdout, stderr) = exe::run(&args, Some(input.as_bytes()), data);
    assert!(code == 0 || code == 1, "solve {args:?}: {code}, {stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), boards.len(), "stdout: {stdout}");
    lines
        .iter()
        .zip(boards)
        .map(|(v, b)| {
            assert_eq!(v["board"], canon(b), "{v}");
            if let Some(m) = v["moves"].as_str() {
                assert_eq!(Some(m.len() as u64), v["distance"].as_u64(), "{v}");
            }
            v["distance"].as_u64()
        })
        .collect()
}

fn lines(stdout: &str) -> Vec<String> {
    stdout.lines().map(str::to_string).collect()
}

// ------------------------------------------------------------------ probe

#[test]
fn probe_seed_and_solved_boards_text() {
    let data = exe::tempdir();
    let (code, stdout, stderr) = exe::run(&["probe", SEED, SOLVED], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "19  u:18* d:18* l:18*\n0  u:1 l:1\n");
}

#[test]
fn probe_stdin_batch_in_order_and_exit_codes() {
    let data = exe::tempdir();
    let input = format!("{SEED}\n{UNSOLVABLE}\n1 2 3\n{SOLVED}\n");
    let (code, stdout, stderr) = exe::run(&["probe"], Some(input.as_bytes()), data.path());
    assert_eq!(
        stdout,
        "19  u:18* d:18* l:18*\nunsolvable\ninvalid\n0  u:1 l:1\n"
    );
    assert_eq!(code, 2, "stderr: {stderr}");
    assert_eq!(exe::stderr_line_numbers(&stderr), vec![3], "{stderr}");

    let input = format!("{UNSOLVABLE}\n");
    let (code, stdout, stderr) = exe::run(&["probe"], Some(input.as_bytes()), data.path());
    assert_eq!(stdout, "unsolvable\n");
    assert_eq!(code, 1, "stderr: {stderr}");

    let (code, stdout, _) = exe::run(&["probe", SEED, UNSOLVABLE], None, data.path());
    assert_eq!(stdout, "19  u:18* d:18* l:18*\nunsolvable\n");
    assert_eq!(code, 1);
}

/// Checks one probe record toward `goal` (3 columns) against hand-made
/// moves and `solve --json` with `extra`; returns its distance.
fn check_probe_record(
    v: &Value,
    board: &str,
    goal: &str,
    extra: &[&str],
    data: &Path,
) -> Option<u64> {
    assert_eq!(
        keys(v),
        ["board", "distance", "goal", "moves", "solvable"],
        "{v}"
    );
    assert_eq!(v["board"], canon(board), "{v}");
    assert_eq!(v["goal"], canon(goal), "{v}");
    let moves = v["moves"].as_array().expect("moves is a list");
    let own = solve_distances(&[board.to_string()], extra, data)[0];
    let Some(d) = own else {
        assert_eq!(v["solvable"], false, "{v}");
        assert!(v["distance"].is_null(), "{v}");
        assert!(moves.is_empty(), "{v}");
        return None;
    };
    assert_eq!(v["solvable"], true, "{v}");
    assert_eq!(v["distance"].as_u64(), Some(d), "{v}");
    let expected = legal_moves(&exe::cells(board), 3);
    assert_eq!(moves.len(), expected.len(), "{v}");
    let next: Vec<String> = expected.iter().map(|(_, c)| text(c)).collect();
    let solved = solve_distances(&next, extra, data);
    for ((m, (letter, after)), sd) in moves.iter().zip(&expected).zip(solved) {
        assert_eq!(keys(m), ["board", "distance", "move", "optimal"], "{m}");
        assert_eq!(m["move"], letter.to_string(), "{v}");
        assert_eq!(m["board"], text(after), "{v}");
        let md = m["distance"].as_u64().expect("a distance");
        assert_eq!(Some(md), sd, "move {letter} of {board}: {v}");
        assert_eq!(m["optimal"], Value::Bool(md + 1 == d), "{m}");
    }
    Some(d)
}

#[test]
fn probe_json_records() {
    let data = exe::tempdir();
    let input = format!("{SEED}\n{SOLVED}\n{UNSOLVABLE}\n1 2 3\n");
    let (code, stdout, stderr) =
        exe::run(&["probe", "--json"], Some(input.as_bytes()), data.path());
    assert_eq!(code, 2, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), 4, "stdout: {stdout}");
    assert_eq!(
        check_probe_record(&v[0], SEED, SOLVED, &[], data.path()),
        Some(19)
    );
    assert_eq!(
        check_probe_record(&v[1], SOLVED, SOLVED, &[], data.path()),
        Some(0)
    );
    assert_eq!(
        check_probe_record(&v[2], UNSOLVABLE, SOLVED, &[], data.path()),
        None
    );
    // The seed board: three moves, all one closer.
    assert!(
        v[0]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["optimal"] == true)
    );
    // The goal: two moves, both one farther.
    assert!(
        v[1]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["optimal"] == false)
    );
    // Numbers are numbers, not strings.
    assert!(v[0]["distance"].is_u64() && v[0]["moves"][0]["distance"].is_u64());
    assert!(v[0]["solvable"].is_boolean() && v[0]["moves"][0]["optimal"].is_boolean());
    // An invalid line is a record of its own, as with `solve --json`.
    assert_eq!(keys(&v[3]), ["error", "input", "line"], "{}", v[3]);
    assert_eq!(v[3]["line"], 4);
    assert_eq!(v[3]["input"], "1 2 3");
}

#[test]
fn probe_toward_blank_first_goal() {
    let data = exe::tempdir();
    let extra = ["--goal", BLANK_FIRST];
    let (code, stdout, stderr) = exe::run(
        &["probe", "--json", "--goal", BLANK_FIRST, COURSE],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), 1);
    let d = check_probe_record(&v[0], COURSE, BLANK_FIRST, &extra, data.path());
    assert_eq!(d, Some(26));
    let moves = v[0]["moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m["optimal"] == true), "{}", v[0]);

    // The text line says the same.
    let (code, stdout, _) = exe::run(&["probe", "--goal", BLANK_FIRST, COURSE], None, data.path());
    assert_eq!(code, 0);
    let mut line = "26 ".to_string();
    for m in moves {
        let star = if m["optimal"] == true { "*" } else { "" };
        line += &format!(" {}:{}{star}", m["move"].as_str().unwrap(), m["distance"]);
    }
    assert_eq!(stdout, line + "\n");
}

#[test]
fn probe_every_2x3_board_matches_reference_bfs() {
    let data = exe::tempdir();
    let goal = "1 2 3 4 5 0";
    let dist = reference(goal, Shape::new(2, 3).unwrap());
    let boards: Vec<Vec<u8>> = permutations(6);
    let input: String = boards.iter().map(|b| text(b) + "\n").collect();
    let (code, stdout, stderr) = exe::run(
        &["probe", "--json", "--size", "2x3"],
        Some(input.as_bytes()),
        data.path(),
    );
    assert_eq!(code, 1, "half are unsolvable; stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), 720);
    let mut solvable = 0;
    for (b, rec) in boards.iter().zip(&v) {
        let t = text(b);
        assert_eq!(rec["board"], t);
        assert_eq!(rec["goal"], goal);
        match dist.get(&t) {
            None => {
                assert_eq!(rec["solvable"], false, "{rec}");
                assert!(rec["distance"].is_null(), "{rec}");
                assert!(!reachable(b, &exe::cells(goal), 3), "{t}");
            }
            Some(&d) => {
                solvable += 1;
                assert_eq!(rec["distance"].as_u64(), Some(d as u64), "{rec}");
                let moves = rec["moves"].as_array().unwrap();
                let expected = legal_moves(b, 3);
                assert_eq!(moves.len(), expected.len(), "{rec}");
                for (m, (letter, after)) in moves.iter().zip(&expected) {
                    let nd = dist[&text(after)] as u64;
                    assert_eq!(m["move"], letter.to_string(), "{rec}");
                    assert_eq!(m["board"], text(after), "{rec}");
                    assert_eq!(m["distance"].as_u64(), Some(nd), "{rec}");
                    assert_eq!(m["optimal"], Value::Bool(nd + 1 == d as u64), "{rec}");
                }
            }
        }
    }
    assert_eq!(solvable, 360);
}

// ------------------------------------------------------------------ count

#[test]
fn count_known_boards_text() {
    let data = exe::tempdir();
    let (code, stdout, stderr) =
        exe::run(&["count", ANTIPODES[0], SEED, SOLVED], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "40\n4\n1\n");

    let input = format!("{SEED}\n{UNSOLVABLE}\n1 2 3\n1 2 3 4 5 6 7 8 9\n{SOLVED}\n");
    let (code, stdout, stderr) = exe::run(&["count"], Some(input.as_bytes()), data.path());
    assert_eq!(stdout, "4\nunsolvable\ninvalid\ninvalid\n1\n");
    assert_eq!(code, 2);
    assert_eq!(exe::stderr_line_numbers(&stderr), vec![3, 4], "{stderr}");

    let (code, stdout, _) = exe::run(&["count", UNSOLVABLE], None, data.path());
    assert_eq!((code, stdout.as_str()), (1, "unsolvable\n"));
}

#[test]
fn count_json_toward_blank_first_goal() {
    let data = exe::tempdir();
    let (code, stdout, stderr) = exe::run(
        &[
            "count",
            "--json",
            "--goal",
            BLANK_FIRST,
            COURSE,
            BLANK_FIRST,
            UNSOLVABLE,
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 1, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), 3, "stdout: {stdout}");
    let all = ["board", "count", "distance", "goal", "solvable"];
    for r in &v {
        assert_eq!(keys(r), all, "{r}");
        assert_eq!(r["goal"], BLANK_FIRST, "{r}");
    }
    assert_eq!(v[0]["board"], COURSE);
    assert_eq!(v[0]["solvable"], true);
    assert_eq!(v[0]["distance"], 26);
    assert_eq!(v[0]["count"], 3);
    assert!(v[0]["count"].is_u64(), "a number: {}", v[0]);
    assert_eq!(v[1]["distance"], 0);
    assert_eq!(v[1]["count"], 1);
    // The swap of two tiles cannot reach this goal either.
    assert!(!reachable(
        &exe::cells(UNSOLVABLE),
        &exe::cells(BLANK_FIRST),
        3
    ));
    assert_eq!(v[2]["solvable"], false);
    assert!(
        v[2]["distance"].is_null() && v[2]["count"].is_null(),
        "{}",
        v[2]
    );
}

#[test]
fn count_refuses_4x4() {
    let data = exe::tempdir();
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    let (code, stdout, stderr) = exe::run(&["count", "--size", "4x4", board], None, data.path());
    assert_eq!(code, 2, "stdout: {stdout}");
    assert!(
        stderr.contains("count needs a full table"),
        "stderr: {stderr}"
    );
    assert_eq!(stdout, "", "no count");
}

#[test]
fn count_every_2x3_board_matches_reference() {
    let data = exe::tempdir();
    let goal = "1 2 3 4 5 0";
    let reference = reference_counts(goal, Shape::new(2, 3).unwrap());
    let boards = permutations(6);
    let input: String = boards.iter().map(|b| text(b) + "\n").collect();
    let (code, stdout, stderr) = exe::run(
        &["count", "--size", "2x3", "--json"],
        Some(input.as_bytes()),
        data.path(),
    );
    assert_eq!(code, 1, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), boards.len());
    for (b, r) in boards.iter().zip(&v) {
        assert_eq!(r["board"], text(b));
        match reference.get(&text(b)) {
            None => assert_eq!(r["solvable"], false, "{r}"),
            Some(&(d, c)) => {
                assert_eq!(r["distance"].as_u64(), Some(d as u64), "{r}");
                assert_eq!(r["count"].as_u64().map(u128::from), Some(c), "{r}");
            }
        }
    }
    // The text form agrees too.
    let (_, plain, _) = exe::run(
        &["count", "--size", "2x3"],
        Some(input.as_bytes()),
        data.path(),
    );
    let expected: String = boards
        .iter()
        .map(|b| match reference.get(&text(b)) {
            None => "unsolvable\n".to_string(),
            Some((_, c)) => format!("{c}\n"),
        })
        .collect();
    assert_eq!(plain, expected);
}

#[test]
fn count_3x3_sample_matches_reference() {
    let data = exe::tempdir();
    let reference = reference_counts(SOLVED, Shape::EIGHT);
    // Up to twelve boards of every distance, in text order, and the seed.
    let mut all: Vec<(u32, &String)> = reference.iter().map(|(b, &(d, _))| (d, b)).collect();
    all.sort();
    let mut sample: Vec<String> = Vec::new();
    for d in 0..=31 {
        let layer: Vec<&String> = all
            .iter()
            .filter(|(x, _)| *x == d)
            .map(|(_, b)| *b)
            .collect();
        let step = (layer.len() / 12).max(1);
        sample.extend(layer.iter().step_by(step).take(12).map(|b| (*b).clone()));
    }
    sample.push(canon(SEED));
    assert!(sample.contains(&ANTIPODES[0].to_string()));
    assert!(sample.len() > 300, "{}", sample.len());
    let input: String = sample.iter().map(|b| b.clone() + "\n").collect();
    let (code, stdout, stderr) = exe::run(&["count"], Some(input.as_bytes()), data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let expected: String = sample
        .iter()
        .map(|b| format!("{}\n", reference[b].1))
        .collect();
    assert_eq!(stdout, expected);
}

// ----------------------------------------------------------------- random

#[test]
fn random_distance_31_gives_both_antipodes() {
    let data = exe::tempdir();
    let (code, stdout, stderr) = exe::run(
        &["random", "--distance", "31", "--count", "50", "--seed", "7"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let got = lines(&stdout);
    assert_eq!(got.len(), 50);
    let seen: BTreeSet<&str> = got.iter().map(String::as_str).collect();
    assert_eq!(seen, BTreeSet::from(ANTIPODES), "stdout: {stdout}");
}

#[test]
fn random_distance_20_json_seeded() {
    let data = exe::tempdir();
    let args = [
        "random",
        "--distance",
        "20",
        "--count",
        "20",
        "--seed",
        "3",
        "--json",
    ];
    let (code, stdout, stderr) = exe::run(&args, None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), 20);
    let mut boards = Vec::new();
    for r in &v {
        assert_eq!(keys(r), ["board", "distance", "goal"], "{r}");
        assert_eq!(r["distance"], 20, "{r}");
        assert_eq!(r["goal"], SOLVED, "{r}");
        boards.push(r["board"].as_str().unwrap().to_string());
    }
    assert!(
        solve_distances(&boards, &[], data.path())
            .iter()
            .all(|&d| d == Some(20)),
        "{boards:?}"
    );
    let distinct: BTreeSet<&String> = boards.iter().collect();
    assert!(distinct.len() > 10, "layer 20 has thousands: {boards:?}");

    let (_, again, _) = exe::run(&args, None, data.path());
    assert_eq!(again, stdout, "same seed, same boards");
    let mut other = args;
    other[6] = "4";
    let (code, different, _) = exe::run(&other, None, data.path());
    assert_eq!(code, 0);
    assert_ne!(different, stdout, "another seed, other boards");
    assert!(json_lines(&different).iter().all(|r| r["distance"] == 20));
}

#[test]
fn random_min_max_stays_in_range() {
    let data = exe::tempdir();
    let (code, stdout, stderr) = exe::run(
        &[
            "random", "--min", "5", "--max", "7", "--count", "200", "--seed", "11", "--json",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), 200);
    let boards: Vec<String> = v
        .iter()
        .map(|r| r["board"].as_str().unwrap().into())
        .collect();
    let solved = solve_distances(&boards, &[], data.path());
    let mut seen = BTreeSet::new();
    for (r, d) in v.iter().zip(solved) {
        let rd = r["distance"].as_u64().expect("a distance");
        assert!((5..=7).contains(&rd), "{r}");
        assert_eq!(Some(rd), d, "solve disagrees: {r}");
        seen.insert(rd);
    }
    // Layers 5, 6, 7 hold 20, 39 and 62 boards: 200 draws meet them all.
    assert_eq!(seen, BTreeSet::from([5, 6, 7]));
}

#[test]
fn random_refuses_impossible_ranges() {
    let data = exe::tempdir();
    let (code, stdout, stderr) = exe::run(&["random", "--distance", "40"], None, data.path());
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("31"),
        "names the farthest distance: {stderr}"
    );

    let (code, stdout, stderr) =
        exe::run(&["random", "--min", "9", "--max", "3"], None, data.path());
    assert_eq!(code, 2, "stderr: {stderr}");
    assert_eq!(stdout, "");
    assert!(!stderr.is_empty());
}

#[test]
fn random_2x5_at_max_distance() {
    let data = exe::tempdir();
    let (code, _, stderr) = exe::run_gen(&["--size", "2x5", "--quiet"], data.path());
    assert_eq!(code, 0, "slidedb-gen: {stderr}");
    let published = common::distribution("2x5-blank-corner.txt");
    // The published layers are those of the goal `--size 2x5` means.
    let shape = Shape::new(2, 5).unwrap();
    assert_eq!(published.goal, Board::solved(shape));
    let max = published.layers.len() as u64 - 1;
    assert_eq!(max, 55);
    let (code, stdout, stderr) = exe::run(
        &[
            "random",
            "--size",
            "2x5",
            "--distance",
            "max",
            "--count",
            "10",
            "--seed",
            "5",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let boards = lines(&stdout);
    assert_eq!(boards.len(), 10);
    let antipodes: BTreeSet<String> = published.antipodes.iter().map(|b| b.to_string()).collect();
    for b in &boards {
        assert!(antipodes.contains(b), "{b} is not at distance 55");
    }
    let solved = solve_distances(&boards, &["--size", "2x5"], data.path());
    assert!(solved.iter().all(|&d| d == Some(max)), "{solved:?}");
}

#[test]
fn random_4x4_without_a_distance() {
    let data = exe::tempdir();
    let (code, stdout, stderr) = exe::run(
        &[
            "random", "--size", "4x4", "--json", "--count", "20", "--seed", "1",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), 20);
    let goal: Vec<u8> = (1..16).chain([0]).collect();
    let mut distinct = BTreeSet::new();
    for r in &v {
        assert_eq!(keys(r), ["board", "distance", "goal"], "{r}");
        assert!(r["distance"].is_null(), "{r}");
        assert_eq!(r["goal"], text(&goal), "{r}");
        let cells = exe::cells(r["board"].as_str().unwrap());
        assert_eq!(cells.len(), 16, "{r}");
        assert!(reachable(&cells, &goal, 4), "cannot reach the goal: {r}");
        distinct.insert(cells);
    }
    assert!(distinct.len() > 15, "boards repeat: {stdout}");
    // Without --json: the same boards, one per line.
    let (code, plain, _) = exe::run(
        &["random", "--size", "4x4", "--count", "20", "--seed", "1"],
        None,
        data.path(),
    );
    assert_eq!(code, 0);
    let from_json: Vec<String> = v
        .iter()
        .map(|r| r["board"].as_str().unwrap().into())
        .collect();
    assert_eq!(lines(&plain), from_json);
}

#[test]
fn random_3x3_without_a_distance_has_table_distances() {
    let data = exe::tempdir();
    let dist = reference(SOLVED, Shape::EIGHT);
    let (code, stdout, stderr) = exe::run(
        &["random", "--json", "--count", "100", "--seed", "9"],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), 100);
    let mut sum = 0u64;
    for r in &v {
        let b = r["board"].as_str().unwrap();
        let d = dist.get(b).unwrap_or_else(|| panic!("not solvable: {r}"));
        assert_eq!(r["distance"].as_u64(), Some(*d as u64), "{r}");
        sum += *d as u64;
    }
    // Uniform over all boards: the mean distance of the 3x3 boards is 21.97
    // (standard deviation 3.2, so 0.32 for a mean of 100); a draw that
    // favoured boards near the goal, or few boards, would miss this.
    let mean = sum as f64 / v.len() as f64;
    let all_mean = dist.values().map(|&d| d as f64).sum::<f64>() / dist.len() as f64;
    assert!((all_mean - 21.97).abs() < 0.01, "{all_mean}");
    assert!(
        (mean - all_mean).abs() < 1.5,
        "mean distance {mean}, expected about {all_mean}"
    );
}

#[test]
fn random_toward_blank_first_goal_at_31() {
    let data = exe::tempdir();
    let dist = reference(BLANK_FIRST, Shape::EIGHT);
    let far: BTreeSet<&str> = dist
        .iter()
        .filter(|&(_, &d)| d == 31)
        .map(|(b, _)| b.as_str())
        .collect();
    assert_eq!(far.len(), 2);
    let (code, stdout, stderr) = exe::run(
        &[
            "random",
            "--goal",
            BLANK_FIRST,
            "--distance",
            "31",
            "--count",
            "20",
            "--seed",
            "2",
        ],
        None,
        data.path(),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let boards = lines(&stdout);
    assert_eq!(boards.len(), 20);
    for b in &boards {
        assert!(far.contains(b.as_str()), "{b} is not 31 from {BLANK_FIRST}");
    }
    let solved = solve_distances(&boards, &["--goal", BLANK_FIRST], data.path());
    assert!(solved.iter().all(|&d| d == Some(31)), "{solved:?}");
}

// ------------------------------------------------------------------ layer

#[test]
fn layer_31_and_counts() {
    let data = exe::tempdir();
    let (code, stdout, stderr) = exe::run(&["layer", "31"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let got = lines(&stdout);
    assert_eq!(got.len(), 2, "stdout: {stdout}");
    let got: BTreeSet<&str> = got.iter().map(String::as_str).collect();
    assert_eq!(got, BTreeSet::from(ANTIPODES));

    let (code, stdout, _) = exe::run(&["layer", "max"], None, data.path());
    assert_eq!(code, 0);
    assert_eq!(lines(&stdout).len(), 2);
    let (code, stdout, _) = exe::run(&["layer", "max", "--count-only"], None, data.path());
    assert_eq!((code, stdout.as_str()), (0, "2\n"));

    let dist = reference(SOLVED, Shape::EIGHT);
    let at30: BTreeSet<&str> = dist
        .iter()
        .filter(|&(_, &d)| d == 30)
        .map(|(b, _)| b.as_str())
        .collect();
    let (code, counted, _) = exe::run(&["layer", "30", "--count-only"], None, data.path());
    assert_eq!(code, 0);
    let (code, listed, _) = exe::run(&["layer", "30"], None, data.path());
    assert_eq!(code, 0);
    let listed = lines(&listed);
    assert_eq!(counted, format!("{}\n", listed.len()));
    assert_eq!(listed.len(), at30.len());
    let listed_set: BTreeSet<&str> = listed.iter().map(String::as_str).collect();
    assert_eq!(listed_set, at30, "layer 30 is every board 30 away, once");
}

/// On a table whose search takes seconds (3x4 and up), `layer` and
/// `random --distance` say the search's progress on stderr (off a
/// terminal: a line each tenth of its layers), and `--quiet` says none of
/// it; the boards are the same.
#[test]
fn a_long_search_shows_its_progress_and_quiet_hides_it() {
    let data = exe::tempdir();
    let table = data.path().join("3x4.slidedb");
    let (code, _, stderr) = exe::run_gen(
        &["--size", "3x4", "--quiet", "--out", exe::path_str(&table)],
        data.path(),
    );
    assert_eq!(code, 0, "{stderr}");
    let layer = [
        "layer",
        "--table",
        exe::path_str(&table),
        "20",
        "--limit",
        "3",
    ];
    let (code, shown, stderr) = exe::run(&layer, None, data.path());
    assert_eq!(code, 0, "{stderr}");
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("searched layer"))
        .collect();
    assert_eq!(said.len(), 10, "a line each tenth: {stderr}");
    assert!(
        said[9].starts_with("slidedb: searched layer 20 of 20: "),
        "{stderr}"
    );
    let quiet: Vec<&str> = layer.iter().copied().chain(["--quiet"]).collect();
    let (code, hidden, stderr) = exe::run(&quiet, None, data.path());
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(hidden, shown);
    assert_eq!(lines(&shown).len(), 3);

    let random = [
        "random",
        "--table",
        exe::path_str(&table),
        "--distance",
        "53",
        "--seed",
        "1",
    ];
    let (code, drawn, stderr) = exe::run(&random, None, data.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("slidedb: searched layer"), "{stderr}");
    let quiet: Vec<&str> = random.iter().copied().chain(["--quiet"]).collect();
    // Listed once, the rare layers are kept beside the table: remove them
    // so that the quiet run searches again.
    for entry in std::fs::read_dir(data.path()).unwrap() {
        let path = entry.unwrap().path();
        if path != table && path.to_string_lossy().contains("3x4.slidedb") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let (code, again, stderr) = exe::run(&quiet, None, data.path());
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(again, drawn);
}

#[test]
fn layer_limit_and_json() {
    let data = exe::tempdir();
    let (_, full, _) = exe::run(&["layer", "10"], None, data.path());
    let full = lines(&full);
    assert_eq!(full.len(), 286);
    let (code, stdout, stderr) = exe::run(&["layer", "10", "--limit", "3"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(lines(&stdout), full[..3], "the first three of the layer");

    let (code, stdout, stderr) = exe::run(&["layer", "10", "--json"], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let v = json_lines(&stdout);
    assert_eq!(v.len(), full.len());
    for (r, b) in v.iter().zip(&full) {
        assert_eq!(keys(r), ["board", "distance", "goal"], "{r}");
        assert_eq!(r["board"], b.as_str());
        assert_eq!(r["distance"], 10, "{r}");
        assert_eq!(r["goal"], SOLVED, "{r}");
    }
    let solved = solve_distances(&full, &[], data.path());
    assert!(solved.iter().all(|&d| d == Some(10)));

    let (code, stdout, _) = exe::run(
        &["layer", "10", "--json", "--limit", "2"],
        None,
        data.path(),
    );
    assert_eq!(code, 0);
    assert_eq!(json_lines(&stdout), v[..2]);
}

/// A distance past the farthest boards is an error for `layer` (listing
/// or counting) as for `random --distance`: the same message, exit 2.
#[test]
fn layer_beyond_max_is_an_error_as_for_random() {
    let data = exe::tempdir();
    for d in ["32", "99"] {
        let said = format!(
            "slidedb: error: no 3x3 board is {d} moves from goal 1 2 3 4 5 6 7 8 0: the farthest are 31 moves away\n"
        );
        for args in [
            vec!["layer", d],
            vec!["layer", d, "--count-only"],
            vec!["random", "--distance", d],
        ] {
            let (code, stdout, stderr) = exe::run(&args, None, data.path());
            assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
            assert!(stderr.ends_with(&said), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn layer_refusals() {
    let data = exe::tempdir();
    let (code, stdout, stderr) = exe::run(&["layer", "--size", "4x4", "5"], None, data.path());
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("layer needs a full table"),
        "stderr: {stderr}"
    );

    let (code, stdout, stderr) = exe::run(
        &["layer", "max", "--count-only", "--json"],
        None,
        data.path(),
    );
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.contains("Usage"), "a usage error: {stderr}");
}

#[test]
fn layer_max_toward_centre_goal() {
    let data = exe::tempdir();
    let dist = reference(CENTRE, Shape::EIGHT);
    let max = *dist.values().max().unwrap();
    assert_eq!(max, 30);
    let far: BTreeSet<&str> = dist
        .iter()
        .filter(|&(_, &d)| d == max)
        .map(|(b, _)| b.as_str())
        .collect();
    let (code, stdout, stderr) = exe::run(&["layer", "max", "--goal", CENTRE], None, data.path());
    assert_eq!(code, 0, "stderr: {stderr}");
    let boards = lines(&stdout);
    let got: BTreeSet<&str> = boards.iter().map(String::as_str).collect();
    assert_eq!(got.len(), boards.len(), "no repeats");
    assert_eq!(got, far);
    let solved = solve_distances(&boards, &["--goal", CENTRE], data.path());
    assert!(solved.iter().all(|&d| d == Some(max as u64)), "{solved:?}");
    let (_, counted, _) = exe::run(
        &["layer", "max", "--goal", CENTRE, "--count-only"],
        None,
        data.path(),
    );
    assert_eq!(counted, format!("{}\n", far.len()));
}

#[test]
fn layer_every_2x3_distance_matches_reference() {
    let data = exe::tempdir();
    let dist = reference("1 2 3 4 5 0", Shape::new(2, 3).unwrap());
    let max = *dist.values().max().unwrap();
    for d in 0..=max {
        let want: BTreeSet<&str> = dist
            .iter()
            .filter(|&(_, &x)| x == d)
            .map(|(b, _)| b.as_str())
            .collect();
        let ds = d.to_string();
        let (code, stdout, stderr) = exe::run(&["layer", "--size", "2x3", &ds], None, data.path());
        assert_eq!(code, 0, "stderr: {stderr}");
        let got = lines(&stdout);
        let set: BTreeSet<&str> = got.iter().map(String::as_str).collect();
        assert_eq!(set.len(), got.len(), "layer {d} repeats a board");
        assert_eq!(set, want, "layer {d}");
    }
    let (_, stdout, _) = exe::run(&["layer", "--size", "2x3", "max"], None, data.path());
    let max_boards: BTreeSet<&str> = dist
        .iter()
        .filter(|&(_, &x)| x == max)
        .map(|(b, _)| b.as_str())
        .collect();
    assert_eq!(stdout.lines().collect::<BTreeSet<_>>(), max_boards);
}
