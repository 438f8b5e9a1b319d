//! One table per class of blank cells answers every goal: for every blank
//! cell of 2x3, 3x2 and 3x3 and several labellings each, the answers from
//! the class table (renamed, moved by the symmetry, moves translated back)
//! are valid and exactly as long as a direct BFS from that goal says.

mod common;

use std::collections::HashMap;

use slidedb::symmetry::GoalClass;
use slidedb::{Board, Shape, Table, generate};

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

fn check_every_board(shape: Shape, labellings: u64) {
    let mut tables: HashMap<Board, Table<Vec<u8>>> = HashMap::new();
    for blank in 0..shape.cells() {
        for seed in 0..labellings {
            let goal = goal(shape, blank, seed);
            let class = GoalClass::of(&goal);
            let table = tables
                .entry(*class.canonical())
                .or_insert_with(|| generate(class.canonical(), |_| {}).unwrap());
            assert_eq!(class.to_canonical(&goal), *table.goal(), "{goal:?}");
            for (board, &distance) in &common::reference_bfs(&goal) {
                let mut moves = table
                    .solve(&class.to_canonical(board))
                    .unwrap()
                    .unwrap_or_else(|| panic!("{board:?} toward {goal:?}: unsolvable"));
                class.moves_back(&mut moves);
                assert_eq!(moves.len() as u32, distance, "{board:?} toward {goal:?}");
                assert!(
                    common::leads_to(board, &moves, &goal),
                    "{board:?} toward {goal:?}"
                );
                assert_eq!(class.from_canonical(&class.to_canonical(board)), *board);
            }
        }
    }
    // Corner, edge and centre: three tables for 3x3; two for 2x3 and 3x2
    // together (corner and middle of a long side).
    let expected = if shape == Shape::EIGHT { 3 } else { 2 };
    assert_eq!(tables.len(), expected, "{shape}");
}

#[test]
fn every_goal_of_two_by_three_and_three_by_two() {
    check_every_board(Shape::new(2, 3).unwrap(), 4);
    check_every_board(Shape::new(3, 2).unwrap(), 4);
}

#[test]
fn every_blank_cell_of_the_eight_puzzle() {
    check_every_board(Shape::EIGHT, 1);
}
