//! A*: on integers through its closures, and on boards against the table.

use crate::common;

use proptest::prelude::*;
use slidedb::search::{Limits, astar};
use slidedb::{Algorithm, Board, Heuristic, Shape, Solver};

#[test]
fn finds_a_shortest_path_through_closures() {
    // From 0 to 10 with steps ±1 and ±3: 3 + 3 + 3 + 1.
    let out = astar(
        0i32,
        |&n| [n - 1, n + 1, n - 3, n + 3],
        |&n| (10 - n).unsigned_abs().div_ceil(3),
        |&n| n == 10,
        Limits::none(),
    );
    let path = out.path.unwrap();
    assert_eq!((path[0], path.len() - 1, *path.last().unwrap()), (0, 4, 10));
    assert!(out.stats.expanded > 0 && out.stats.generated >= out.stats.expanded);
    // No goal reachable: the search ends with no path.
    let none = astar(
        0u8,
        |&n| (n < 5).then_some(n + 1),
        |_| 0,
        |&n| n == 9,
        Limits::none(),
    );
    assert_eq!(none.path, None);
    assert_eq!(none.stats.peak_visited, 6);
}

#[test]
fn solves_the_hardest_eight_puzzles_optimally() {
    let solver = Solver::new(&Board::solved(Shape::EIGHT));
    for text in ["8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"] {
        let board: Board = text.parse().unwrap();
        for h in [Heuristic::Manhattan, Heuristic::LinearConflict] {
            let found = solver.solve(&board, Algorithm::AStar, h).unwrap();
            common::check_answer(&board, found.moves.as_deref(), true).unwrap();
            assert_eq!(found.moves.unwrap().len(), 31);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any arrangement of the nine cells: unsolvable exactly when the
    /// table says so, else a valid path of the table's length.
    #[test]
    fn random_boards_match_the_table(cells in Just((0u8..9).collect::<Vec<_>>()).prop_shuffle(), lc: bool) {
        let board = Board::from_tiles(Shape::EIGHT, &cells).unwrap();
        let h = if lc { Heuristic::LinearConflict } else { Heuristic::Manhattan };
        let checked = common::solve_and_check(&board, Algorithm::AStar, h);
        prop_assert!(checked.is_ok(), "{checked:?}");
    }
}
