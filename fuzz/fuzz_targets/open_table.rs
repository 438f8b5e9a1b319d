//! Arbitrary bytes opened as a table file. Whatever opens must answer
//! `verify`, `hardest`, `layers` and `solve` without panicking, and every
//! solution returned must be legal and reach the goal.
//!
//! Each input is tried twice: as it is, and with its header and metadata
//! checksums recomputed, so that mutations get past the CRCs into the
//! layout and metadata checks.

#![no_main]

use libfuzzer_sys::fuzz_target;
use slidedb::{Board, Move, SolveError, Table};

fuzz_target!(|data: &[u8]| {
    exercise(data);
    if let Some(fixed) = with_checksums_fixed(data) {
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
    assert_eq!(table.solve(&goal), Ok(Some(Vec::new())));
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
    match table.solve(board) {
        Ok(Some(moves)) => {
            assert!(moves.len() <= table.max_distance() as usize);
            assert_eq!(board.apply_all(&moves), Some(goal));
            assert_eq!(table.distance(board), Ok(Some(moves.len() as u32)));
        }
        Ok(None) => assert!(!board.can_reach(&goal)),
        Err(SolveError::Damaged { .. }) => {}
        Err(e @ SolveError::WrongShape { .. }) => panic!("{e}"),
    }
    let mut moves = vec![Move::Up];
    if table.solve_into(board, &mut moves).is_err() {
        assert_eq!(moves, [Move::Up], "an error leaves the moves as they were");
    }
}

/// The bytes with the metadata CRC (bytes 20..24, over the metadata the
/// header delimits, when it lies within the bytes) and the header CRC
/// (bytes 60..64) recomputed; `None` if nothing changes.
fn with_checksums_fixed(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < 64 {
        return None;
    }
    let mut b = data.to_vec();
    let offset = u64::from_le_bytes(b[24..32].try_into().unwrap());
    let len = u64::from_le_bytes(b[32..40].try_into().unwrap());
    if let Some(end) = offset.checked_add(len).filter(|&e| e <= b.len() as u64) {
        let crc = crc32fast::hash(&b[offset as usize..end as usize]);
        b[20..24].copy_from_slice(&crc.to_le_bytes());
    }
    let crc = crc32fast::hash(&b[..60]);
    b[60..64].copy_from_slice(&crc.to_le_bytes());
    (b != data).then_some(b)
}
