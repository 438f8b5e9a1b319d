//! Breadth-first search: on integers, and on boards against the table.

use crate::common;

use proptest::prelude::*;
use slidedb::search::{Limits, bfs};
use slidedb::{Algorithm, Board, Heuristic, Shape, Solver};

#[test]
fn finds_a_shortest_path_and_counts_what_it_stored() {
    let out = bfs(
        0i32,
        |&n| [n - 1, n + 1, n - 3, n + 3],
        |&n| n == 10,
        Limits::none(),
    );
    assert_eq!(out.path.unwrap().len() - 1, 4);
    let none = bfs(
        0u8,
        |&n| (n < 5).then_some(n + 1),
        |&n| n == 9,
        Limits::none(),
    );
    assert_eq!(
        (none.path, none.stats.peak_visited, none.stats.expanded),
        (None, 6, 6)
    );
}

#[test]
fn visits_the_whole_space_for_a_hardest_board() {
    let solver = Solver::new(&Board::solved(Shape::EIGHT));
    let board: Board = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    let found = solver
        .solve(&board, Algorithm::Bfs, Heuristic::Manhattan)
        .unwrap();
    common::check_answer(&board, found.moves.as_deref(), true).unwrap();
    // The goal is one of the two farthest boards: BFS stores them all.
    assert_eq!(found.stats.unwrap().peak_visited, 181_440);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_boards_match_the_table(cells in Just((0u8..9).collect::<Vec<_>>()).prop_shuffle()) {
        let board = Board::from_tiles(Shape::EIGHT, &cells).unwrap();
        let checked = common::solve_and_check(&board, Algorithm::Bfs, Heuristic::Manhattan);
        prop_assert!(checked.is_ok(), "{checked:?}");
    }
}
