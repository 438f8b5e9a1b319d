//! Korf and Felner's 50 random 24-puzzle instances, solved optimally by
//! IDA* over additive pattern databases (the larger of the sum and the sum
//! over the board's mirror in the main diagonal): one line per instance and
//! set of databases with its length and the published one, the nodes
//! generated and the published count, the nodes expanded, the time and the
//! rates; then the totals of each set. Exits 1 if a length differs from the
//! published one, 2 on an error.
//!
//! ```text
//! cargo run --release --example korf50 -- [--pdb SIZES[@parent]]... [--data DIR] [--threads N]
//!     [--huge-pages] [--results FILE] [--cheapest N | --all | ID ...]
//! ```
//!
//! The instances: those named; or the `--cheapest N` that Korf and Felner's
//! search needed the fewest nodes for, fewest first; or `--all` 50 in that
//! order. Without any, the 14 cheapest (#38, 40, 25, 32, 44, 37, 30, 13, 1,
//! 28, 36, 5, 22, 16). Each `--pdb` names a set of databases (6-6-6-6 when
//! none is named; `6-6-6-6-blank` for blank-aware entries, see
//! [`EntryKind::BlankAware`](slidedb::pdb::EntryKind::BlankAware)), or
//! several joined by `+` (`7-7-7-3+6-6-6-6`), searched
//! under the maximum of their estimates (the smallest set read first); with
//! several `--pdb`, each instance is solved under each in turn, side by
//! side. IDA* leaves out every redundant move sequence
//! ([`Pruning::Duplicates`]); a name ending in `@parent` (`6-6-6-6@parent`)
//! leaves out only the undo of the last move, as Korf and Felner did: the
//! tree their counts are of. The databases are memory-mapped from the data
//! folder (`--data`, else `$SLIDEDB_DATA`, else the user's data
//! directory), where `slidedb-gen --size 5x5 --pdb 6-6-6-6` writes them.
//! The search runs on `--threads` threads (default: every core).
//! `--huge-pages` copies the databases into memory backed by huge pages
//! rather than mapping them (see
//! [`DatabaseBuilder::patterns_in_huge_pages`](slidedb::DatabaseBuilder::patterns_in_huge_pages)).
//!
//! `--results FILE` makes the batch resumable: each instance's line is
//! appended to FILE (and synced) as it is solved, and a rerun with the same
//! file prints the lines already there and solves only the rest, so a batch
//! of hours can be stopped and taken up again. The instances are
//! `tests/data/korf50-24.txt` (goal `0 1 2 … 24`, blank top left, served by
//! the databases of the canonical goal `1 2 … 24 0`).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use slidedb::pdb::{PatternSpec, Pruning};
use slidedb::symmetry::GoalClass;
use slidedb::{Board, Database, Engine, Method, Shape};
use slidedb::{default_data_dir, pattern_file_name};

/// The instances file: id, the 25 cells, the optimal length, the nodes
/// Korf and Felner's search generated.
const INSTANCES: &str = include_str!("../tests/data/korf50-24.txt");

struct Args {
    sizes: Vec<String>,
    data: Option<PathBuf>,
    threads: Option<usize>,
    huge_pages: bool,
    results: Option<PathBuf>,
    ids: Vec<u32>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        sizes: Vec::new(),
        data: None,
        threads: None,
        huge_pages: false,
        results: None,
        ids: Vec::new(),
    };
    let mut cheapest = None;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--pdb" => args.sizes.push(value("--pdb")?),
            "--data" => args.data = Some(value("--data")?.into()),
            "--results" => args.results = Some(value("--results")?.into()),
            "--threads" => {
                let n = value("--threads")?;
                args.threads = Some(n.parse().map_err(|_| format!("bad --threads {n:?}"))?);
            }
            "--cheapest" => {
                let n = value("--cheapest")?;
                cheapest = Some(n.parse().map_err(|_| format!("bad --cheapest {n:?}"))?);
            }
            "--all" => cheapest = Some(50),
            "--huge-pages" => args.huge_pages = true,
            id => args.ids.push(
                id.parse()
                    .map_err(|_| format!("{id:?} is not an instance number"))?,
            ),
        }
    }
    if args.sizes.is_empty() {
        args.sizes.push("6-6-6-6".into());
    }
    match (cheapest, args.ids.is_empty()) {
        (Some(_), false) => return Err("name instances, or --cheapest N or --all: not both".into()),
        (Some(n), true) => args.ids = by_published_nodes(n),
        (None, true) => args.ids = by_published_nodes(14),
        (None, false) => {}
    }
    Ok(args)
}

/// The `n` instances Korf and Felner's search generated the fewest nodes
/// for, fewest first.
fn by_published_nodes(n: usize) -> Vec<u32> {
    let mut all: Vec<(u64, u32)> = INSTANCES
        .lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            Some((f.get(27)?.parse().ok()?, f.first()?.parse().ok()?))
        })
        .collect();
    all.sort_unstable();
    all.into_iter().take(n).map(|(_, id)| id).collect()
}

/// One set of databases: its name and the engine searching under it.
struct Set {
    sizes: String,
    engine: Engine,
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
    let canonical = GoalClass::of(&goal).canonical().to_owned();
    let Some(dir) = args.data.clone().or_else(default_data_dir) else {
        eprintln!("korf50: no data folder: set SLIDEDB_DATA or pass --data DIR");
        return ExitCode::from(2);
    };
    let mut sets = Vec::new();
    for spec in &args.sizes {
        let mut labels = Vec::new();
        let mut database = Database::in_memory().patterns_in_huge_pages(args.huge_pages);
        let (spec, pruning) = match spec.strip_suffix("@parent") {
            Some(spec) => (spec, Pruning::Parent),
            None => (spec.as_str(), Pruning::Duplicates),
        };
        for part in spec.split('+') {
            let sizes = match PatternSpec::parse(&goal, part) {
                Ok(p) => p.label(&goal),
                Err(e) => {
                    eprintln!("korf50: {e}");
                    return ExitCode::from(2);
                }
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
            database = database.patterns_file(&path);
            labels.push(sizes);
        }
        let mut sizes = labels.join("+");
        if pruning == Pruning::Parent {
            sizes.push_str("@parent");
        }
        let clock = Instant::now();
        let engine = match database
            .open()
            .and_then(|db| db.engine(&goal, Method::Exact))
        {
            Ok(engine) => engine.with_pruning(pruning),
            Err(e) => {
                eprintln!("korf50: {e}");
                return ExitCode::from(2);
            }
        };
        eprintln!(
            "korf50: {} {sizes} in {:.3} s",
            if args.huge_pages { "copied" } else { "mapped" },
            clock.elapsed().as_secs_f64()
        );
        sets.push(Set { sizes, engine });
    }
    let threads = args.threads.unwrap_or(0);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("korf50: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("korf50: {} threads", pool.current_num_threads());
    let results = match Results::open(args.results.as_ref()) {
        Ok(results) => results,
        Err(e) => {
            eprintln!("korf50: {e}");
            return ExitCode::from(2);
        }
    };
    pool.install(|| solve_all(&sets, &args.ids, results))
}

/// One instance solved under one set: what its line shows.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    sizes: String,
    id: u32,
    length: u32,
    generated: u64,
    expanded: u64,
    wall: f64,
    cpu: f64,
}

impl Row {
    /// Its line in a results file: tab-separated fields.
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{:.3}\t{:.3}",
            self.sizes, self.id, self.length, self.generated, self.expanded, self.wall, self.cpu
        )
    }

    /// The row a results file's line holds, if it is one.
    fn parse(line: &str) -> Option<Row> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 7 {
            return None;
        }
        Some(Row {
            sizes: f[0].to_string(),
            id: f[1].parse().ok()?,
            length: f[2].parse().ok()?,
            generated: f[3].parse().ok()?,
            expanded: f[4].parse().ok()?,
            wall: f[5].parse().ok()?,
            cpu: f[6].parse().ok()?,
        })
    }
}

/// The rows kept from earlier runs, and the file new ones go to.
struct Results {
    kept: Vec<Row>,
    file: Option<(PathBuf, File)>,
}

impl Results {
    /// The results file `path` (made if missing), read; none without a
    /// path.
    fn open(path: Option<&PathBuf>) -> Result<Results, String> {
        let Some(path) = path else {
            return Ok(Results {
                kept: Vec::new(),
                file: None,
            });
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        // A line cut short by a stop is not a row, and is left out.
        let kept: Vec<Row> = text.lines().filter_map(Row::parse).collect();
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        // A line cut short is ended, so that the next row starts a line.
        if !text.is_empty() && !text.ends_with('\n') {
            writeln!(file).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        if !kept.is_empty() {
            eprintln!(
                "korf50: {} kept in {}: not solved again",
                slidedb::words::counted(kept.len() as u64, "line", "lines"),
                path.display()
            );
        }
        Ok(Results {
            kept,
            file: Some((path.clone(), file)),
        })
    }

    /// The row kept for `id` under `sizes`, if any.
    fn kept(&self, sizes: &str, id: u32) -> Option<Row> {
        self.kept
            .iter()
            .find(|r| r.sizes == sizes && r.id == id)
            .cloned()
    }

    /// Appends `row` to the file, synced, so that a stop keeps it.
    fn keep(&mut self, row: &Row) -> Result<(), String> {
        let Some((path, file)) = &mut self.file else {
            return Ok(());
        };
        writeln!(file, "{}", row.line())
            .and_then(|()| file.sync_data())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// One instance of the file: its board, optimal length and published
/// node count.
fn instance(id: u32, shape: Shape) -> Option<(Board, u32, u64)> {
    INSTANCES.lines().find_map(|line| {
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

/// Solves the instances `ids` under each set, and prints a line each and
/// each set's totals.
fn solve_all(sets: &[Set], ids: &[u32], mut results: Results) -> ExitCode {
    let goal = *sets[0].engine.goal();
    println!(
        "{:>3} {:>9} {:>6} {:>9} {:>15} {:>15} {:>6} {:>13} {:>9} {:>8} {:>13} {:>13}",
        "id",
        "pdb",
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
    let mut totals = vec![
        Row {
            sizes: String::new(),
            id: 0,
            length: 0,
            generated: 0,
            expanded: 0,
            wall: 0.0,
            cpu: 0.0,
        };
        sets.len()
    ];
    let mut wrong = 0u32;
    for &id in ids {
        let Some((board, want, published)) = instance(id, goal.shape()) else {
            eprintln!("korf50: there is no instance {id} (1 to 50)");
            return ExitCode::from(2);
        };
        for (set, total) in sets.iter().zip(&mut totals) {
            let (row, kept) = match results.kept(&set.sizes, id) {
                Some(row) => (row, true),
                None => match solve(set, id, &board, goal) {
                    Ok(row) => (row, false),
                    Err(e) => {
                        eprintln!("korf50: #{id}: {e}");
                        return ExitCode::from(2);
                    }
                },
            };
            if !kept && let Err(e) = results.keep(&row) {
                eprintln!("korf50: {e}");
                return ExitCode::from(2);
            }
            let ok = row.length == want;
            wrong += !ok as u32;
            total.generated += row.generated;
            total.expanded += row.expanded;
            total.wall += row.wall;
            total.cpu += row.cpu;
            println!(
                "{id:>3} {:>9} {:>6}{} {want:>9} {:>15} {published:>15} {:>6.2} {:>13} {:>9.2} {:>8.2} {:>13.0} {:>13.0}{}",
                row.sizes,
                row.length,
                if ok { "" } else { " WRONG" },
                row.generated,
                row.generated as f64 / published as f64,
                row.expanded,
                row.wall,
                row.cpu,
                row.generated as f64 / row.wall.max(1e-9),
                row.expanded as f64 / row.cpu.max(1e-9),
                if kept { "  (kept)" } else { "" },
            );
        }
    }
    for (set, total) in sets.iter().zip(&totals) {
        println!(
            "total {}: {} instances, {} generated, {} expanded, {:.2} s wall, {:.2} s cpu, {:.0} generated/s, {:.0} expanded/cpu s",
            set.sizes,
            ids.len(),
            total.generated,
            total.expanded,
            total.wall,
            total.cpu,
            total.generated as f64 / total.wall.max(1e-9),
            total.expanded as f64 / total.cpu.max(1e-9),
        );
    }
    println!("{wrong} wrong");
    if wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Solves instance `id` (`board`) under `set`: its row, the length that of
/// a path checked to reach `goal` (0 if it does not).
fn solve(set: &Set, id: u32, board: &Board, goal: Board) -> Result<Row, slidedb::SolveError> {
    let (t, c) = (Instant::now(), cpu_time());
    let found = set.engine.solve(board)?;
    let took = t.elapsed();
    let used = cpu_time()
        .zip(c)
        .map_or(took, |(after, before)| after - before);
    let stats = found.stats.unwrap_or_default();
    let path = found.moves.unwrap_or_default();
    let reaches = board.apply_all(&path) == Some(goal);
    Ok(Row {
        sizes: set.sizes.clone(),
        id,
        length: if reaches { path.len() as u32 } else { 0 },
        generated: stats.generated,
        expanded: stats.expanded,
        wall: took.as_secs_f64(),
        cpu: used.as_secs_f64(),
    })
}
