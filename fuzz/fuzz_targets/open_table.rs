//! Arbitrary bytes opened as a table file. Whatever opens must answer
//! `verify`, `hardest`, `layers` and `solve` without panicking, and every
//! solution returned must be legal and reach the goal.
//!
//! Each input is tried twice: as it is, and with its header and metadata
//! checksums recomputed, so that mutations get past the CRCs into the
//! layout and metadata checks.

#![no_main]

#[path = "checksums.rs"]
mod checksums;

use checksums::with_checksums_fixed;
use libfuzzer_sys::fuzz_target;
use slidedb::BuiltFor;
use slidedb::{Board, Move, SolveError, Table};

fuzz_target!(|data: &[u8]| {
    exercise(data);
    if let Some(fixed) = with_checksums_fixed(data, false) {
        exercise(&fixed);
    }
});

fn exercise(bytes: &[u8]) {
    let Ok(table) = Table::new(bytes) else {
        return;
    };
    let _ = table.verify();
    let layers = table.layers();
    assert_eq!(layers.iter().sum::<u64>(), table.states());
    assert_eq!(layers.len() - 1, table.max_distance() as usize);
    let _ = table.mean_distance();
    let _ = table.generator();
    let hardest = table.hardest();
    assert!(!hardest.is_empty());

    let goal = *table.goal();
    assert_eq!(table.solve(&goal).map(|s| s.moves), Ok(Some(Vec::new())));
    let shape = table.shape();
    let mut boards = vec![Board::solved(shape)];
    boards.extend(hardest.iter().take(8));
    for mv in Move::ALL {
        boards.extend(goal.apply(mv));
    }
    for board in &boards {
        check_solve(&table, board);
    }
}

fn check_solve(table: &Table<&[u8]>, board: &Board) {
    let goal = *table.goal();
    match table.solve(board).map(|s| s.moves) {
        Ok(Some(moves)) => {
            assert!(moves.len() <= table.max_distance() as usize);
            assert_eq!(board.apply_all(&moves), Some(goal));
            assert_eq!(table.distance(board), Ok(Some(moves.len() as u32)));
        }
        Ok(None) => assert!(!board.can_reach(&goal)),
        Err(SolveError::Damaged { .. }) => {}
        Err(e) => panic!("{e}"),
    }
    let mut moves = vec![Move::Up];
    if table.solve_into(board, &mut moves).is_err() {
        assert_eq!(moves, [Move::Up], "an error leaves the moves as they were");
    }
}
