//! Optimal 4×4 solutions in the multi-tile metric (`Solver::solve_multi`,
//! the 4×4 search over the coloured abstraction and its transpose) on
//! seeded random boards: the table's build time, then each board's
//! length, nodes and time, then the totals. A measurement, not a test.
//! benches/slidy-4x4/ solves the same boards beside slidy's solver.
//!
//!     cargo run --release --example multi_tile_4x4 -- [BOARDS] [SEED]
//!
//! (100 boards and seed 4 by default.)

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use slidedb::multi_heuristic::{ColourPdb, MultiEstimate};
use slidedb::random::{SplitMix64, random_board};
use slidedb::{Board, Shape, Solver};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let goal = Board::solved(Shape::new(4, 4).unwrap());
    let clock = Instant::now();
    let pdb = ColourPdb::four_by_four();
    eprintln!(
        "table: {} states, greatest distance {}, built in {:.2?}",
        pdb.states(),
        pdb.max_distance(),
        clock.elapsed()
    );
    let solver = Solver::new(&goal);
    let walking = MultiEstimate::new(&goal);
    let mut rng = SplitMix64::new(seed);
    let (mut total, mut moves, mut nodes) = (Duration::ZERO, 0u64, 0u64);
    for i in 0..n {
        let board = random_board(&goal, &mut rng);
        let clock = Instant::now();
        let found = solver
            .solve_multi(&board, |_| ControlFlow::Continue(()))
            .unwrap();
        let took = clock.elapsed();
        let d = found.distance().unwrap();
        assert!(walking.estimate(&board) <= d);
        assert_eq!(board.apply_all(found.moves.as_ref().unwrap()), Some(goal));
        let stats = found.stats.unwrap();
        println!(
            "{i:3} {board}: {d} moves, {} nodes, {:.3} s",
            stats.expanded,
            took.as_secs_f64()
        );
        total += took;
        moves += d as u64;
        nodes += stats.expanded;
    }
    println!(
        "{n} boards: {moves} moves, {nodes} nodes, {:.2} s solving ({:.3} s a board)",
        total.as_secs_f64(),
        total.as_secs_f64() / n.max(1) as f64
    );
}
