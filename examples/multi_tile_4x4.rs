//! Optimal 4×4 solutions in the multi-tile metric by IDA* over the
//! walking-distance estimate (`slidedb::multi_heuristic`), on seeded
//! random boards, each with its time: a measurement, not a test (the
//! estimate is weak on 4×4; the first seeded board ran over 13 minutes
//! unfinished on a shared core).
//!
//!     cargo run --release --example multi_tile_4x4 -- [BOARDS]

use std::ops::ControlFlow;
use std::time::Instant;

use slidedb::multi_heuristic::MultiEstimate;
use slidedb::random::{SplitMix64, random_board};
use slidedb::{Board, Shape, Solver};

fn main() {
    let goal = Board::solved(Shape::new(4, 4).unwrap());
    let solver = Solver::new(&goal);
    let estimate = MultiEstimate::new(&goal);
    let mut rng = SplitMix64::new(4);
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    for _ in 0..n {
        let board = random_board(&goal, &mut rng);
        let clock = Instant::now();
        let found = solver
            .solve_multi(&board, |_| ControlFlow::Continue(()))
            .unwrap();
        let d = found.distance().unwrap();
        assert!(estimate.estimate(&board) <= d);
        assert_eq!(board.apply_all(found.moves.as_ref().unwrap()), Some(goal));
        let stats = found.stats.unwrap();
        eprintln!(
            "{board}: {d} moves (estimate {}), {} expanded, {:.2?}",
            estimate.estimate(&board),
            stats.expanded,
            clock.elapsed()
        );
    }
}
