//! Depth-first search: a valid path, not a shortest one.

use crate::common;

use proptest::prelude::*;
use slidedb::search::{Limits, dfs};
use slidedb::{Algorithm, Board, Heuristic, Shape, Solver};

#[test]
fn finds_a_path_and_says_it_is_not_optimal() {
    let out = dfs(
        0i32,
        |&n| [n + 1, n + 3].into_iter().filter(|&m| m <= 10),
        |&n| n == 10,
        Limits::none(),
    );
    let path = out.path.unwrap();
    assert_eq!((path[0], *path.last().unwrap()), (0, 10));
    assert!(
        path.windows(2)
            .all(|w| w[1] - w[0] == 1 || w[1] - w[0] == 3)
    );
    assert!(!Algorithm::Dfs.is_optimal());
}

#[test]
fn its_eight_puzzle_paths_are_long_but_valid() {
    let solver = Solver::new(&"0 1 2 3 4 5 6 7 8".parse().unwrap());
    let board: Board = "7 2 4 5 0 6 8 3 1".parse().unwrap();
    let found = solver
        .solve(&board, Algorithm::Dfs, Heuristic::Manhattan)
        .unwrap();
    let moves = found.moves.unwrap();
    assert_eq!(board.apply_all(&moves), Some(*solver.goal()));
    assert!(
        moves.len() > 26,
        "{} moves: depth-first is rarely shortest",
        moves.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_boards_get_valid_paths(cells in Just((0u8..9).collect::<Vec<_>>()).prop_shuffle()) {
        let board = Board::from_tiles(Shape::EIGHT, &cells).unwrap();
        let checked = common::solve_and_check(&board, Algorithm::Dfs, Heuristic::Manhattan);
        prop_assert!(checked.is_ok(), "{checked:?}");
    }
}
