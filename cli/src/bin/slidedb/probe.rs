//! `slidedb probe`: each board's distance and every move's outcome.

use std::fmt::Write as _;

use anyhow::Result;
use clap::Args as ClapArgs;
use slidedb::records::ProbeRecord;
use slidedb::{Board, Engine, Method, Move, Shape, SolveError};

use crate::batch::{self, Query};
use crate::data::{DataArgs, OpenDatabase};

#[derive(ClapArgs)]
pub struct ProbeArgs {
    /// Boards, each one argument, such as "2 3 4 1 5 x 7 6 8" or 123/456/78x.
    #[arg(value_name = "BOARD")]
    boards: Vec<String>,
    #[command(flatten)]
    data: DataArgs,
    /// One JSON object per line: {"board","goal","solvable","distance",
    /// "moves":[{"move","board","distance","optimal"}]}.
    #[arg(long)]
    json: bool,
}

/// `probe` as a batch query.
struct Probe<'a> {
    args: &'a ProbeArgs,
}

pub fn run(args: &ProbeArgs) -> Result<u8> {
    let data = args.data.open(true)?;
    batch::run(&Probe { args }, &args.boards, data)
}

impl Query for Probe<'_> {
    type Answerer = Engine;

    fn answerer(&self, data: &OpenDatabase, shape: Shape) -> Result<Engine> {
        data.engine(shape, Method::Exact)
    }

    fn is_lookup(&self, engine: &Engine) -> bool {
        engine.is_lookup()
    }

    fn json(&self) -> bool {
        self.args.json
    }

    fn answer(
        &self,
        engine: &Engine,
        board: &Board,
        _moves: &mut Vec<Move>,
        out: &mut String,
    ) -> Result<bool, SolveError> {
        let probe = engine.probe(board)?;
        if self.args.json {
            let record = ProbeRecord::new(&probe, engine.goal());
            out.push_str(&serde_json::to_string(&record).expect("json"));
            out.push('\n');
            return Ok(probe.is_solvable());
        }
        let Some(distance) = probe.distance else {
            out.push_str("unsolvable\n");
            return Ok(false);
        };
        // `19  u:18* d:20 l:18*`: a star marks a move one closer.
        let _ = write!(out, "{distance} ");
        for m in &probe.moves {
            let star = if m.optimal { "*" } else { "" };
            let _ = write!(out, " {}:{}{star}", m.slide(), m.distance);
        }
        out.push('\n');
        Ok(true)
    }
}
