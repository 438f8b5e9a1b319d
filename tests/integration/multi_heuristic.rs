//! The multi-tile estimate (`slidedb::multi_heuristic`) never exceeds the
//! exact multi-tile distance, read from the in-memory table of every board,
//! and IDA* over it finds the table's distances (issue 37 §4).

use std::ops::ControlFlow;

use slidedb::multi_heuristic::MultiEstimate;
use slidedb::random::{SplitMix64, random_board};
use slidedb::{Board, Index, Indexer, Metric, Shape, Solver, table::generate_in};

/// Every board that reaches the default goal of `rows`×`cols`: the
/// estimate is at most the table's distance, and 0 only at the goal.
/// Returns the mean estimate and mean distance, for the message.
fn every_board(rows: usize, cols: usize) -> (f64, f64) {
    let shape = Shape::new(rows, cols).unwrap();
    let goal = Board::solved(shape);
    let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
    let estimate = MultiEstimate::new(&goal);
    let indexer = Indexer::new(&goal);
    let (mut sum_h, mut sum_d) = (0u64, 0u64);
    for i in 0..indexer.len() {
        let board = indexer.unrank(Index(i)).unwrap();
        let d = table.distance(&board).unwrap().unwrap();
        let h = estimate.estimate(&board);
        assert!(h <= d, "{rows}x{cols}: {board} estimated {h}, distance {d}");
        assert_eq!(h == 0, d == 0, "{board}");
        sum_h += h as u64;
        sum_d += d as u64;
    }
    let n = indexer.len() as f64;
    (sum_h as f64 / n, sum_d as f64 / n)
}

#[test]
fn the_estimate_never_exceeds_the_distance_on_every_3x3_and_2x4_board() {
    for (rows, cols) in [(3, 3), (2, 4), (4, 2), (2, 3)] {
        let (h, d) = every_board(rows, cols);
        eprintln!("{rows}x{cols}: mean estimate {h:.2}, mean distance {d:.2}");
    }
}

/// IDA* on `n` seeded boards of `rows`×`cols` answers the table's
/// distance, with a path that plays to the goal in the multi-tile metric.
fn idastar_matches_the_table(rows: usize, cols: usize, n: usize, seed: u64) {
    let goal = Board::solved(Shape::new(rows, cols).unwrap());
    let table = generate_in(&goal, Metric::Multi, |_| {}).unwrap();
    let solver = Solver::new(&goal);
    let mut rng = SplitMix64::new(seed);
    for _ in 0..n {
        let board = random_board(&goal, &mut rng);
        let found = solver
            .solve_multi(&board, |_| ControlFlow::Continue(()))
            .unwrap();
        assert_eq!(found.metric, Metric::Multi);
        let d = table.distance(&board).unwrap();
        assert_eq!(found.distance(), d, "{board}");
        assert_eq!(board.apply_all(found.moves.as_ref().unwrap()), Some(goal));
    }
}

#[test]
fn idastar_finds_the_table_distance_on_seeded_3x3_and_2x4_boards() {
    idastar_matches_the_table(3, 3, 200, 37);
    idastar_matches_the_table(2, 4, 100, 38);
    idastar_matches_the_table(4, 2, 100, 39);
}

#[test]
#[ignore = "builds the 3x4 multi-tile table (about 7 s); CI runs it under nextest"]
fn idastar_finds_the_table_distance_on_seeded_twelve_cell_boards() {
    idastar_matches_the_table(3, 4, 50, 2026);
    idastar_matches_the_table(4, 3, 20, 2027);
}

#[test]
fn an_unsolvable_board_is_answered_in_the_multi_tile_metric() {
    let goal = Board::solved(Shape::EIGHT);
    let board: Board = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    let found = Solver::new(&goal)
        .solve_multi(&board, |_| ControlFlow::Continue(()))
        .unwrap();
    assert!(!found.is_solvable());
    assert_eq!(found.metric, Metric::Multi);
}
