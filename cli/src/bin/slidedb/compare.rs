//! `slidedb compare`: every algorithm on one board, side by side.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use serde::Serialize;
use slidedb::{
    Board, Engine, ExactBy, Heuristic, Method, Metric, Move, Shape, SolveError, Solver, Stats,
    moves_to_string,
};

use crate::alloc::peak_during;
use crate::data::{DataArgs, OpenDatabase};
use crate::solve::{Algo, HeuristicArg};
use crate::ticker::Ticker;

#[derive(ClapArgs)]
pub struct CompareArgs {
    /// The board, such as "7 2 4 / 5 0 6 / 8 3 1".
    #[arg(value_name = "BOARD")]
    board: String,
    #[command(flatten)]
    data: DataArgs,
    /// The algorithms to run, split by commas [default: table,astar,idastar,bfs,dfs,iddfs].
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
    algos: Vec<Algo>,
    /// The estimate used by astar and idastar [default: manhattan; with
    /// --metric multi, walking-distance]. In the multi-tile metric,
    /// manhattan and linear-conflict are divided by the longest side less
    /// one (the most tiles one move slides), so that they never
    /// overestimate.
    #[arg(long, value_enum)]
    heuristic: Option<HeuristicArg>,
    /// One JSON object per line, one line per algorithm.
    #[arg(long)]
    json: bool,
    /// Stop each search after this long (like 10s, 2m, or 0 for no limit):
    /// its row says what it did by then. Rows are printed as they finish.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = slidedb_cli::units::parse_duration)]
    max_time: Duration,
    /// No progress on stderr (shown for a row that runs over a second: a
    /// spinner on a terminal, else a line every 5 s).
    #[arg(long)]
    quiet: bool,
}

/// One algorithm's run.
struct Row {
    algo: Algo,
    /// `None` when no goal was reached (unsolvable) or the search was
    /// stopped ([`stopped`](Row::stopped)).
    moves: Option<Vec<Move>>,
    /// The metric its moves are counted in.
    metric: Metric,
    /// Whether the search passed `--max-time` and was stopped.
    stopped: bool,
    stats: Stats,
    heap: usize,
    elapsed: Duration,
}

#[derive(Serialize)]
struct JsonRow<'a> {
    algorithm: &'static str,
    moves: Option<&'a str>,
    length: Option<usize>,
    optimal: Option<bool>,
    expanded: u64,
    generated: u64,
    peak_open: u64,
    peak_stored: u64,
    peak_heap_bytes: usize,
    micros: u128,
    /// The search passed `--max-time` and was stopped (`moves` is null).
    stopped: bool,
    /// The metric, when it is not the single-tile one: `multi` (as in
    /// `solve --json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    metric: Option<&'static str>,
    /// In the multi-tile metric, the moves: the path's runs of one letter.
    #[serde(skip_serializing_if = "Option::is_none")]
    slides: Option<Vec<String>>,
}

const ALL: [Algo; 6] = [
    Algo::Table,
    Algo::Astar,
    Algo::Idastar,
    Algo::Bfs,
    Algo::Dfs,
    Algo::Iddfs,
];

pub fn run(args: &CompareArgs) -> Result<u8> {
    let named = args
        .heuristic
        .map(|h| {
            h.plain().context(
                "compare runs the searches with manhattan, linear-conflict or walking-distance; --heuristic pdb is for solve and verify",
            )
        })
        .transpose()?;
    let data = args.data.open(true)?;
    // Every row counts moves in the metric asked for: the searches, the
    // table, and what is optimal.
    let metric = data.db.metric();
    let heuristic = named.unwrap_or_else(|| Heuristic::default_in(metric));
    let board = Board::parse(&args.board, data.size)
        .with_context(|| format!("bad board {:?}", args.board))?;
    let goal = data.goal_for(board.shape())?;
    let exact = yardstick(args, &data, &board, &goal)?;
    let solver = Solver::new(&goal)
        .with_memory(data.db.search_memory())
        .with_metric(metric);
    let algos = choose_algos(args, board.shape(), exact.is_some(), &solver);
    // What is optimal: the exact engine's length, known before any row
    // runs, so that each row is printed as it finishes.
    let best = match &exact {
        Some(e) => e.solve(&board)?.distance(),
        None => None,
    };
    let race = Race {
        board: &board,
        exact: exact.as_ref(),
        solver: &solver,
        heuristic,
        max_time: args.max_time,
        best,
    };
    let mut out = crate::output();
    if !args.json {
        print_header(&mut out, &board, &goal, metric)?;
    }
    let mut rows = Vec::new();
    let ticker = Ticker::start(args.quiet);
    for &algo in &algos {
        let row = race.run(algo, &ticker)?;
        if args.json {
            print_json_row(&mut out, &row, race.optimal(&row))?;
        } else {
            print_row(&mut out, &row, race.optimal(&row))?;
        }
        // A row is kept once printed: Ctrl-C during the next keeps it.
        out.flush()?;
        rows.push(row);
    }
    drop(ticker);
    if !args.json {
        print_paths(&mut out, &rows, args.max_time)?;
    }
    out.flush()?;
    // A stopped row is a measurement, not a failure; an unsolvable board
    // is 1, as everywhere.
    Ok(if rows.iter().any(|r| r.moves.is_none() && !r.stopped) {
        1
    } else {
        0
    })
}

/// The yardstick, and the "table" row: the library's exact engine (the
/// class's table; beyond full tables, IDA* over pattern databases).
/// Without it (`None`), optimality is not judged, and stderr says why;
/// named with `--algos`, the table must be had, and its lack is the error.
fn yardstick(
    args: &CompareArgs,
    data: &OpenDatabase,
    board: &Board,
    goal: &Board,
) -> Result<Option<Engine>> {
    let shape = board.shape();
    // Named with --algos, the table must be had; by default, without it
    // the searches still run, unjudged.
    let named = args.algos.contains(&Algo::Table);
    Ok(match data.exact(shape) {
        Ok(ExactBy::Nothing { .. }) if named => {
            // The error names the command that builds them.
            data.require_patterns(shape)?;
            None
        }
        Ok(ExactBy::Nothing { .. }) => {
            say!(
                "slidedb: no pattern databases for {shape} goal {goal}, so optimality is not judged: build them with slidedb-gen --size {shape} --goal \"{goal}\" --pdb {}",
                crate::data::suggested_sizes(shape)
            );
            None
        }
        Ok(_) => Some(data.engine(shape, Method::Exact)?),
        Err(e) if named => return Err(e),
        Err(e) => {
            say!("slidedb: no table, so optimality is not judged: {e:#}");
            None
        }
    })
}

/// The algorithms to run: those named with `--algos` (each warned of on
/// stderr when it may pass the search memory); by default every one that
/// fits in it (the table only when `known`), or on boards beyond full
/// tables, the table and idastar.
fn choose_algos(args: &CompareArgs, shape: Shape, known: bool, solver: &Solver) -> Vec<Algo> {
    let big = shape.cells() > slidedb::MAX_TABLE_CELLS;
    let budget = solver.memory();
    let too_big = |algo: &Algo| {
        algo.search()
            .is_some_and(|a| solver.memory_needed(a) > u128::from(budget))
    };
    match (args.algos.is_empty(), big) {
        (false, _) => {
            // Named: they run, each stopped at the memory it may use.
            for algo in args.algos.iter().filter(|a| too_big(a)) {
                let a = algo.search().expect("a search");
                say!(
                    "slidedb: {a} can remember all {} boards of {shape} ({}), more than the {} a search may use here: it stops there if it must",
                    shape.states(),
                    slidedb_cli::units::bytes(solver.memory_needed(a)),
                    slidedb_cli::units::bytes(budget)
                );
            }
            args.algos.clone()
        }
        (true, false) => {
            let (run, skipped): (Vec<Algo>, Vec<Algo>) = ALL
                .iter()
                .copied()
                .filter(|&a| known || a != Algo::Table)
                .partition(|a| !too_big(a));
            if !skipped.is_empty() {
                let names: Vec<&str> = skipped.iter().map(|&a| name(a)).collect();
                say!(
                    "slidedb: {} not run: each can remember all {} boards of {shape} ({}), more than the {} a search may use here; name them with --algos to run them within it",
                    names.join(", "),
                    shape.states(),
                    slidedb_cli::units::bytes(solver.memory_needed(slidedb::Algorithm::Bfs)),
                    slidedb_cli::units::bytes(budget)
                );
            }
            run
        }
        (true, true) => {
            say!(
                "slidedb: on {shape} boards only the table (pattern databases) and idastar run by default: bfs, dfs and iddfs would not finish, and astar can need gigabytes; name them with --algos to run them anyway"
            );
            if known {
                vec![Algo::Table, Algo::Idastar]
            } else {
                vec![Algo::Idastar]
            }
        }
    }
}

/// What every row runs against: the board, the yardstick and the
/// searches' settings.
struct Race<'a> {
    board: &'a Board,
    /// The exact engine, when there is one ([`yardstick`]).
    exact: Option<&'a Engine>,
    solver: &'a Solver,
    heuristic: Heuristic,
    /// `--max-time`; zero for no limit.
    max_time: Duration,
    /// The yardstick's length: `None` when unsolvable or not known.
    best: Option<u32>,
}

impl Race<'_> {
    /// Runs `algo` on the board, stopped at `--max-time`, its progress
    /// shown by `ticker`, and measures it.
    fn run(&self, algo: Algo, ticker: &Ticker) -> Result<Row> {
        ticker.begin(name(algo), algo.search().is_some());
        let start = Instant::now();
        let deadline = (!self.max_time.is_zero()).then(|| start + self.max_time);
        let mut watch = ticker.watch();
        let progress = |stats: &Stats| {
            watch(stats)?;
            match deadline {
                Some(deadline) if Instant::now() >= deadline => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        };
        let (result, heap) = peak_during(|| match algo.search() {
            None => self.lookup(),
            Some(a) => {
                match self
                    .solver
                    .solve_with_progress(self.board, a, self.heuristic, progress)
                {
                    Ok(s) => Ok((s.moves, s.stats.unwrap_or_default(), false)),
                    Err(SolveError::Stopped { stats }) => Ok((None, stats, true)),
                    Err(e) => Err(e.into()),
                }
            }
        });
        let elapsed = start.elapsed();
        ticker.end();
        let (moves, stats, stopped) = result?;
        Ok(Row {
            algo,
            moves,
            metric: self.solver.metric(),
            stopped,
            stats,
            heap,
            // A lookup has no search to time: the whole call is timed.
            elapsed: if algo == Algo::Table && self.exact.is_some_and(Engine::is_lookup) {
                elapsed
            } else {
                stats.elapsed
            },
        })
    }

    /// The "table" row's answer: the exact engine's moves and statistics,
    /// never stopped.
    fn lookup(&self) -> Result<(Option<Vec<Move>>, Stats, bool)> {
        let big = self.board.shape().cells() > slidedb::MAX_TABLE_CELLS;
        let engine = self.exact.context(if big {
            "the table algorithm needs pattern databases on boards this big"
        } else {
            "the table algorithm needs a table"
        })?;
        let found = engine.solve(self.board)?;
        Ok((found.moves, found.stats.unwrap_or_default(), false))
    }

    /// Whether `row`'s path is optimal: `None` when there is no path or no
    /// yardstick. A path is optimal or not; "unsolvable" is no path, and
    /// claims nothing (that it agrees with the yardstick shows in its
    /// moves).
    fn optimal(&self, row: &Row) -> Option<bool> {
        match (row.length(), self.exact.is_some()) {
            (Some(length), true) => Some(Some(length as u32) == self.best),
            _ => None,
        }
    }
}

impl Row {
    /// The number of moves of its path in its metric (in the multi-tile
    /// metric, a run of one letter is one move).
    fn length(&self) -> Option<usize> {
        self.moves.as_deref().map(|m| self.metric.moves_in(m))
    }

    /// Its path as shown: the blank's letters, or in the multi-tile
    /// metric its moves apart (`l d r uu`), the first `most` of them.
    fn shown(&self, most: usize) -> Option<String> {
        let moves = self.moves.as_deref()?;
        Some(match self.metric {
            Metric::Single => moves_to_string(&moves[..moves.len().min(most)]),
            Metric::Multi => {
                let slides = self.metric.group(moves);
                let words: Vec<String> = slides.iter().take(most).map(|s| s.to_string()).collect();
                words.join(" ")
            }
        })
    }
}

/// The table view's first lines: the board and goal (and the metric when
/// it is not the single-tile one), and the columns' names.
fn print_header(out: &mut impl Write, board: &Board, goal: &Board, metric: Metric) -> Result<()> {
    match metric {
        Metric::Single => writeln!(out, "board {board}  goal {goal}")?,
        _ => writeln!(
            out,
            "board {board}  goal {goal}  {} moves",
            metric.adjective()
        )?,
    }
    writeln!(
        out,
        "{:<9} {:>10} {:>8} {:>12} {:>12} {:>10} {:>12} {:>10} {:>10}",
        "algorithm",
        "moves",
        "optimal",
        "expanded",
        "generated",
        "peak open",
        "peak stored",
        "peak heap",
        "time"
    )?;
    out.flush()?;
    Ok(())
}

/// One row of `--json`: one object on a line.
fn print_json_row(out: &mut impl Write, row: &Row, optimal: Option<bool>) -> Result<()> {
    let letters = row.moves.as_deref().map(moves_to_string);
    let multi = row.metric == Metric::Multi;
    let j = JsonRow {
        algorithm: name(row.algo),
        moves: letters.as_deref(),
        length: row.length(),
        optimal,
        expanded: row.stats.expanded,
        generated: row.stats.generated,
        peak_open: row.stats.peak_open,
        peak_stored: row.stats.peak_visited,
        peak_heap_bytes: row.heap,
        micros: row.elapsed.as_micros(),
        stopped: row.stopped,
        metric: multi.then_some(row.metric.name()),
        slides: row.moves.as_deref().filter(|_| multi).map(|m| {
            let slides = row.metric.group(m);
            slides.iter().map(|s| s.to_string()).collect()
        }),
    };
    writeln!(out, "{}", serde_json::to_string(&j)?)?;
    Ok(())
}

/// One row of the table view, under [`print_header`]'s columns.
fn print_row(out: &mut impl Write, row: &Row, optimal: Option<bool>) -> Result<()> {
    let length = match (row.length(), row.stopped) {
        (_, true) => "stopped".to_string(),
        (Some(length), false) => length.to_string(),
        (None, false) => "unsolvable".to_string(),
    };
    let opt = match (optimal, &row.moves) {
        (Some(true), _) => "yes",
        (Some(false), _) => "no",
        (None, None) => "-",
        (None, Some(_)) => "?",
    };
    writeln!(
        out,
        "{:<9} {:>10} {:>8} {:>12} {:>12} {:>10} {:>12} {:>10} {:>10}",
        name(row.algo),
        length,
        opt,
        row.stats.expanded,
        row.stats.generated,
        row.stats.peak_open,
        row.stats.peak_visited,
        slidedb_cli::units::bytes(row.heap as u64),
        duration(row.elapsed)
    )?;
    Ok(())
}

/// The table view's last part: after a blank line, each row's moves (or
/// why it has none).
fn print_paths(out: &mut impl Write, rows: &[Row], max_time: Duration) -> Result<()> {
    writeln!(out)?;
    for row in rows {
        match &row.moves {
            _ if row.stopped => writeln!(
                out,
                "{:<9} stopped at --max-time {}: no solution after {} nodes expanded, paths explored to depth {}",
                name(row.algo),
                duration(max_time),
                row.stats.expanded,
                row.stats.peak_open
            )?,
            // A depth-first path can be tens of thousands of moves:
            // its start here, all of it in --json.
            Some(_) if row.length() > Some(LONGEST_SHOWN) => writeln!(
                out,
                "{:<9} {}… ({} moves; all of them with --json)",
                name(row.algo),
                row.shown(LONGEST_SHOWN).unwrap_or_default(),
                row.length().unwrap_or_default()
            )?,
            Some(_) => writeln!(
                out,
                "{:<9} {}",
                name(row.algo),
                row.shown(LONGEST_SHOWN).unwrap_or_default()
            )?,
            None => writeln!(out, "{:<9} unsolvable", name(row.algo))?,
        }
    }
    Ok(())
}

/// The most moves of one path the table view shows.
const LONGEST_SHOWN: usize = 100;

fn name(algo: Algo) -> &'static str {
    algo.search().map_or("table", |a| a.name())
}

/// A duration in a short human form: `3.1 µs`, `12.3 ms`, `2.41 s`.
fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}
