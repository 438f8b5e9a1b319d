//! Prints random solvable boards, one per line, for feeding `slidedb solve`.
//!
//! ```text
//! cargo run --release --example random_boards -- COUNT [SEED] [--size RxC]
//! ```
//!
//! Each line is the cells in reading order separated by spaces, `0` for the
//! blank, such as `2 3 4 1 5 0 7 6 8`. Every board can reach the default
//! goal (tiles in order, blank last): a uniform shuffle of the cells, with
//! two tiles swapped when it lands on the other parity, which is uniform
//! over the reachable boards. The same COUNT, SEED and size print the same
//! lines (`slidedb::random`: splitmix64; the default seed is 1).

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use slidedb::random::{SplitMix64, random_board};
use slidedb::{Board, MAX_CELLS, Shape};

const USAGE: &str = "usage: random_boards COUNT [SEED] [--size RxC]";

struct Options {
    count: u64,
    seed: u64,
    shape: Shape,
}

fn parse_args() -> Result<Options, String> {
    let mut positional = Vec::new();
    let mut shape = Shape::EIGHT;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--size" {
            let value = args.next().ok_or("--size needs a value such as 3x3")?;
            shape = value.parse().map_err(|e| format!("--size {value}: {e}"))?;
        } else if let Some(value) = arg.strip_prefix("--size=") {
            shape = value.parse().map_err(|e| format!("--size {value}: {e}"))?;
        } else if arg == "-h" || arg == "--help" {
            return Err(String::new());
        } else if arg.starts_with("--") {
            return Err(format!("unknown option {arg}"));
        } else {
            positional.push(arg);
        }
    }
    let number = |name: &str, text: &str| {
        text.replace('_', "")
            .parse::<u64>()
            .map_err(|_| format!("{name} must be a whole number, not {text:?}"))
    };
    let (count, seed) = match positional.as_slice() {
        [count] => (number("COUNT", count)?, 1),
        [count, seed] => (number("COUNT", count)?, number("SEED", seed)?),
        [] => return Err("COUNT is missing".to_string()),
        _ => return Err("too many arguments".to_string()),
    };
    Ok(Options { count, seed, shape })
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("random_boards: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("random_boards: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(options: &Options) -> io::Result<()> {
    let shape = options.shape;
    let goal = Board::solved(shape);
    let mut rng = SplitMix64::new(options.seed);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut line = Vec::with_capacity(3 * MAX_CELLS);
    for _ in 0..options.count {
        let board = random_board(&goal, &mut rng);
        line.clear();
        for (i, t) in board.tiles().enumerate() {
            if i > 0 {
                line.push(b' ');
            }
            if t >= 10 {
                line.push(b'1');
            }
            line.push(b'0' + t % 10);
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    out.flush()
}
