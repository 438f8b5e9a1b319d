//! Pattern databases never overestimate: their additive estimate is
//! checked against exact tables.

mod common;

use slidedb::pdb::AdditivePatterns;
use slidedb::random::{SplitMix64, random_board};
use slidedb::{Board, Shape};

/// Every 2x4 board, with a 4-3 partition.
#[test]
fn admissible_on_every_two_by_four_board() {
    let shape = Shape::new(2, 4).unwrap();
    let goal = Board::solved(shape);
    let pdbs = AdditivePatterns::build(&goal, &[&[1, 2, 3, 4], &[5, 6, 7]]).unwrap();
    let table = common::table(shape);
    let mut exact = 0;
    for (board, &d) in &common::reference_bfs(&goal) {
        let h = pdbs.estimate(board);
        assert!(h <= d, "{board:?}: estimate {h} > distance {d}");
        exact += (h == d) as u32;
        assert_eq!(table.distance(board).unwrap(), Some(d));
    }
    assert!(exact > 1);
}

/// A large sample of 3x4 boards against the exact 3x4 table, with a 6-5
/// partition (the table takes seconds and ~450 MB to build: run with
/// `cargo test --release -- --ignored`, as CI does).
#[test]
#[ignore = "builds the 3x4 table: seconds and ~450 MB in release"]
fn admissible_on_a_large_sample_of_three_by_four_boards() {
    let shape = Shape::new(3, 4).unwrap();
    let goal = Board::solved(shape);
    let table = slidedb::generate(&goal, |_| {}).unwrap();
    let pdbs = AdditivePatterns::build(&goal, &[&[1, 2, 3, 4, 5, 6], &[7, 8, 9, 10, 11]]).unwrap();
    let mut rng = SplitMix64::new(34);
    let (mut sum_h, mut sum_d) = (0u64, 0u64);
    for _ in 0..200_000 {
        let board = random_board(&goal, &mut rng);
        let d = table.distance(&board).unwrap().unwrap();
        let h = pdbs.estimate(&board);
        assert!(h <= d, "{board:?}: estimate {h} > distance {d}");
        sum_h += h as u64;
        sum_d += d as u64;
    }
    // A useful estimate, not merely an admissible one.
    assert!(
        sum_h * 10 > sum_d * 7,
        "mean estimate {sum_h} vs distance {sum_d}"
    );
}
