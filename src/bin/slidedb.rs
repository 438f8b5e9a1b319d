//! `slidedb`: answers sliding-tile boards from a distance table.
//!
//! Exit status: 0 when every board is answered, 1 when some board is
//! unsolvable (and none invalid), 2 on any error.

use std::collections::HashMap;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args as ClapArgs, Parser, Subcommand};
use rayon::prelude::*;
use serde::Serialize;
use slidedb::{Board, Move, Shape, Table, data_dir, default_file_name, generate, write_atomic};

/// Writes a diagnostic line to stderr. A closed stderr is no reason to
/// panic, so write errors are ignored.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// Exact, optimal answers for sliding-tile puzzles from a precomputed table.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve boards: print the blank's moves (u d l r), one line per board.
    ///
    /// Boards come from the arguments, or from stdin one per line when
    /// there are none (or one is `-`). A line is the optimal move string
    /// (empty for a solved board) or `unsolvable`.
    Solve(SolveArgs),
    /// Describe a table: size, goal, states, distances, hardest states.
    Stats(StatsArgs),
}

#[derive(ClapArgs)]
struct TableChoice {
    /// Board size as ROWSxCOLS [default: from the goal or the board].
    #[arg(long, value_name = "RxC")]
    size: Option<Shape>,
    /// The goal [default: the tiles in order, blank last].
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    goal: Option<String>,
    /// The table file [default: $SLIDEDB_DATA or ./data, by size and goal;
    /// built there if missing and the board has at most 9 cells].
    #[arg(long, value_name = "PATH")]
    table: Option<PathBuf>,
}

#[derive(ClapArgs)]
struct SolveArgs {
    /// Boards, each one argument, such as "2 3 4 1 5 x 7 6 8" or 123/456/78x.
    #[arg(value_name = "BOARD")]
    boards: Vec<String>,
    #[command(flatten)]
    choice: TableChoice,
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
    /// After the moves, print every board along the way as a grid.
    #[arg(long, conflicts_with = "json")]
    steps: bool,
}

#[derive(ClapArgs)]
struct StatsArgs {
    #[command(flatten)]
    choice: TableChoice,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve(args) => solve(args),
        Command::Stats(args) => stats(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say!("slidedb: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The bytes of a table: memory-mapped from its file, or built in memory.
enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// Bodies up to this size have their checksum checked on every open.
const VERIFY_ON_OPEN: usize = 64 << 20;
/// Boards up to this many cells get their table built on first use.
const AUTO_BUILD_CELLS: usize = 9;

/// Finds (or builds) the tables that boards need, one per shape.
struct Tables {
    /// The goal asked for with --goal, if any.
    goal: Option<Board>,
    /// The size in force for reading boards.
    size: Option<Shape>,
    /// From --table, or loaded so far.
    by_shape: HashMap<Shape, Arc<Table<Bytes>>>,
    /// --table was given: no other table may be used.
    fixed: bool,
}

impl Tables {
    fn new(choice: &TableChoice) -> Result<Tables> {
        let mut tables = Tables {
            goal: None,
            size: choice.size,
            by_shape: HashMap::new(),
            fixed: false,
        };
        if let Some(path) = &choice.table {
            let table = open_table(path)?;
            let shape = table.shape();
            if let Some(size) = choice.size
                && size != shape
            {
                bail!(
                    "--size {size} contradicts the table {}, which is {shape}",
                    path.display()
                );
            }
            tables.size = Some(shape);
            tables.by_shape.insert(shape, Arc::new(table));
            tables.fixed = true;
        }
        if let Some(text) = &choice.goal {
            let goal =
                Board::parse(text, tables.size).with_context(|| format!("bad goal {text:?}"))?;
            if let Some(table) = tables.by_shape.get(&goal.shape())
                && table.goal() != &goal
            {
                bail!(
                    "the goal {goal} is not the table's goal ({}); build a table for it with slidedb-gen --goal",
                    table.goal()
                );
            }
            tables.size = Some(goal.shape());
            tables.goal = Some(goal);
        }
        Ok(tables)
    }

    /// The goal for boards of `shape`.
    fn goal_for(&self, shape: Shape) -> Result<Board> {
        match self.goal {
            Some(goal) if goal.shape() != shape => {
                bail!("the board is {shape} but the goal is {}", goal.shape())
            }
            Some(goal) => Ok(goal),
            None => Ok(Board::solved(shape)),
        }
    }

    /// The table for boards of `shape`, loading or building it if needed.
    fn get(&mut self, shape: Shape) -> Result<Arc<Table<Bytes>>> {
        if let Some(t) = self.by_shape.get(&shape) {
            return Ok(t.clone());
        }
        if self.fixed {
            let have = self.by_shape.keys().next().expect("the fixed table");
            bail!("the board is {shape} but the table is for {have}");
        }
        let goal = self.goal_for(shape)?;
        let table = Arc::new(find_or_build(&goal)?);
        self.by_shape.insert(shape, table.clone());
        Ok(table)
    }
}

fn open_table(path: &Path) -> Result<Table<Bytes>> {
    let table = Table::open_path(path).with_context(|| format!("table {}", path.display()))?;
    if table.as_bytes().len() <= VERIFY_ON_OPEN {
        table
            .verify()
            .with_context(|| format!("table {}", path.display()))?;
    }
    // Re-wrap the map so mapped and built tables are one type.
    let map = table.into_inner();
    Ok(Table::new(Bytes::Mapped(map)).expect("already checked"))
}

/// The table for `goal` from the data folder; built and saved there if
/// missing and small.
fn find_or_build(goal: &Board) -> Result<Table<Bytes>> {
    let path = data_dir().join(default_file_name(goal));
    if path.exists() {
        return open_table(&path);
    }
    let shape = goal.shape();
    if shape.cells() > slidedb::MAX_TABLE_CELLS {
        bail!(
            "no full table can be built for {shape}: full tables go up to {} cells",
            slidedb::MAX_TABLE_CELLS
        );
    }
    if shape.cells() > AUTO_BUILD_CELLS {
        bail!(
            "no table for {shape} goal {goal} at {}: build it with\n    slidedb-gen --size {shape} --goal \"{goal}\" --out {}",
            path.display(),
            path.display()
        );
    }
    let table = generate(goal, |_| {})?;
    let saved = std::fs::create_dir_all(data_dir())
        .and_then(|()| write_atomic(&path, table.as_bytes(), false));
    match saved {
        Ok(()) => say!(
            "slidedb: built the {shape} table for goal {goal} and saved it to {}",
            path.display()
        ),
        Err(e) => say!(
            "slidedb: built the {shape} table for goal {goal} in memory (could not save it to {}: {e})",
            path.display()
        ),
    }
    Ok(Table::new(Bytes::Owned(table.into_inner())).expect("just built"))
}

/// What became of one input line.
enum Answer {
    Solved {
        board: Board,
        goal: Board,
        moves: Vec<Move>,
    },
    Unsolvable {
        board: Board,
        goal: Board,
    },
    Invalid {
        error: String,
    },
}

#[derive(Serialize)]
struct JsonAnswer<'a> {
    board: String,
    goal: String,
    solvable: bool,
    distance: Option<usize>,
    moves: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonInvalid<'a> {
    line: usize,
    input: &'a str,
    error: &'a str,
}

/// Exit-code bookkeeping over all lines.
#[derive(Default)]
struct Tally {
    invalid: bool,
    unsolvable: bool,
}

impl Tally {
    fn code(&self) -> u8 {
        if self.invalid {
            2
        } else if self.unsolvable {
            1
        } else {
            0
        }
    }
}

/// Lines per parallel task.
const LINES_PER_TASK: usize = 2048;

fn solve(args: &SolveArgs) -> Result<u8> {
    let mut tables = Tables::new(&args.choice)?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut tally = Tally::default();
    if args.boards.is_empty() {
        answer_stdin(args, &mut tables, &mut out, &mut tally)?;
    }
    let mut number = 0;
    for text in &args.boards {
        if text == "-" {
            answer_stdin(args, &mut tables, &mut out, &mut tally)?;
            continue;
        }
        number += 1;
        let label = format!("board {number}");
        answer_lines(
            args,
            &mut tables,
            &[Line {
                bytes: text.as_bytes(),
                too_long: false,
            }],
            &label,
            number,
            &mut out,
            &mut tally,
        )?;
    }
    out.flush()?;
    Ok(tally.code())
}

/// The longest line read from stdin; a longer one is `invalid`.
const MAX_LINE: usize = 64 * 1024;
/// How much of an over-long line is kept, to show in messages.
const PREVIEW: usize = 64;

/// One input line: its bytes (a prefix, if it was too long).
#[derive(Clone, Copy)]
struct Line<'a> {
    bytes: &'a [u8],
    too_long: bool,
}

/// Answers stdin line by line, in blocks as they arrive: whatever complete
/// lines a read brings are answered and flushed at once, so a slow producer
/// still sees each answer promptly and a fast one gets full parallelism.
/// Memory stays bounded: a line past [`MAX_LINE`] keeps only a preview.
fn answer_stdin(
    args: &SolveArgs,
    tables: &mut Tables,
    out: &mut impl Write,
    tally: &mut Tally,
) -> Result<()> {
    let mut stdin = io::stdin().lock();
    if stdin.is_terminal() {
        say!("slidedb: reading boards from stdin, one per line (Ctrl-D to end)");
    }
    let mut block = vec![0u8; 1 << 20];
    // The complete lines of this batch, then the partial line from `start`.
    let mut text: Vec<u8> = Vec::new();
    let mut lines: Vec<(usize, usize, bool)> = Vec::new();
    let mut start = 0;
    let mut too_long = false;
    let mut number = 1;
    loop {
        let read = match stdin.read(&mut block) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("cannot read stdin"),
        };
        let mut rest = &block[..read];
        loop {
            let newline = rest.iter().position(|&b| b == b'\n');
            let piece = &rest[..newline.unwrap_or(rest.len())];
            if !too_long {
                let have = text.len() - start;
                if have + piece.len() > MAX_LINE {
                    too_long = true;
                    text.truncate(start + have.min(PREVIEW));
                    let room = PREVIEW.saturating_sub(have);
                    text.extend_from_slice(&piece[..room.min(piece.len())]);
                } else {
                    text.extend_from_slice(piece);
                }
            }
            let Some(at) = newline else { break };
            lines.push((start, text.len(), too_long));
            start = text.len();
            too_long = false;
            rest = &rest[at + 1..];
        }
        let eof = read == 0;
        if eof && (text.len() > start || too_long) {
            lines.push((start, text.len(), too_long)); // no final newline
            start = text.len();
        }
        if !lines.is_empty() {
            let batch: Vec<Line> = lines
                .iter()
                .map(|&(a, b, too_long)| Line {
                    bytes: &text[a..b],
                    too_long,
                })
                .collect();
            answer_lines(args, tables, &batch, "line", number, out, tally)?;
            number += lines.len();
            lines.clear();
            text.drain(..start);
            start = 0;
            out.flush()?;
        }
        if eof {
            return Ok(());
        }
    }
}

/// Answers a run of lines in parallel and writes one output line each, in
/// order. `label` names the input in messages: `line` is followed by the
/// line number; anything else is used as it is.
fn answer_lines(
    args: &SolveArgs,
    tables: &mut Tables,
    lines: &[Line],
    label: &str,
    first_number: usize,
    out: &mut impl Write,
    tally: &mut Tally,
) -> Result<()> {
    let size = tables.size;
    let parsed: Vec<Result<Board, String>> = lines
        .par_iter()
        .with_min_len(LINES_PER_TASK)
        .map(|line| parse_line(line, size))
        .collect();
    // Load each needed table once, before the parallel solve.
    let mut shapes: Vec<Shape> = parsed
        .iter()
        .filter_map(|p| p.as_ref().ok().map(|b| b.shape()))
        .collect();
    shapes.sort_unstable();
    shapes.dedup();
    let mut ready: HashMap<Shape, Result<Arc<Table<Bytes>>, String>> = HashMap::new();
    for shape in shapes {
        // A board whose table is missing is an error of its line: the
        // other lines are still answered.
        ready.insert(shape, tables.get(shape).map_err(|e| format!("{e:#}")));
    }
    let rendered: Vec<(String, Option<String>, Tally)> = parsed
        .par_chunks(LINES_PER_TASK)
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let mut text = String::with_capacity(chunk.len() * 32);
            let mut errors = String::new();
            let mut tally = Tally::default();
            for (offset, parsed) in chunk.iter().enumerate() {
                let i = chunk_index * LINES_PER_TASK + offset;
                let answer = match parsed {
                    Err(e) => Answer::Invalid { error: e.clone() },
                    Ok(board) => match &ready[&board.shape()] {
                        Err(e) => Answer::Invalid { error: e.clone() },
                        Ok(table) => answer_board(table, board),
                    },
                };
                let number = first_number + i;
                let input = String::from_utf8_lossy(lines[i].bytes);
                if let Answer::Invalid { error } = &answer {
                    let name = if label == "line" {
                        format!("line {number}")
                    } else {
                        label.to_string()
                    };
                    errors.push_str(&format!("slidedb: {name}: {error}\n"));
                }
                render(
                    args,
                    &answer,
                    number,
                    input.trim_end_matches('\r'),
                    &mut text,
                    &mut tally,
                );
            }
            (text, (!errors.is_empty()).then_some(errors), tally)
        })
        .collect();
    for (text, errors, part) in rendered {
        if let Some(errors) = errors {
            let _ = io::stderr().lock().write_all(errors.as_bytes());
        }
        out.write_all(text.as_bytes())?;
        tally.invalid |= part.invalid;
        tally.unsolvable |= part.unsolvable;
    }
    Ok(())
}

fn parse_line(line: &Line, size: Option<Shape>) -> Result<Board, String> {
    if line.too_long || line.bytes.len() > MAX_LINE {
        return Err(format!("the line is longer than {MAX_LINE} bytes"));
    }
    let line = line.bytes;
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|_| "the line is not UTF-8 text".to_string())?;
    if text.contains('\0') {
        return Err("the line holds a NUL byte".to_string());
    }
    Board::parse(text, size).map_err(|e| e.to_string())
}

fn answer_board(table: &Table<Bytes>, board: &Board) -> Answer {
    let mut moves = Vec::with_capacity(table.max_distance() as usize);
    match table.solve_into(board, &mut moves) {
        Ok(true) => Answer::Solved {
            board: *board,
            goal: *table.goal(),
            moves,
        },
        Ok(false) => Answer::Unsolvable {
            board: *board,
            goal: *table.goal(),
        },
        Err(e) => Answer::Invalid {
            error: e.to_string(),
        },
    }
}

fn render(
    args: &SolveArgs,
    answer: &Answer,
    number: usize,
    input: &str,
    out: &mut String,
    tally: &mut Tally,
) {
    use std::fmt::Write as _;
    match answer {
        Answer::Invalid { error } => {
            tally.invalid = true;
            if args.json {
                let j = JsonInvalid {
                    line: number,
                    input,
                    error,
                };
                let _ = writeln!(out, "{}", serde_json::to_string(&j).expect("json"));
            } else {
                out.push_str("invalid\n");
            }
        }
        Answer::Unsolvable { board, goal } => {
            tally.unsolvable = true;
            if args.json {
                let j = JsonAnswer {
                    board: board.to_string(),
                    goal: goal.to_string(),
                    solvable: false,
                    distance: None,
                    moves: None,
                };
                let _ = writeln!(out, "{}", serde_json::to_string(&j).expect("json"));
            } else {
                out.push_str("unsolvable\n");
            }
        }
        Answer::Solved { board, goal, moves } => {
            let letters: String = moves.iter().map(|m| m.letter()).collect();
            if args.json {
                let j = JsonAnswer {
                    board: board.to_string(),
                    goal: goal.to_string(),
                    solvable: true,
                    distance: Some(moves.len()),
                    moves: Some(&letters),
                };
                let _ = writeln!(out, "{}", serde_json::to_string(&j).expect("json"));
            } else {
                out.push_str(&letters);
                out.push('\n');
                if args.steps {
                    let mut here = *board;
                    let _ = write!(out, "\nstep 0 of {}\n{}", moves.len(), here.grid());
                    for (i, &mv) in moves.iter().enumerate() {
                        here = here.apply(mv).expect("the table's moves stay on the board");
                        let _ = write!(
                            out,
                            "\nstep {} of {}: {}\n{}",
                            i + 1,
                            moves.len(),
                            mv.letter(),
                            here.grid()
                        );
                    }
                    out.push('\n');
                }
            }
        }
    }
}

#[derive(Serialize)]
struct JsonStats {
    size: String,
    goal: String,
    states: u64,
    max_distance: u32,
    mean_distance: f64,
    layers: Vec<u64>,
    hardest: Vec<String>,
    generator: String,
}

fn stats(args: &StatsArgs) -> Result<u8> {
    let mut tables = Tables::new(&args.choice)?;
    let shape = match (tables.size, tables.goal) {
        (Some(s), _) => s,
        (None, Some(g)) => g.shape(),
        (None, None) => Shape::EIGHT,
    };
    let table = tables.get(shape)?;
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        let j = JsonStats {
            size: table.shape().to_string(),
            goal: table.goal().to_string(),
            states: table.states(),
            max_distance: table.max_distance(),
            mean_distance: (table.mean_distance() * 1e4).round() / 1e4,
            layers: table.layers().to_vec(),
            hardest: table.hardest().iter().map(|b| b.to_string()).collect(),
            generator: table.generator().to_string(),
        };
        writeln!(out, "{}", serde_json::to_string(&j)?)?;
    } else {
        writeln!(out, "size          {}", table.shape())?;
        writeln!(out, "goal          {}", table.goal())?;
        writeln!(out, "states        {}", table.states())?;
        writeln!(out, "max distance  {}", table.max_distance())?;
        writeln!(out, "mean distance {:.4}", table.mean_distance())?;
        writeln!(out, "generator     {}", table.generator())?;
        writeln!(out, "distance  states")?;
        let widest = table.layers().iter().copied().max().unwrap_or(1);
        for (d, &count) in table.layers().iter().enumerate() {
            let bar = ((count as f64 / widest as f64) * 50.0).ceil() as usize;
            writeln!(out, "{d:>8}  {count:>12}  {}", "#".repeat(bar))?;
        }
        let hardest = table.hardest();
        writeln!(
            out,
            "hardest ({} states at distance {}{}):",
            table.layers().last().copied().unwrap_or(0),
            table.max_distance(),
            if (hardest.len() as u64) < table.layers().last().copied().unwrap_or(0) {
                format!(", first {} listed", hardest.len())
            } else {
                String::new()
            }
        )?;
        for b in hardest {
            writeln!(out, "  {b}")?;
        }
    }
    out.flush()?;
    Ok(0)
}
