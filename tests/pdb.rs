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

/// The easiest of Korf's 100 15-puzzle instances, solved optimally by IDA*
/// with additive 5-5-5 pattern databases (the lengths are Korf's).
#[test]
fn solves_the_easiest_korf_instances_optimally() {
    use slidedb::{Algorithm, Solver};
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).unwrap();
    let pdbs = AdditivePatterns::build(
        &goal,
        &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10], &[11, 12, 13, 14, 15]],
    )
    .unwrap();
    let solver = Solver::new(&goal);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/korf100.txt"
    ))
    .unwrap();
    let mut instances: Vec<(u32, Board, u32)> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let board = Board::parse(&f[1..17].join(" "), Some(shape)).unwrap();
            (f[0].parse().unwrap(), board, f[17].parse().unwrap())
        })
        .collect();
    assert_eq!(instances.len(), 100);
    assert_eq!(instances.iter().map(|i| i.2).sum::<u32>(), 5305);
    instances.sort_by_key(|i| i.2);
    for (id, board, length) in instances.iter().take(3) {
        assert!(pdbs.estimate(board) <= *length, "#{id}");
        let found = solver
            .solve_estimated(board, Algorithm::IdaStar, |b| pdbs.estimate(b))
            .unwrap();
        let moves = found.moves.unwrap();
        assert_eq!(moves.len() as u32, *length, "#{id}");
        assert!(common::leads_to(board, &moves, &goal), "#{id}");
    }
}
