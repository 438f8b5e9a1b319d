//! One table per class of blank cells answers every goal: for every blank
//! cell of 2x3, 3x2 and 3x3 and several labellings each, the database's
//! answers toward that goal (from the class's table, renamed and moved by
//! the symmetry) are valid and exactly as long as a direct BFS from that
//! goal says, and the database builds one table per class (counted by its
//! build events).

use crate::common;

use std::sync::{Arc, Mutex};

use slidedb::symmetry::GoalClass;
use slidedb::{Board, Database, Event, Method, Shape};

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

/// Checks every board toward every goal of `shapes` (`labellings` tile
/// orders per blank cell) and returns how many tables were built.
fn check_every_board(shapes: &[Shape], labellings: u64) -> usize {
    let built = Arc::new(Mutex::new(Vec::new()));
    let heard = built.clone();
    let db = Database::in_memory()
        .on_event(move |e| {
            if let Event::Built { goal, .. } = e {
                heard.lock().unwrap().push(*goal);
            }
        })
        .open()
        .unwrap();
    for &shape in shapes {
        for blank in 0..shape.cells() {
            for seed in 0..labellings {
                let goal = goal(shape, blank, seed);
                let engine = db.engine(&goal, Method::Exact).unwrap();
                assert_eq!(engine.goal(), &goal);
                let class = GoalClass::of(&goal);
                for (board, &distance) in &common::reference_bfs(&goal) {
                    assert_eq!(class.from_canonical(&class.to_canonical(board)), *board);
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
    let built = built.lock().unwrap();
    // Each built for its class's own goal, none twice.
    for goal in built.iter() {
        assert!(GoalClass::of(goal).is_canonical(), "{goal:?}");
    }
    let mut distinct = built.clone();
    distinct.sort_by_key(|g| g.to_string());
    distinct.dedup();
    assert_eq!(distinct.len(), built.len(), "{built:?}");
    built.len()
}

#[test]
fn every_goal_of_two_by_three_and_three_by_two() {
    let shapes = [Shape::new(2, 3).unwrap(), Shape::new(3, 2).unwrap()];
    // Two tables for 2x3 and 3x2 together: a corner, and the middle of a
    // long side.
    assert_eq!(check_every_board(&shapes, 4), 2);
}

#[test]
fn every_blank_cell_of_the_eight_puzzle() {
    // Corner, edge and centre: three tables for 3x3.
    assert_eq!(check_every_board(&[Shape::EIGHT], 1), 3);
}
