//! slidedb's and slidy's optimal 4×4 multi-tile solvers on the same
//! seeded random boards (slidedb's `SplitMix64` and `random_board`, the
//! boards handed to slidy as strings), in one process: each one's table
//! build time, then each board's optimal length (which must agree) and
//! both times, then the totals and their ratio.
//!
//!     cd benches/slidy-4x4 && cargo +nightly run --release --locked -- [BOARDS] [SEED]
//!
//! (slidy 0.7 needs Rust 1.96 or a nightly; see Cargo.toml.)
//!
//! (100 boards and seed 4 by default: the boards of
//! `cargo run --release --example multi_tile_4x4`.)

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use slidedb::multi_heuristic::ColourPdb;
use slidedb::random::{SplitMix64, random_board};
use slidedb::{Board, Shape, Solver};
use slidy::puzzle::puzzle::Puzzle;
use slidy::solver::config::PdbConfig;
use slidy::solver::size4x4::mtm::solver::Solver as SlidySolver;
use slidy::solver::solver::Solver as _;

/// The board in slidy's notation: rows split by `/`.
fn slidy_text(board: &Board) -> String {
    let tiles: Vec<String> = board.tiles().map(|t| t.to_string()).collect();
    tiles
        .chunks(4)
        .map(|row| row.join(" "))
        .collect::<Vec<_>>()
        .join("/")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let goal = Board::solved(Shape::new(4, 4).unwrap());

    let clock = Instant::now();
    let pdb = ColourPdb::four_by_four();
    let ours_build = clock.elapsed();
    println!("slidedb table: {} states, built in {:.2} s", pdb.states(), ours_build.as_secs_f64());
    let clock = Instant::now();
    let mut slidy = SlidySolver::new(&PdbConfig::default());
    let theirs_build = clock.elapsed();
    println!("slidy table: built in {:.2} s", theirs_build.as_secs_f64());

    let solver = Solver::new(&goal);
    let mut rng = SplitMix64::new(seed);
    let (mut ours, mut theirs, mut moves) = (Duration::ZERO, Duration::ZERO, 0u64);
    println!("  # board: moves, slidedb s, slidy s");
    for i in 0..n {
        let board = random_board(&goal, &mut rng);
        let text = slidy_text(&board);

        let clock = Instant::now();
        let found = solver
            .solve_multi(&board, |_| ControlFlow::Continue(()))
            .expect("slidedb answers");
        let ours_took = clock.elapsed();
        let d = found.distance().expect("a random board is solvable") as u64;
        assert_eq!(board.apply_all(found.moves.as_ref().unwrap()), Some(goal));

        let puzzle: Puzzle = text.parse().expect("slidy reads the board");
        let clock = Instant::now();
        let alg = slidy.solve(&puzzle).expect("slidy answers");
        let theirs_took = clock.elapsed();
        assert_eq!(alg.len_mtm(), d, "{board}: slidy {alg}, slidedb {d}");

        println!(
            "{i:3} {text}: {d}, {:.3}, {:.3}",
            ours_took.as_secs_f64(),
            theirs_took.as_secs_f64()
        );
        ours += ours_took;
        theirs += theirs_took;
        moves += d;
    }
    println!(
        "{n} boards (seed {seed}), {moves} moves, the same lengths: slidedb {:.2} s, slidy {:.2} s solving; slidy / slidedb = {:.2}",
        ours.as_secs_f64(),
        theirs.as_secs_f64(),
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
    println!(
        "with the table builds: slidedb {:.2} s, slidy {:.2} s",
        (ours + ours_build).as_secs_f64(),
        (theirs + theirs_build).as_secs_f64()
    );
}
