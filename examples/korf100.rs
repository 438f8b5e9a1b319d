//! Korf's 100 random 15-puzzle instances, solved optimally by IDA* with
//! additive pattern databases (the larger of the sum and the sum over the
//! board's mirror in the main diagonal): one line per instance (length,
//! nodes generated, time) and the totals.
//!
//! ```text
//! cargo run --release --example korf100 -- [7-8|6-6-3|5-5-5] [FIRST_N]
//! ```
//!
//! The databases are memory-mapped from the data folder
//! (`$SLIDEDB_DATA` or `./data`) where `slidedb-gen --size 4x4 --pdb
//! SIZES` writes them, or built in memory when that file is missing. The
//! instances and their optimal lengths are `tests/data/korf100.txt` (goal
//! `0 1 2 … 15`, blank top left: answered through the canonical goal
//! `1 2 … 15 0`, its 180° turn).

use std::process::ExitCode;
use std::time::Instant;

use slidedb::pdb::{self, Partition, PatternDb};
use slidedb::store::pattern_file_name;
use slidedb::symmetry::GoalClass;
use slidedb::{Board, Shape, data_dir};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes = args.first().map(String::as_str).unwrap_or("6-6-3");
    let first: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100);
    let shape = Shape::new(4, 4).expect("4x4");
    let goal = Board::parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Some(shape)).expect("goal");
    let class = GoalClass::of(&goal);
    let partition = match Partition::standard(class.canonical(), sizes) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("korf100: {e}");
            return ExitCode::from(2);
        }
    };
    let path = data_dir().join(pattern_file_name(class.canonical(), sizes));
    let clock = Instant::now();
    if path.exists() {
        match PatternDb::open_path(&path) {
            Ok(db) => {
                eprintln!(
                    "korf100: mapped {} in {:.3} s",
                    path.display(),
                    clock.elapsed().as_secs_f64()
                );
                solve_all(&db, &class, first)
            }
            Err(e) => {
                eprintln!("korf100: {}: {e}", path.display());
                ExitCode::from(2)
            }
        }
    } else {
        let db = pdb::build(class.canonical(), &partition, |_| {});
        eprintln!(
            "korf100: no {}; built the {sizes} databases in memory in {:.2} s",
            path.display(),
            clock.elapsed().as_secs_f64()
        );
        solve_all(&db, &class, first)
    }
}

/// Solves the first `first` instances and prints a line each and the
/// totals.
fn solve_all<D: AsRef<[u8]>>(db: &PatternDb<D>, class: &GoalClass, first: usize) -> ExitCode {
    let shape = class.goal().shape();
    let goal = *class.goal();
    let text = include_str!("../tests/data/korf100.txt");
    let (mut nodes, mut moves, mut wrong, mut count) = (0u64, 0u32, 0u32, 0u64);
    let clock = Instant::now();
    println!("instance length nodes_generated seconds");
    for line in text.lines().take(first) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let board = Board::parse(&f[1..17].join(" "), Some(shape)).expect("an instance");
        let want: u32 = f[17].parse().expect("a length");
        let t = Instant::now();
        let found = db.solve(&class.to_canonical(&board)).expect("a 4x4 board");
        let mut path = found.moves.expect("every instance is solvable");
        class.moves_back(&mut path);
        let length = path.len() as u32;
        let ok = length == want && board.apply_all(&path) == Some(goal);
        wrong += !ok as u32;
        nodes += found.stats.generated;
        moves += length;
        count += 1;
        println!(
            "{:>3} {:>3}{} {:>12} {:>9.3}",
            f[0],
            length,
            if ok { "" } else { " WRONG" },
            found.stats.generated,
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
