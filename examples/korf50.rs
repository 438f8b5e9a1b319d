//! Korf and Felner's 50 random 24-puzzle instances, solved optimally by
//! IDA* over additive pattern databases (the larger of the sum and the sum
//! over the board's mirror in the main diagonal): one line per instance
//! with its length and the published one, the nodes generated and the
//! published count, the time and the rate; then the totals. Exits 1 if a
//! length differs from the published one, 2 on an error.
//!
//! ```text
//! cargo run --release --example korf50 -- [--pdb SIZES] [--data DIR] [--threads N] [ID ...]
//! ```
//!
//! With no ids, the 14 that Korf and Felner's search needed the fewest
//! nodes for (#38, 40, 25, 32, 44, 37, 30, 13, 1, 28, 36, 5, 22, 16), in
//! that order. The databases (6-6-6-6 unless `--pdb` names others) are
//! memory-mapped from the data folder (`--data`, else `$SLIDEDB_DATA`,
//! else the user's data directory), where `slidedb-gen --size 5x5 --pdb
//! 6-6-6-6` writes them. The search runs on `--threads` threads (default:
//! every core). The instances are `tests/data/korf50-24.txt` (goal `0 1 2
//! … 24`, blank top left, served by the databases of the canonical goal
//! `1 2 … 24 0`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use slidedb::pdb::Partition;
use slidedb::symmetry::GoalClass;
use slidedb::{Board, Database, Engine, Method, Shape};
use slidedb::{default_data_dir, pattern_file_name};

/// The 14 instances with the fewest published nodes, fewest first.
const CHEAPEST: [u32; 14] = [38, 40, 25, 32, 44, 37, 30, 13, 1, 28, 36, 5, 22, 16];

struct Args {
    sizes: String,
    data: Option<PathBuf>,
    threads: Option<usize>,
    ids: Vec<u32>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        sizes: "6-6-6-6".into(),
        data: None,
        threads: None,
        ids: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--pdb" => args.sizes = value("--pdb")?,
            "--data" => args.data = Some(value("--data")?.into()),
            "--threads" => {
                let n = value("--threads")?;
                args.threads = Some(n.parse().map_err(|_| format!("bad --threads {n:?}"))?);
            }
            id => args.ids.push(
                id.parse()
                    .map_err(|_| format!("{id:?} is not an instance number"))?,
            ),
        }
    }
    if args.ids.is_empty() {
        args.ids = CHEAPEST.to_vec();
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("korf50: {e}");
            return ExitCode::from(2);
        }
    };
    let shape = Shape::new(5, 5).expect("5x5");
    let goal = Board::parse(
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24",
        Some(shape),
    )
    .expect("goal");
    let sizes = match Partition::parse(&goal, &args.sizes) {
        Ok(p) => p.label(&goal),
        Err(e) => {
            eprintln!("korf50: {e}");
            return ExitCode::from(2);
        }
    };
    let canonical = GoalClass::of(&goal).canonical().to_owned();
    let Some(dir) = args.data.clone().or_else(default_data_dir) else {
        eprintln!("korf50: no data folder: set SLIDEDB_DATA or pass --data DIR");
        return ExitCode::from(2);
    };
    let path = dir.join(pattern_file_name(&canonical, &sizes));
    if !path.exists() {
        eprintln!(
            "korf50: no {sizes} databases at {}: build them with\n    slidedb-gen --size 5x5 --pdb {sizes} --data {}",
            path.display(),
            dir.display()
        );
        return ExitCode::from(2);
    }
    let clock = Instant::now();
    let engine = match Database::in_memory()
        .patterns_file(&path)
        .open()
        .and_then(|db| db.engine(&goal, Method::Exact))
    {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("korf50: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!(
        "korf50: mapped {} in {:.3} s",
        path.display(),
        clock.elapsed().as_secs_f64()
    );
    let threads = args.threads.unwrap_or(0);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("korf50: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("korf50: {} threads", pool.current_num_threads());
    pool.install(|| solve_all(&engine, &args.ids))
}

/// One instance of the file: its board, optimal length and published
/// node count.
fn instance(id: u32, shape: Shape) -> Option<(Board, u32, u64)> {
    let text = include_str!("../tests/data/korf50-24.txt");
    text.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        (f.first()? == &id.to_string()).then(|| {
            let board = Board::parse(&f[1..26].join(" "), Some(shape)).expect("an instance");
            (
                board,
                f[26].parse().expect("a length"),
                f[27].parse().expect("a node count"),
            )
        })
    })
}

/// The CPU time this process has used (user and system), where Linux
/// says it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which ends at the last ')'): utime
    // and stime are the 12th and 13th, in clock ticks (100 a second).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Solves the instances `ids` and prints a line each and the totals.
fn solve_all(engine: &Engine, ids: &[u32]) -> ExitCode {
    let goal = *engine.goal();
    println!(
        "{:>3} {:>6} {:>9} {:>15} {:>15} {:>6} {:>13} {:>9} {:>8} {:>13} {:>13}",
        "id",
        "length",
        "published",
        "generated",
        "published",
        "ratio",
        "expanded",
        "wall s",
        "cpu s",
        "generated/s",
        "expanded/cpu s"
    );
    let (mut generated, mut expanded, mut wrong) = (0u64, 0u64, 0u32);
    let (mut wall, mut cpu) = (Duration::ZERO, Duration::ZERO);
    for &id in ids {
        let Some((board, want, published)) = instance(id, goal.shape()) else {
            eprintln!("korf50: there is no instance {id} (1 to 50)");
            return ExitCode::from(2);
        };
        let (t, c) = (Instant::now(), cpu_time());
        let found = match engine.solve(&board) {
            Ok(found) => found,
            Err(e) => {
                eprintln!("korf50: #{id}: {e}");
                return ExitCode::from(2);
            }
        };
        let took = t.elapsed();
        let used = cpu_time()
            .zip(c)
            .map_or(took, |(after, before)| after - before);
        let stats = found.stats.unwrap_or_default();
        let path = found.moves.unwrap_or_default();
        let length = path.len() as u32;
        let ok = length == want && board.apply_all(&path) == Some(goal);
        wrong += !ok as u32;
        generated += stats.generated;
        expanded += stats.expanded;
        wall += took;
        cpu += used;
        println!(
            "{id:>3} {length:>6}{} {want:>9} {:>15} {published:>15} {:>6.2} {:>13} {:>9.2} {:>8.2} {:>13.0} {:>13.0}",
            if ok { "" } else { " WRONG" },
            stats.generated,
            stats.generated as f64 / published as f64,
            stats.expanded,
            took.as_secs_f64(),
            used.as_secs_f64(),
            stats.generated as f64 / took.as_secs_f64(),
            stats.expanded as f64 / used.as_secs_f64().max(1e-9),
        );
    }
    println!(
        "total: {} instances, {generated} generated, {expanded} expanded, {:.2} s wall, {:.2} s cpu, {:.0} generated/s, {:.0} expanded/cpu s, {wrong} wrong",
        ids.len(),
        wall.as_secs_f64(),
        cpu.as_secs_f64(),
        generated as f64 / wall.as_secs_f64().max(1e-9),
        expanded as f64 / cpu.as_secs_f64().max(1e-9),
    );
    if wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
