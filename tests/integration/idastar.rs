//! IDA*: on integers through its closures, and on boards against the table.

use crate::common;

use std::time::Duration;

use proptest::prelude::*;
use slidedb::search::{Limits, idastar};
use slidedb::{Algorithm, Board, Heuristic, Shape, Solver};

#[test]
fn finds_a_shortest_path_with_memory_for_one_path() {
    let out = idastar(
        0i32,
        |&n| [n - 1, n + 1, n - 3, n + 3],
        |&n| (10 - n).unsigned_abs().div_ceil(3),
        |&n| n == 10,
        50,
        Limits::none(),
    );
    assert_eq!(out.path.unwrap().len() - 1, 4);
    assert_eq!(out.stats.peak_visited, out.stats.peak_open);
    assert!(out.stats.peak_open <= 5);
    // Past its depth limit it gives up.
    let none = idastar(0i32, |&n| [n + 1], |_| 0, |&n| n == 100, 10, Limits::none());
    assert_eq!(none.path, None);
}

/// Every search on boards here runs under a deadline (see
/// [`common::Deadline`]) set before the first: were the solvability rule
/// wrong, a search toward a goal its board cannot reach would deepen to
/// 1000 moves, and the test would hang instead of failing.
const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn solves_the_hardest_eight_puzzles_optimally() {
    let deadline = common::Deadline::after(LIMIT);
    let solver = Solver::new(&Board::solved(Shape::EIGHT));
    for text in ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"] {
        let board: Board = text.parse().unwrap();
        let found = deadline
            .solve(&solver, &board, Algorithm::IdaStar, Heuristic::Manhattan)
            .unwrap_or_else(|e| panic!("{e}"));
        common::check_answer(&board, found.moves.as_deref(), true).unwrap();
        assert_eq!(found.stats.unwrap().peak_open, 31);
    }
}

#[test]
fn random_boards_match_the_table() {
    let deadline = common::Deadline::after(LIMIT);
    proptest!(ProptestConfig::with_cases(300), |(cells in Just((0u8..9).collect::<Vec<_>>()).prop_shuffle(), lc: bool)| {
        let board = Board::from_tiles(Shape::EIGHT, &cells).unwrap();
        let h = if lc { Heuristic::LinearConflict } else { Heuristic::Manhattan };
        let checked = deadline.solve_and_check(&board, Algorithm::IdaStar, h);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    });
}

/// Other shapes: 2x4 and 4x2 boards.
#[test]
fn random_two_by_four_boards_match_the_table() {
    let deadline = common::Deadline::after(LIMIT);
    proptest!(ProptestConfig::with_cases(300), |(cells in Just((0u8..8).collect::<Vec<_>>()).prop_shuffle(), tall: bool)| {
        let shape = if tall { Shape::new(4, 2).unwrap() } else { Shape::new(2, 4).unwrap() };
        let board = Board::from_tiles(shape, &cells).unwrap();
        let checked = deadline.solve_and_check(&board, Algorithm::IdaStar, Heuristic::Manhattan);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    });
}
