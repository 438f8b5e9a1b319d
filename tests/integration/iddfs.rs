//! Iterative-deepening depth-first search: optimal, memory for one path.

use crate::common;

use std::time::Duration;

use proptest::prelude::*;
use slidedb::search::{Limits, iddfs};
use slidedb::{Algorithm, Board, Heuristic, Shape, Solver};

#[test]
fn finds_a_shortest_path_with_memory_for_one_path() {
    let out = iddfs(
        0i32,
        |&n| [n - 1, n + 1, n - 3, n + 3],
        |&n| n == 10,
        20,
        Limits::none(),
    );
    assert_eq!(out.path.unwrap().len() - 1, 4);
    assert!(out.stats.peak_open <= 5);
    assert_eq!(
        iddfs(0i32, |&n| [n + 1], |&n| n == 100, 10, Limits::none()).path,
        None
    );
}

/// Every search on boards here runs under a deadline (see
/// [`common::Deadline`]) set before the first: were the solvability rule
/// wrong, a search toward a goal its board cannot reach would deepen to
/// 1000 moves, and the test would hang instead of failing.
const LIMIT: Duration = Duration::from_secs(60);

/// Every arrangement of 2x3 (and 3x2) boards: IDDFS is cheap there.
#[test]
fn random_small_boards_match_the_table() {
    let deadline = common::Deadline::after(LIMIT);
    proptest!(ProptestConfig::with_cases(200), |(cells in Just((0u8..6).collect::<Vec<_>>()).prop_shuffle(), tall: bool)| {
        let shape = if tall { Shape::new(3, 2).unwrap() } else { Shape::new(2, 3).unwrap() };
        let board = Board::from_tiles(shape, &cells).unwrap();
        let checked = deadline.solve_and_check(&board, Algorithm::Iddfs, Heuristic::Manhattan);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    });
}

/// 3x3 boards up to 14 moves from the goal (deeper ones take seconds).
#[test]
fn scrambled_eight_puzzles_match_the_table() {
    let deadline = common::Deadline::after(LIMIT);
    proptest!(ProptestConfig::with_cases(200), |(seed: u64, walk in 0usize..14)| {
        let board = common::scrambled(Shape::EIGHT, seed, walk);
        let checked = deadline.solve_and_check(&board, Algorithm::Iddfs, Heuristic::Manhattan);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    });
}

/// Every algorithm answers an unsolvable board at once, from its parity.
#[test]
fn every_algorithm_reports_unsolvable_without_searching() {
    let deadline = common::Deadline::after(LIMIT);
    let solver = Solver::new(&Board::solved(Shape::EIGHT));
    let board: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    for algorithm in Algorithm::ALL {
        let found = deadline
            .solve(&solver, &board, algorithm, Heuristic::Manhattan)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(found.moves, None, "{algorithm}");
        assert_eq!(found.stats, None, "{algorithm}: no search ran");
    }
}
