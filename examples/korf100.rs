//! Korf's 100 random 15-puzzle instances, solved optimally by IDA* with
//! additive pattern databases (the larger of the sum and the sum over the
//! board's mirror in the main diagonal): one line per instance (length,
//! nodes generated, time) and the totals.
//!
//! ```text
//! cargo run --release --example korf100 -- [7-8|6-6-3|5-5-5][@parent] [FIRST_N]
//! ```
//!
//! IDA* leaves out every redundant move sequence ([`Pruning::Duplicates`]);
//! with `@parent` (`6-6-3@parent`), only the undo of the last move, as the
//! published counts did.
//!
//! The databases are memory-mapped from the data folder (`$SLIDEDB_DATA`,
//! else the user's data directory) where `slidedb-gen --size 4x4 --pdb
//! SIZES` writes them, or built in memory when that file is missing; the
//! library's `Database` answers through them. The instances and their
//! optimal lengths are `tests/data/korf100.txt` (goal `0 1 2 … 15`, blank
//! top left: served by the databases of the canonical goal `1 2 … 15 0`,
//! its 180° turn).

use std::process::ExitCode;
use std::time::Instant;

use slidedb::pdb::{self, Partition, Pruning};
use slidedb::symmetry::GoalClass;
use slidedb::{Board, Database, Engine, Method, Shape};
use slidedb::{default_data_dir, pattern_file_name};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes = args.first().map(String::as_str).unwrap_or("6-6-3");
    let (sizes, pruning) = match sizes.strip_suffix("@parent") {
        Some(sizes) => (sizes, Pruning::Parent),
        None => (sizes, Pruning::Duplicates),
    };
    let first: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100);
    let shape = Shape::new(4, 4).expect("4x4");
    let goal = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).expect("goal");
    let partition = match Partition::standard(&goal, sizes) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("korf100: {e}");
            return ExitCode::from(2);
        }
    };
    // The databases of exactly this partition: from the data folder where
    // slidedb-gen writes them, else built in memory.
    let canonical = GoalClass::of(&goal).canonical().to_owned();
    let path =
        default_data_dir().map(|d| d.join(pattern_file_name(&canonical, &partition.sizes())));
    let clock = Instant::now();
    let db = match path.as_ref().filter(|p| p.exists()) {
        Some(path) => Database::in_memory()
            .patterns_file(path)
            .open()
            .inspect(|_| {
                eprintln!(
                    "korf100: mapped {} in {:.3} s",
                    path.display(),
                    clock.elapsed().as_secs_f64()
                )
            }),
        None => {
            let built =
                pdb::build(&goal, &partition, |_| {}).expect("a partition of the goal's size");
            eprintln!(
                "korf100: no {sizes} databases in the data folder; built them in memory in {:.2} s",
                clock.elapsed().as_secs_f64()
            );
            Database::in_memory().patterns(built).open()
        }
    };
    match db.and_then(|db| db.engine(&goal, Method::Exact)) {
        Ok(engine) => solve_all(&engine.with_pruning(pruning), first),
        Err(e) => {
            eprintln!("korf100: {e}");
            ExitCode::from(2)
        }
    }
}

/// Solves the first `first` instances and prints a line each and the
/// totals.
fn solve_all(engine: &Engine, first: usize) -> ExitCode {
    let goal = *engine.goal();
    let shape = goal.shape();
    let text = include_str!("../tests/data/korf100.txt");
    let (mut nodes, mut moves, mut wrong, mut count) = (0u64, 0u32, 0u32, 0u64);
    let clock = Instant::now();
    println!("instance length nodes_generated seconds");
    for line in text.lines().take(first) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let board = Board::parse(&f[1..17].join(" "), Some(shape)).expect("an instance");
        let want: u32 = f[17].parse().expect("a length");
        let t = Instant::now();
        let found = engine.solve(&board).expect("a 4x4 board");
        let generated = found.stats.map_or(0, |s| s.generated);
        let path = found.moves.expect("every instance is solvable");
        let length = path.len() as u32;
        let ok = length == want && board.apply_all(&path) == Some(goal);
        wrong += !ok as u32;
        nodes += generated;
        moves += length;
        count += 1;
        println!(
            "{:>3} {:>3}{} {:>12} {:>9.3}",
            f[0],
            length,
            if ok { "" } else { " WRONG" },
            generated,
            t.elapsed().as_secs_f64()
        );
    }
    println!(
        "total: {count} instances, {moves} moves, {nodes} nodes generated ({} per instance), {:.3} s, {wrong} wrong",
        nodes / count.max(1),
        clock.elapsed().as_secs_f64()
    );
    if wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
