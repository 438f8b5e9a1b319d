//! `slidedb solve`: one output line per board.

use std::collections::HashMap;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;
use slidedb::{Algorithm, Board, Heuristic, Move, Shape, Solver};

use crate::tables::{GoalPatterns, GoalTable, TableChoice, Tables};

/// How `solve` answers: from the table, or by a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    /// Greedy descent on the distance table (optimal, microseconds); for
    /// boards over 12 cells, IDA* over pattern databases (optimal).
    Table,
    /// A* (optimal).
    Astar,
    /// IDA* (optimal, memory for one path).
    Idastar,
    /// Breadth-first search (optimal, remembers every state).
    Bfs,
    /// Depth-first search (a path, usually far from optimal).
    Dfs,
    /// Iterative-deepening depth-first search (optimal, slow).
    Iddfs,
}

impl Algo {
    /// The library's algorithm, or `None` for the table.
    pub fn search(self) -> Option<Algorithm> {
        match self {
            Algo::Table => None,
            Algo::Astar => Some(Algorithm::AStar),
            Algo::Idastar => Some(Algorithm::IdaStar),
            Algo::Bfs => Some(Algorithm::Bfs),
            Algo::Dfs => Some(Algorithm::Dfs),
            Algo::Iddfs => Some(Algorithm::Iddfs),
        }
    }
}

/// The estimate A* and IDA* use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum HeuristicArg {
    /// Manhattan distance.
    #[default]
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Additive pattern databases (see --pdb), and for IDA* their mirror.
    Pdb,
}

impl HeuristicArg {
    /// The library's heuristic, or `None` for pattern databases.
    pub fn plain(self) -> Option<Heuristic> {
        match self {
            HeuristicArg::Manhattan => Some(Heuristic::Manhattan),
            HeuristicArg::LinearConflict => Some(Heuristic::LinearConflict),
            HeuristicArg::Pdb => None,
        }
    }
}

#[derive(ClapArgs)]
pub struct SolveArgs {
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
    /// How to answer: the table, or a search (same output).
    #[arg(long, value_enum, default_value_t = Algo::Table)]
    algo: Algo,
    /// The estimate used by astar and idastar.
    #[arg(long, value_enum, default_value_t = HeuristicArg::Manhattan)]
    heuristic: HeuristicArg,
}

/// What answers the boards of one shape.
enum Engine {
    Table(GoalTable),
    Search(Arc<Solver>, Algorithm, Heuristic),
    /// IDA* over pattern databases, or A* with their sum.
    Patterns(GoalPatterns, Algorithm, Arc<Solver>),
}

impl Engine {
    /// The engine for boards of `shape`, as the options ask.
    fn for_shape(args: &SolveArgs, tables: &mut Tables, shape: Shape) -> Result<Engine> {
        let goal = tables.goal_for(shape)?;
        let search = |algorithm, heuristic| {
            Engine::Search(Arc::new(Solver::new(&goal)), algorithm, heuristic)
        };
        match (args.algo.search(), args.heuristic.plain()) {
            (None, _)
                if shape.cells() > slidedb::MAX_TABLE_CELLS || tables.named_patterns(shape) =>
            {
                match tables.patterns(shape)? {
                    Some(p) => Ok(Engine::Patterns(
                        p,
                        Algorithm::IdaStar,
                        Arc::new(Solver::new(&goal)),
                    )),
                    None => {
                        tables.hint_once(
                            shape,
                            format!(
                                "slidedb: no pattern databases for {shape} goal {goal} in {}: solving by IDA* with Manhattan distance, which can take minutes a board; build them with\n    slidedb-gen --size {shape} --goal \"{goal}\" --pdb {}\n{}",
                                slidedb::data_dir().display(),
                                suggested_sizes(shape),
                                if shape.cells() == 16 {
                                    "(seconds and 12 MB; --pdb 7-8 is the strongest: about 4 minutes, 1.6 GB of memory and a 577 MB file)"
                                } else {
                                    "(other group sizes of up to 8 tiles, adding up to the tiles, also work)"
                                }
                            ),
                        );
                        Ok(search(Algorithm::IdaStar, Heuristic::Manhattan))
                    }
                }
            }
            (None, _) => Ok(Engine::Table(tables.get(shape)?)),
            (Some(algorithm @ (Algorithm::AStar | Algorithm::IdaStar)), None) => {
                match tables.patterns(shape)? {
                    Some(p) => Ok(Engine::Patterns(p, algorithm, Arc::new(Solver::new(&goal)))),
                    None => anyhow::bail!(
                        "no pattern databases for {shape} goal {goal} in {}: build them with slidedb-gen --size {shape} --goal \"{goal}\" --pdb SIZES, or name them with --pdb",
                        slidedb::data_dir().display()
                    ),
                }
            }
            (Some(algorithm), None) => {
                anyhow::bail!("--heuristic pdb is for astar and idastar, not {algorithm}")
            }
            (Some(algorithm), Some(heuristic)) => Ok(search(algorithm, heuristic)),
        }
    }
}

/// Group sizes to suggest for `shape`'s pattern databases: groups of six
/// and the rest (6-6-3 on 4x4).
fn suggested_sizes(shape: Shape) -> String {
    let tiles = shape.cells() - 1;
    let mut sizes: Vec<String> = vec!["6".to_string(); tiles / 6];
    if !tiles.is_multiple_of(6) {
        sizes.push((tiles % 6).to_string());
    }
    sizes.join("-")
}

/// What became of one input line.
enum Answer<'a> {
    Solved {
        board: Board,
        goal: Board,
        moves: &'a [Move],
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

pub fn run(args: &SolveArgs) -> Result<u8> {
    if args.heuristic == HeuristicArg::Pdb
        && !matches!(args.algo, Algo::Table | Algo::Astar | Algo::Idastar)
    {
        anyhow::bail!(
            "--heuristic pdb is for --algo astar and idastar, not {}",
            args.algo.search().map_or("table", |a| a.name())
        );
    }
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
    let mut ready: HashMap<Shape, Result<Engine, String>> = HashMap::new();
    for shape in shapes {
        // A board whose table is missing is an error of its line: the
        // other lines are still answered.
        let engine = Engine::for_shape(args, tables, shape);
        ready.insert(shape, engine.map_err(|e| format!("{e:#}")));
    }
    // Table lookups take microseconds: thousands of lines a task. A
    // search can take seconds: one line a task, so both cores work.
    let per_task = if ready
        .values()
        .all(|e| matches!(e, Ok(Engine::Table(_)) | Err(_)))
    {
        LINES_PER_TASK
    } else {
        1
    };
    let rendered: Vec<(String, Option<String>, Tally)> = parsed
        .par_chunks(per_task)
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let mut text = String::with_capacity(chunk.len() * 32);
            let mut errors = String::new();
            let mut tally = Tally::default();
            // One moves buffer per task: no allocation per line.
            let mut moves = Vec::with_capacity(128);
            for (offset, parsed) in chunk.iter().enumerate() {
                let i = chunk_index * per_task + offset;
                let answer = match parsed {
                    Err(e) => Answer::Invalid { error: e.clone() },
                    Ok(board) => match &ready[&board.shape()] {
                        Err(e) => Answer::Invalid { error: e.clone() },
                        Ok(engine) => answer_board(engine, board, &mut moves),
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

fn answer_board<'a>(engine: &Engine, board: &Board, moves: &'a mut Vec<Move>) -> Answer<'a> {
    moves.clear();
    let (found, goal) = match engine {
        Engine::Table(table) => (table.solve_into(board, moves), *table.class.goal()),
        Engine::Search(solver, algorithm, heuristic) => {
            let found = solver
                .solve(board, *algorithm, *heuristic)
                .map(|s| match s.moves {
                    Some(m) => {
                        *moves = m;
                        true
                    }
                    None => false,
                });
            (found, *solver.goal())
        }
        Engine::Patterns(patterns, algorithm, solver) => {
            let found = if *algorithm == Algorithm::IdaStar {
                patterns.solve(board)
            } else {
                solver.solve_estimated(board, *algorithm, |b| patterns.estimate(b))
            };
            let found = found.map(|s| match s.moves {
                Some(m) => {
                    *moves = m;
                    true
                }
                None => false,
            });
            (found, *patterns.class.goal())
        }
    };
    match found {
        Ok(true) => Answer::Solved {
            board: *board,
            goal,
            moves,
        },
        Ok(false) => Answer::Unsolvable {
            board: *board,
            goal,
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
            if args.json {
                let letters: String = moves.iter().map(|m| m.letter()).collect();
                let j = JsonAnswer {
                    board: board.to_string(),
                    goal: goal.to_string(),
                    solvable: true,
                    distance: Some(moves.len()),
                    moves: Some(&letters),
                };
                let _ = writeln!(out, "{}", serde_json::to_string(&j).expect("json"));
            } else {
                out.extend(moves.iter().map(|m| m.letter()));
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
