//! Boards in, one answer line each out: what `solve`, `probe` and `count`
//! share. Boards come from the arguments, or from stdin one per line (when
//! there are none, or one is `-`); each line is answered in order, in
//! parallel, and written as soon as its block is done.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Read, Write};

use anyhow::{Context, Result};
use rayon::prelude::*;
use slidedb::records::InvalidRecord;
use slidedb::request::{self, MAX_LINE, PREVIEW};
use slidedb::{Board, Move, Shape, SolveError};

use crate::data::{OpenDatabase, name_options};

/// One kind of question asked of every board.
pub trait Query: Sync {
    /// What answers the boards of one size.
    type Answerer: Send + Sync;

    /// Resolves what answers boards of `shape` (once per size met).
    fn answerer(&self, data: &OpenDatabase, shape: Shape) -> Result<Self::Answerer>;

    /// Whether it answers in microseconds (thousands of lines a task), not
    /// by a search (one line a task, so that both cores work).
    fn is_lookup(&self, answerer: &Self::Answerer) -> bool;

    /// Writes the answer for `board` (its line, and any lines after it) to
    /// `out`, and returns whether the board can reach the goal. `moves` is
    /// scratch space kept between boards.
    fn answer(
        &self,
        answerer: &Self::Answerer,
        board: &Board,
        moves: &mut Vec<Move>,
        out: &mut String,
    ) -> Result<bool, SolveError>;

    /// Whether answers are JSON records (then so are invalid lines).
    fn json(&self) -> bool;
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

/// What a run keeps between blocks of lines.
struct Run<'a, Q: Query> {
    query: &'a Q,
    data: OpenDatabase,
    /// What answers each board size met so far.
    answerers: HashMap<Shape, Q::Answerer>,
}

/// Answers every board of `boards` (stdin when empty, and where one is
/// `-`); returns the exit status.
pub fn run<Q: Query>(query: &Q, boards: &[String], data: OpenDatabase) -> Result<u8> {
    let mut run = Run {
        query,
        data,
        answerers: HashMap::new(),
    };
    let mut out = crate::output();
    let mut tally = Tally::default();
    if boards.is_empty() {
        answer_stdin(&mut run, &mut out, &mut tally)?;
    }
    let mut number = 0;
    for text in boards {
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
fn answer_stdin<Q: Query>(run: &mut Run<Q>, out: &mut impl Write, tally: &mut Tally) -> Result<()> {
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

/// Answers a run of lines in parallel and writes each one's answer, in
/// order. `label` names the input in messages: `line` is followed by the
/// line number; anything else is used as it is.
///
/// A line that is not a board (or not of the goal's size) is `invalid`,
/// and the rest are answered. When what a board needs cannot be had
/// (missing and too big to build, damaged, of another goal), or turns out
/// damaged while answering it, the run stops there: the lines before it
/// are answered, and the error is returned, naming the line.
fn answer_lines<Q: Query>(
    run: &mut Run<Q>,
    lines: &[Line],
    label: &str,
    first_number: usize,
    out: &mut impl Write,
    tally: &mut Tally,
) -> Result<()> {
    let size = run.data.size;
    // One task's worth of lines (a board given as an argument) is read
    // here: handing it to the pool would cost more than reading it.
    let parsed: Vec<Result<Board, String>> = if lines.len() <= LINES_PER_TASK {
        lines.iter().map(|line| parse_line(line, size)).collect()
    } else {
        lines
            .par_iter()
            .with_min_len(LINES_PER_TASK)
            .map(|line| parse_line(line, size))
            .collect()
    };
    let name = |number: usize| {
        if label == "line" {
            format!("line {number}")
        } else {
            label.to_string()
        }
    };
    // Resolve each size's answerer once, before the parallel answers.
    let mut misfit: HashMap<Shape, String> = HashMap::new();
    let mut stop: Option<(usize, anyhow::Error)> = None;
    let mut last = None;
    for (i, p) in parsed.iter().enumerate() {
        let Ok(board) = p else { continue };
        let shape = board.shape();
        if last == Some(shape) {
            continue; // resolved just before: no lookup
        }
        last = Some(shape);
        if run.answerers.contains_key(&shape) || misfit.contains_key(&shape) {
            continue;
        }
        match run.data.goal_for(shape) {
            Err(e) => {
                misfit.insert(shape, format!("{e:#}"));
            }
            Ok(_) => match run.query.answerer(&run.data, shape) {
                Ok(answerer) => {
                    run.answerers.insert(shape, answerer);
                }
                Err(e) => {
                    stop = Some((i, e.context(name(first_number + i))));
                    break;
                }
            },
        }
    }
    let count = stop.as_ref().map_or(parsed.len(), |(i, _)| *i);
    let parsed = &parsed[..count];
    let query = run.query;
    let answerers = &run.answerers;
    let per_task = if answerers.values().all(|a| query.is_lookup(a)) {
        LINES_PER_TASK
    } else {
        1
    };
    let render = |(chunk_index, chunk): (usize, &[Result<Board, String>])| {
        let mut done = Rendered {
            text: String::with_capacity(chunk.len() * 32),
            errors: String::new(),
            tally: Tally::default(),
            fatal: None,
        };
        // One moves buffer per task: no allocation per line.
        let mut moves = Vec::with_capacity(128);
        // The last board's size and answerer: a batch is mostly of one
        // size, so most boards look up none.
        let mut last: Option<(Shape, &Q::Answerer)> = None;
        for (offset, parsed) in chunk.iter().enumerate() {
            let i = chunk_index * per_task + offset;
            let number = first_number + i;
            let error = match parsed {
                Err(e) => e.clone(),
                Ok(board) => match last
                    .filter(|&(shape, _)| shape == board.shape())
                    .map(|(_, answerer)| answerer)
                    .or_else(|| {
                        let found = answerers.get(&board.shape());
                        last = found.map(|answerer| (board.shape(), answerer));
                        found
                    }) {
                    None => misfit[&board.shape()].clone(),
                    Some(answerer) => {
                        let mark = done.text.len();
                        match query.answer(answerer, board, &mut moves, &mut done.text) {
                            Ok(solvable) => {
                                done.tally.unsolvable |= !solvable;
                                continue;
                            }
                            Err(e) => {
                                done.text.truncate(mark);
                                done.fatal = Some(format!("{}: {e}", name(number)));
                                break;
                            }
                        }
                    }
                },
            };
            let input = request::echo(lines[i].bytes);
            done.errors.push_str(&format!(
                "slidedb: {}: {}\n",
                name(number),
                name_options(&error)
            ));
            done.tally.invalid = true;
            if query.json() {
                let record = InvalidRecord {
                    line: number,
                    input,
                    error,
                };
                done.text
                    .push_str(&serde_json::to_string(&record).expect("json"));
                done.text.push('\n');
            } else {
                done.text.push_str("invalid\n");
            }
        }
        done
    };
    // One task is answered here (a board given as an argument: no thread
    // to start, nothing to overlap).
    if parsed.len() <= per_task {
        if !parsed.is_empty() {
            write_part(render((0, parsed)), out, tally)?;
        }
        return stopped(stop, out);
    }
    // More tasks render on a thread of their own (into the pool), and each
    // is written here as soon as those before it are: the output of one
    // task is written while the next ones are answered, not after all.
    let mut waiting: Vec<Option<Rendered>> = Vec::new();
    waiting.resize_with(parsed.len().div_ceil(per_task), || None);
    let mut next = 0;
    let mut failure = None;
    std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::channel();
        scope.spawn(move || {
            parsed
                .par_chunks(per_task)
                .enumerate()
                .for_each_with(sender, |sender, task| {
                    // The receiver goes only when the scope ends.
                    let _ = sender.send((task.0, render(task)));
                });
        });
        for (index, part) in receiver {
            waiting[index] = Some(part);
            while let Some(part) = waiting.get_mut(next).and_then(Option::take) {
                next += 1;
                // After a failure the rest is only waited for.
                if failure.is_none() {
                    failure = write_part(part, out, tally).err();
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    stopped(stop, out)
}

/// The error that stopped a run of lines (named by its line), if one
/// did, after the lines before it are flushed.
fn stopped(stop: Option<(usize, anyhow::Error)>, out: &mut impl Write) -> Result<()> {
    match stop {
        Some((_, e)) => {
            out.flush()?;
            Err(e)
        }
        None => Ok(()),
    }
}

/// Writes one task's answers, and its messages to stderr; its fatal
/// error, if it has one, after the lines before it.
fn write_part(part: Rendered, out: &mut impl Write, tally: &mut Tally) -> Result<()> {
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

/// A line as the library reads a line of a batch.
fn parse_line(line: &Line, size: Option<Shape>) -> Result<Board, String> {
    request::read_line(line.bytes, line.too_long, size).map_err(|e| e.to_string())
}
