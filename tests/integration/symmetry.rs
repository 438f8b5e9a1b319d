//! One table per class of blank cells answers every goal: for every blank
//! cell of 2x3, 3x2 and 3x3 and several labellings each, the database's
//! answers toward that goal (from the class's table, renamed and moved by
//! the symmetry) are valid and exactly as long as a direct BFS from that
//! goal says, and one table is built per class.

use crate::common;

use std::collections::HashSet;

use slidedb::{Board, Database, Method, Shape};

/// A goal of `shape` with the blank in `blank` and the tiles in an order
/// drawn from `seed`.
fn goal(shape: Shape, blank: usize, seed: u64) -> Board {
    let mut tiles: Vec<u8> = (1..shape.cells() as u8).collect();
    let mut s = seed;
    for i in (1..tiles.len()).rev() {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        tiles.swap(i, (s >> 33) as usize % (i + 1));
    }
    tiles.insert(blank, 0);
    Board::from_tiles(shape, &tiles).unwrap()
}

fn check_every_board(db: &Database, shapes: &[Shape], labellings: u64) -> usize {
    let mut tables = HashSet::new();
    for &shape in shapes {
        for blank in 0..shape.cells() {
            for seed in 0..labellings {
                let goal = goal(shape, blank, seed);
                let engine = db.engine(&goal, Method::Exact).unwrap();
                assert_eq!(engine.goal(), &goal);
                tables.insert(*engine.table().unwrap().indexed_goal());
                for (board, &distance) in &common::reference_bfs(&goal) {
                    let moves = engine
                        .solve(board)
                        .unwrap()
                        .moves
                        .unwrap_or_else(|| panic!("{board:?} toward {goal:?}: unsolvable"));
                    assert_eq!(moves.len() as u32, distance, "{board:?} toward {goal:?}");
                    assert!(
                        common::leads_to(board, &moves, &goal),
                        "{board:?} toward {goal:?}"
                    );
                }
            }
        }
    }
    tables.len()
}

#[test]
fn every_goal_of_two_by_three_and_three_by_two() {
    let db = Database::in_memory().open().unwrap();
    let shapes = [Shape::new(2, 3).unwrap(), Shape::new(3, 2).unwrap()];
    // Two tables for 2x3 and 3x2 together: a corner, and the middle of a
    // long side.
    assert_eq!(check_every_board(&db, &shapes, 4), 2);
}

#[test]
fn every_blank_cell_of_the_eight_puzzle() {
    let db = Database::in_memory().open().unwrap();
    // Corner, edge and centre: three tables for 3x3.
    assert_eq!(check_every_board(&db, &[Shape::EIGHT], 1), 3);
}
