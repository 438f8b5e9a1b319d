//! Answers from the table are valid paths of exactly the optimal length,
//! checked against a plain reference BFS.

use crate::common;
use slidedb::BuiltFor;

use proptest::prelude::*;
use slidedb::{Board, Shape, Table, generate};
use std::sync::OnceLock;

/// Every board of every size up to 9 cells: the table's path is valid and
/// exactly as long as the reference BFS says; boards of the other parity
/// are unsolvable.
#[test]
fn every_board_of_every_small_size_is_solved_optimally() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let shape = Shape::new(r, c).unwrap();
        // A goal that is not the default, to exercise any goal.
        let goal = Board::solved(shape).apply(slidedb::Move::Up).unwrap();
        let table = generate(&goal, |_| {}).unwrap();
        let reference = common::reference_bfs(&goal);
        assert_eq!(reference.len() as u128, shape.states());
        let mut moves = Vec::new();
        for (board, &d) in &reference {
            moves.clear();
            assert_eq!(table.solve_into(board, &mut moves), Ok(true), "{board:?}");
            assert_eq!(moves.len() as u32, d, "{board:?}");
            assert!(common::leads_to(board, &moves, &goal), "{board:?}");
        }
        // Swapping two tiles of any reachable board makes it unsolvable.
        let board = *reference.keys().next().unwrap();
        let mut tiles: Vec<u8> = board.tiles().collect();
        let (i, j) = if board.blank() < 2 { (2, 3) } else { (0, 1) };
        tiles.swap(i, j);
        let swapped = Board::from_tiles(shape, &tiles).unwrap();
        assert_eq!(table.solve(&swapped).unwrap().moves, None, "{shape}");
    }
}

/// The 3x3 table and the reference distances, built once.
type Eight = (Table<Vec<u8>>, std::collections::HashMap<Board, u32>);

fn eight() -> &'static Eight {
    static T: OnceLock<Eight> = OnceLock::new();
    T.get_or_init(|| {
        let goal = Board::solved(Shape::EIGHT);
        (
            generate(&goal, |_| {}).unwrap(),
            common::reference_bfs(&goal),
        )
    })
}

#[test]
fn the_seed_cases() {
    let (table, _) = eight();
    let board: Board = "2 3 4 1 5 x 7 6 8".parse().unwrap();
    let moves = table.solve(&board).unwrap().moves.unwrap();
    assert_eq!(slidedb::moves_to_string(&moves), "ullddrurdllurdruldr");

    let goal: Board = "012345678".parse().unwrap();
    let other = generate(&goal, |_| {}).unwrap();
    let board: Board = "724506831".parse().unwrap();
    let moves = other.solve(&board).unwrap().moves.unwrap();
    assert_eq!(moves.len(), 26);
    assert!(common::leads_to(&board, &moves, &goal));
    assert_eq!(common::reference_bfs(&goal)[&board], 26);
}

#[test]
fn a_board_of_another_size_is_an_error_not_an_answer() {
    let (table, _) = eight();
    let small = Board::solved(Shape::new(2, 3).unwrap());
    assert!(matches!(
        table.solve(&small),
        Err(slidedb::SolveError::WrongShape { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any arrangement of the nine cells: unsolvable exactly when the
    /// reference BFS never reaches it; else an optimal valid path.
    #[test]
    fn random_boards_match_the_reference(cells in Just((0u8..9).collect::<Vec<_>>()).prop_shuffle()) {
        let (table, reference) = eight();
        let board = Board::from_tiles(Shape::EIGHT, &cells).unwrap();
        match (table.solve(&board).unwrap().moves, reference.get(&board)) {
            (None, None) => {}
            (Some(moves), Some(&d)) => {
                prop_assert_eq!(moves.len() as u32, d);
                prop_assert!(common::leads_to(&board, &moves, table.goal()));
            }
            (got, want) => prop_assert!(false, "{board:?}: table {got:?}, reference {want:?}"),
        }
    }
}
