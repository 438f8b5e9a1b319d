//! Boards past 16 cells through the programs: 5x5 answered through
//! pattern databases exactly as 4x4, refused with the command that builds
//! them when there are none, and partitions named by sizes, by tile lists
//! or not at all.

use crate::common;
use crate::exe::*;

use serde_json::Value;

/// Korf's goal for the 24-puzzle: the blank first.
fn blank_first() -> String {
    (0..25).map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
}

/// The cells `walk` moves from the cells of `goal`, never undoing the
/// last move (the letters cycle through a fixed pattern).
fn scrambled(goal: &[u8], cols: usize, walk: usize) -> Vec<u8> {
    let mut cells = goal.to_vec();
    let mut last = ' ';
    let mut seed = 7u64;
    let mut done = 0;
    while done < walk {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let letter = ['u', 'd', 'l', 'r'][(seed >> 62) as usize];
        let undo = matches!(
            (last, letter),
            ('u', 'd') | ('d', 'u') | ('l', 'r') | ('r', 'l')
        );
        let blank = cells.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / cols, blank % cols);
        let rows = cells.len() / cols;
        let fits = match letter {
            'u' => r > 0,
            'd' => r + 1 < rows,
            'l' => c > 0,
            _ => c + 1 < cols,
        };
        if undo || !fits {
            continue;
        }
        common::apply_letter(&mut cells, cols, letter);
        last = letter;
        done += 1;
    }
    cells
}

fn text(cells: &[u8]) -> String {
    cells
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn five_by_five_without_databases_is_refused_with_the_command_that_builds_them() {
    let data = tempdir();
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24";
    let (code, out, err) = run(&["solve", board], None, data.path());
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "");
    assert!(err.contains("no pattern databases for 5x5"), "{err}");
    assert!(err.contains("slidedb-gen --size 5x5"), "{err}");
    assert!(err.contains("--pdb 6-6-6-6"), "{err}");
    // A search named is run as asked.
    let (code, out, err) = run(&["solve", "--algo", "idastar", board], None, data.path());
    assert_eq!((code, out.as_str()), (0, "r\n"), "{err}");
    // Unsolvable boards need no databases.
    let swapped = "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0";
    let (code, out, _) = run(&["solve", "--algo", "idastar", swapped], None, data.path());
    assert_eq!((code, out.as_str()), (1, "unsolvable\n"));
    // The generator says how to build them for a size without a table.
    let (code, _, err) = run_gen(&["--size", "5x5"], data.path());
    assert_eq!(code, 2);
    assert!(err.contains("--pdb") && err.contains("6-6-6-6"), "{err}");
    // Groups too big to hold are refused before any work.
    let (code, _, err) = run_gen(&["--size", "5x5", "--pdb", "8-8-8"], data.path());
    assert_eq!(code, 2);
    assert!(err.contains("split it"), "{err}");
    // So is a memory limit below one 7-tile group's search (7.27 GB),
    // saying how much it needs.
    let (code, _, err) = run_gen(
        &["--size", "5x5", "--pdb", "7-7-7-3", "--memory", "4G"],
        data.path(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("needs 7268184000 bytes"), "{err}");
    assert!(err.contains("a group of 7 tiles"), "{err}");
    assert_eq!(std::fs::read_dir(data.path()).unwrap().count(), 0);
}

/// A 4-4-4-4-4-4 partition (a second to build) answers 5x5 boards toward
/// the default goal and toward Korf's (the same class, through symmetry):
/// solve, probe and JSON, with the lengths IDA* under linear conflicts
/// finds without databases.
#[test]
fn five_by_five_is_answered_through_pattern_databases() {
    let data = tempdir();
    let (code, _, err) = run_gen(
        &["--size", "5x5", "--pdb", "4-4-4-4-4-4", "--quiet"],
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let default_goal: Vec<u8> = (1..25).chain([0]).collect();
    let korf: Vec<u8> = (0..25).collect();
    for (goal, walk) in [(&default_goal, 36), (&korf, 30)] {
        let goal_text = text(goal);
        let cells = scrambled(goal, 5, walk);
        let board = text(&cells);
        let (code, out, err) = run(&["solve", "--goal", &goal_text, &board], None, data.path());
        assert_eq!(code, 0, "{err}");
        let moves = out.trim();
        assert_eq!(common::apply_letters(&cells, 5, moves), *goal, "{board}");
        let (code, reference, err) = run(
            &[
                "solve",
                "--goal",
                &goal_text,
                "--algo",
                "idastar",
                "--heuristic",
                "linear-conflict",
                &board,
            ],
            None,
            data.path(),
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(moves.len(), reference.trim().len(), "{board}");
        assert!(moves.len() >= 16, "{board}: {moves}");
        // The probe's distance is the solve's length; each move is one
        // closer (starred, and the first move of the solution among them)
        // or one farther.
        let (code, out, err) = run(&["probe", "--goal", &goal_text, &board], None, data.path());
        assert_eq!(code, 0, "{err}");
        let mut words = out.split_whitespace();
        let d: usize = words.next().unwrap().parse().unwrap();
        assert_eq!(d, moves.len(), "{out}");
        let mut closer = Vec::new();
        for word in words {
            let (letter, rest) = word.split_once(':').unwrap();
            let star = rest.ends_with('*');
            let e: usize = rest.trim_end_matches('*').parse().unwrap();
            assert_eq!(e, if star { d - 1 } else { d + 1 }, "{out}");
            if star {
                closer.push(letter.chars().next().unwrap());
            }
        }
        assert!(closer.contains(&moves.chars().next().unwrap()), "{out}");
        // JSON names the board, the goal and the answer.
        let (code, out, err) = run(
            &["solve", "--json", "--goal", &goal_text, &board],
            None,
            data.path(),
        );
        assert_eq!(code, 0, "{err}");
        let record: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(record["board"], board.as_str());
        assert_eq!(record["goal"], goal_text.as_str());
        assert_eq!(record["distance"], moves.len());
        assert_eq!(record["moves"], moves);
    }
    // Korf's goal is named in full: the default is the tiles in order.
    let korf_goal = blank_first();
    let (code, out, _) = run(
        &[
            "solve",
            "--goal",
            &korf_goal,
            "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24",
        ],
        None,
        data.path(),
    );
    assert_eq!((code, out.as_str()), (0, "l\n"));
}

/// `--pdb` alone builds the size's default partition; tiles listed
/// by group build that partition, under a name of its own.
#[test]
fn partitions_by_default_and_by_tile_lists() {
    let data = tempdir();
    let (code, _, err) = run_gen(&["--size", "3x3", "--pdb", "--quiet"], data.path());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_gen(
        &["--size", "3x3", "--pdb", "1,2,4,5/3,6,7,8", "--quiet"],
        data.path(),
    );
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(data.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "3x3-1-2-3-4-5-6-7-8-0-pdb-1.2.4.5_3.6.7.8.slidedb",
            "3x3-1-2-3-4-5-6-7-8-0-pdb-4-4.slidedb",
        ]
    );
    // Either answers optimally (the 8-puzzle's hardest, 31 moves).
    for name in &names {
        let path = data.path().join(name);
        let (code, out, err) = run(
            &["solve", "--pdb", path_str(&path), "8 6 7 2 5 4 3 0 1"],
            None,
            data.path(),
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim().len(), 31, "{name}");
    }
    // A tile twice, or a word that is no tile, is refused.
    for bad in ["1,2/2,3", "1,2/x,3"] {
        let (code, _, err) = run_gen(&["--size", "3x3", "--pdb", bad], data.path());
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("partition"), "{bad}: {err}");
    }
}
