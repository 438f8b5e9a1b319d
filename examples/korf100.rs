//! Korf's 100 random 15-puzzle instances, solved optimally by IDA* with
//! additive pattern databases: one line per instance (length, nodes
//! generated, time) and the totals.
//!
//! ```text
//! cargo run --release --example korf100 -- [5-5-5|6-6-3] [FIRST_N]
//! ```
//!
//! The instances and their optimal lengths are `tests/data/korf100.txt`
//! (goal `0 1 2 … 15`, blank top left).

use std::process::ExitCode;
use std::time::Instant;

use slidedb::pdb::AdditivePatterns;
use slidedb::{Algorithm, Board, Shape, Solver};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let partition = args.first().map(String::as_str).unwrap_or("5-5-5");
    let first: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100);
    let groups: Vec<Vec<u8>> = match partition {
        "5-5-5" => vec![(1..=5).collect(), (6..=10).collect(), (11..=15).collect()],
        "6-6-3" => vec![
            vec![1, 4, 5, 8, 9, 12],
            vec![6, 7, 10, 11, 14, 15],
            vec![2, 3, 13],
        ],
        other => {
            eprintln!("korf100: unknown partition {other:?}: use 5-5-5 or 6-6-3");
            return ExitCode::from(2);
        }
    };
    let shape = Shape::new(4, 4).expect("4x4");
    let goal = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).expect("goal");
    let start = Instant::now();
    let slices: Vec<&[u8]> = groups.iter().map(Vec::as_slice).collect();
    let pdbs = AdditivePatterns::build(&goal, &slices).expect("a partition of the tiles");
    println!(
        "built {partition} pattern databases in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let solver = Solver::new(&goal);
    let text = include_str!("../tests/data/korf100.txt");
    let (mut nodes, mut moves, mut wrong) = (0u64, 0u32, 0);
    let clock = Instant::now();
    for line in text.lines().take(first) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let board = Board::parse(&f[1..17].join(" "), Some(shape)).expect("an instance");
        let want: u32 = f[17].parse().expect("a length");
        let t = Instant::now();
        let found = solver
            .solve_estimated(&board, Algorithm::IdaStar, |b| pdbs.estimate(b))
            .expect("a 4x4 board");
        let length = found.moves.map_or(0, |m| m.len() as u32);
        let ok = length == want;
        wrong += !ok as u32;
        nodes += found.stats.generated;
        moves += length;
        println!(
            "#{:>3} {:>3} moves{} {:>12} nodes {:>9.3} s",
            f[0],
            length,
            if ok { "" } else { " (WRONG)" },
            found.stats.generated,
            t.elapsed().as_secs_f64()
        );
    }
    let n = text.lines().take(first).count() as u64;
    println!(
        "{n} instances, {moves} moves, {nodes} nodes generated ({} per instance), {:.2} s, {wrong} wrong",
        nodes / n.max(1),
        clock.elapsed().as_secs_f64()
    );
    if wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
