//! The share of moves a distributed build sends between owners, for a
//! board size and owner counts: with the build's split (ranges of tile
//! orders for every blank cell, `build::owned_ranges`) and with the
//! alternative of splitting the index into equal contiguous ranges (whole
//! blank cells while the owners are no more than the cells).
//!
//! ```text
//! cargo run --release --example crossing -- 3x5 8 32 128 [SAMPLES]
//! ```
//!
//! A whole search expands every board once, so the share of its moves
//! that cross owners is the share over all boards and all their moves;
//! this estimates it from uniformly random boards (the figure after `±`
//! is one standard error). `docs/scale.md` uses it for boards past one
//! machine.

use std::process::ExitCode;

use slidedb::board::Move;
use slidedb::build::owned_ranges;
use slidedb::random::{SplitMix64, random_board};
use slidedb::rank::Indexer;
use slidedb::{Board, Shape};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: crossing RxC OWNERS... [--samples N]";
    let Some(size) = args.first() else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let Some(shape) = size
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
        .and_then(|(r, c)| Shape::new(r, c).ok())
    else {
        eprintln!("{size} is not a size like 3x5\n{usage}");
        return ExitCode::from(2);
    };
    let mut owners = Vec::new();
    let mut samples = 200_000u64;
    let mut rest = args[1..].iter();
    while let Some(arg) = rest.next() {
        let parsed = match arg.as_str() {
            "--samples" => rest
                .next()
                .and_then(|n| n.parse().ok())
                .map(|n| samples = n),
            n => n.parse().ok().map(|n: usize| owners.push(n.max(1))),
        };
        if parsed.is_none() {
            eprintln!("cannot read {arg}\n{usage}");
            return ExitCode::from(2);
        }
    }
    let goal = Board::solved(shape);
    let indexer = Indexer::new(&goal);
    let (per_blank, states) = (indexer.per_blank(), indexer.len());
    let mut rng = SplitMix64::new(0x5eed);
    // The sampled boards' indexes and their neighbours'.
    let mut pairs = Vec::with_capacity(samples as usize * 4);
    for _ in 0..samples {
        let board = random_board(&goal, &mut rng);
        let from = indexer.rank(&board).expect("a board of the goal's class").0;
        for mv in [Move::Up, Move::Down, Move::Left, Move::Right] {
            if let Some(next) = board.apply(mv) {
                let to = indexer.rank(&next).expect("a neighbour of the class").0;
                pairs.push((from, to));
            }
        }
    }
    println!(
        "{shape}: {states} boards, {:.4} moves a board; {samples} random boards",
        pairs.len() as f64 / samples as f64
    );
    println!("owners  by tile order          by index (blank cells)");
    for &k in &owners {
        let ends: Vec<u64> = owned_ranges(per_blank, k).iter().map(|r| r.end).collect();
        let by_order = |i: u64| ends.partition_point(|&end| end <= i % per_blank);
        let by_index = |i: u64| (i as u128 * k as u128 / states as u128) as u64 as usize;
        let share = |owner: &dyn Fn(u64) -> usize| {
            let crossing = pairs.iter().filter(|&&(a, b)| owner(a) != owner(b)).count();
            let p = crossing as f64 / pairs.len() as f64;
            // Moves of one board are not independent; the error counts
            // boards, which is the larger.
            let error = (p * (1.0 - p) / samples as f64).sqrt();
            format!("{:6.2}% ± {:.2}%", 100.0 * p, 100.0 * error)
        };
        println!("{k:>6}  {:<22}  {}", share(&by_order), share(&by_index));
    }
    ExitCode::SUCCESS
}
