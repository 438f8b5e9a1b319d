//! `slidedb solve`: one output line per board.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Read, Write};

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use rayon::prelude::*;
use serde::Serialize;
use slidedb::{Algorithm, Board, Engine, Heuristic, Method, Move, Shape};

use crate::data::{Data, DataArgs};

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
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicArg::Manhattan => "manhattan",
            HeuristicArg::LinearConflict => "linear-conflict",
            HeuristicArg::Pdb => "pdb",
        }
    }

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
    data: DataArgs,
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
    /// After the moves, print every board along the way (as grids; with
    /// --json, as a list of boards in the object, `steps`).
    #[arg(long)]
    steps: bool,
    /// How to answer: the table, or a search (same output).
    #[arg(long, value_enum, default_value_t = Algo::Table)]
    algo: Algo,
    /// The estimate used by astar and idastar [default: manhattan]; no
    /// other answer takes one.
    #[arg(long, value_enum)]
    heuristic: Option<HeuristicArg>,
}

/// The library's method for an algorithm and heuristic of the command
/// line. A heuristic that nothing would use is refused, not ignored.
pub fn method(algo: Algo, heuristic: Option<HeuristicArg>) -> Result<Method> {
    Ok(match (algo.search(), heuristic) {
        (None, None) => Method::Exact,
        (None, Some(h)) => anyhow::bail!(
            "--heuristic {} is for --algo astar and idastar; the table takes none",
            h.name()
        ),
        (Some(a @ (Algorithm::AStar | Algorithm::IdaStar)), Some(HeuristicArg::Pdb)) => {
            Method::PatternSearch(a)
        }
        (Some(a @ (Algorithm::AStar | Algorithm::IdaStar)), h) => {
            Method::Search(a, h.unwrap_or_default().plain().unwrap_or_default())
        }
        (Some(a), None) => Method::Search(a, Heuristic::Manhattan),
        (Some(a), Some(h)) => anyhow::bail!(
            "--heuristic {} is for --algo astar and idastar; {a} takes none",
            h.name()
        ),
    })
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
    /// With --steps: the boards along the way, the board first.
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<String>>,
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

/// What a run keeps between batches of lines.
struct Run<'a> {
    args: &'a SolveArgs,
    data: Data,
    method: Method,
    /// The engine of each board size met so far.
    engines: HashMap<Shape, Engine>,
}

pub fn run(args: &SolveArgs) -> Result<u8> {
    let method = method(args.algo, args.heuristic)?;
    let mut run = Run {
        args,
        data: args.data.open(true)?,
        method,
        engines: HashMap::new(),
    };
    let mut out = crate::output();
    let mut tally = Tally::default();
    if args.boards.is_empty() {
        answer_stdin(&mut run, &mut out, &mut tally)?;
    }
    let mut number = 0;
    for text in &args.boards {
        if text == "-" {
            answer_stdin(&mut run, &mut out, &mut tally)?;
            continue;
        }
        number += 1;
        let label = format!("board {number}");
        answer_lines(
            &mut run,
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
fn answer_stdin(run: &mut Run, out: &mut impl Write, tally: &mut Tally) -> Result<()> {
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
            answer_lines(run, &batch, "line", number, out, tally)?;
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
///
/// A line that is not a board (or not of the goal's size) is `invalid`,
/// and the rest are answered. When the table or databases a board needs
/// cannot be had (missing and too big to build, damaged, of another goal),
/// or turn out damaged while answering it, the run stops there: the lines
/// before it are answered, and the error is returned, naming the line.
fn answer_lines(
    run: &mut Run,
    lines: &[Line],
    label: &str,
    first_number: usize,
    out: &mut impl Write,
    tally: &mut Tally,
) -> Result<()> {
    let size = run.data.size;
    let parsed: Vec<Result<Board, String>> = lines
        .par_iter()
        .with_min_len(LINES_PER_TASK)
        .map(|line| parse_line(line, size))
        .collect();
    let name = |number: usize| {
        if label == "line" {
            format!("line {number}")
        } else {
            label.to_string()
        }
    };
    // Resolve each size's engine once, before the parallel solve.
    let mut misfit: HashMap<Shape, String> = HashMap::new();
    let mut stop: Option<(usize, anyhow::Error)> = None;
    for (i, p) in parsed.iter().enumerate() {
        let Ok(board) = p else { continue };
        let shape = board.shape();
        if run.engines.contains_key(&shape) || misfit.contains_key(&shape) {
            continue;
        }
        match run.data.goal_for(shape) {
            Err(e) => {
                misfit.insert(shape, format!("{e:#}"));
            }
            Ok(_) => match run.data.engine(shape, run.method) {
                Ok(engine) => {
                    warn_of_memory(&engine, run.data.db.search_memory());
                    run.engines.insert(shape, engine);
                }
                Err(e) => {
                    stop = Some((i, e));
                    break;
                }
            },
        }
    }
    let count = stop.as_ref().map_or(parsed.len(), |(i, _)| *i);
    let parsed = &parsed[..count];
    // Table lookups take microseconds: thousands of lines a task. A
    // search can take seconds: one line a task, so both cores work.
    let per_task = if run.engines.values().all(Engine::is_lookup) {
        LINES_PER_TASK
    } else {
        1
    };
    let (args, engines) = (run.args, &run.engines);
    let rendered: Vec<Rendered> = parsed
        .par_chunks(per_task)
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let mut done = Rendered {
                text: String::with_capacity(chunk.len() * 32),
                errors: String::new(),
                tally: Tally::default(),
                fatal: None,
            };
            // One moves buffer per task: no allocation per line.
            let mut moves = Vec::with_capacity(128);
            for (offset, parsed) in chunk.iter().enumerate() {
                let i = chunk_index * per_task + offset;
                let number = first_number + i;
                let answer = match parsed {
                    Err(e) => Answer::Invalid { error: e.clone() },
                    Ok(board) => match engines.get(&board.shape()) {
                        None => Answer::Invalid {
                            error: misfit[&board.shape()].clone(),
                        },
                        Some(engine) => match answer_board(engine, board, &mut moves) {
                            Ok(answer) => answer,
                            Err(e) => {
                                done.fatal = Some(format!("{}: {e}", name(number)));
                                break;
                            }
                        },
                    },
                };
                let input = String::from_utf8_lossy(lines[i].bytes);
                if let Answer::Invalid { error } = &answer {
                    done.errors
                        .push_str(&format!("slidedb: {}: {error}\n", name(number)));
                }
                render(
                    args,
                    &answer,
                    number,
                    input.trim_end_matches('\r'),
                    &mut done.text,
                    &mut done.tally,
                );
            }
            done
        })
        .collect();
    for part in rendered {
        if !part.errors.is_empty() {
            let _ = io::stderr().lock().write_all(part.errors.as_bytes());
        }
        out.write_all(part.text.as_bytes())?;
        tally.invalid |= part.tally.invalid;
        tally.unsolvable |= part.tally.unsolvable;
        if let Some(fatal) = part.fatal {
            out.flush()?;
            anyhow::bail!("{fatal}");
        }
    }
    if let Some((i, e)) = stop {
        out.flush()?;
        return Err(e.context(name(first_number + i)));
    }
    Ok(())
}

/// One task's lines, rendered.
struct Rendered {
    text: String,
    /// Messages for its invalid lines.
    errors: String,
    tally: Tally,
    /// The error that stopped it (its text holds the lines before).
    fatal: Option<String>,
}

/// Warns, once per engine, when its search can need more memory than it
/// may use: it then stops there with an error for the boards that would.
fn warn_of_memory(engine: &Engine, budget: u64) {
    let Some((algorithm, _)) = engine.search() else {
        return;
    };
    let shape = engine.goal().shape();
    let needed = slidedb::Solver::new(engine.goal()).memory_needed(algorithm);
    if needed > budget {
        say!(
            "slidedb: {algorithm} can remember all {} boards of {shape} ({}), more than the {} a search may use here (--search-memory): a board that needs more is an error",
            shape.states(),
            crate::data::bytes(needed),
            crate::data::bytes(budget)
        );
    }
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

fn answer_board<'a>(
    engine: &Engine,
    board: &Board,
    moves: &'a mut Vec<Move>,
) -> Result<Answer<'a>, slidedb::SolveError> {
    moves.clear();
    let goal = *engine.goal();
    Ok(if engine.solve_into(board, moves)? {
        Answer::Solved {
            board: *board,
            goal,
            moves,
        }
    } else {
        Answer::Unsolvable {
            board: *board,
            goal,
        }
    })
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
                    steps: None,
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
                    steps: args.steps.then(|| {
                        let mut here = *board;
                        std::iter::once(here.to_string())
                            .chain(moves.iter().map(|&mv| {
                                here = here.apply(mv).expect("the moves stay on the board");
                                here.to_string()
                            }))
                            .collect()
                    }),
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
