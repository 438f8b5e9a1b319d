//! `slidedb random`: boards drawn uniformly at random, at a chosen
//! distance or from all boards.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;
use slidedb::records::BoardRecord;
use slidedb::request::{Distance, Distances, RandomBoards, RequestError, seed};

use crate::data::DataArgs;
use crate::distance::parse_distance;

#[derive(ClapArgs)]
pub struct RandomArgs {
    /// Draw among the boards exactly this far from the goal (a number of
    /// moves, or `max`); needs the full table [default: among all boards
    /// that can reach the goal].
    #[arg(long, value_name = "D", value_parser = parse_distance, conflicts_with_all = ["min", "max"])]
    distance: Option<Distance>,
    /// Draw among the boards at least this far (with --max, or up to the
    /// farthest).
    #[arg(long, value_name = "D")]
    min: Option<u32>,
    /// Draw among the boards at most this far (with --min, or from 0).
    #[arg(long, value_name = "D", value_parser = parse_distance)]
    max: Option<Distance>,
    /// How many boards to draw (each independently).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// The seed: the same seed draws the same boards on every machine
    /// [default: from the clock].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    #[command(flatten)]
    data: DataArgs,
    /// One JSON object per line: {"board","goal","distance"} (distance
    /// null for boards without a full table).
    #[arg(long)]
    json: bool,
    /// Show no progress of the search that lists the rare layers (the
    /// first `--distance` far from the middle on a table of 3×4 and up: on
    /// a terminal a bar, elsewhere a line each tenth of the layers).
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &RandomArgs) -> Result<u8> {
    let data = args.data.open_reporting(true, args.quiet)?;
    let shape = data.shape();
    let goal = data.goal_for(shape)?;
    let distances = Distances {
        exact: args.distance.clone(),
        least: args.min.map(Distance::Moves),
        greatest: args.max.clone(),
    };
    let boards = RandomBoards::new(&data.db, &goal, &distances, seed(args.seed), args.json)
        .map_err(|e| explain_request(&data, e, &goal))?;
    let mut out = crate::output();
    for drawn in boards.take(args.count.try_into().unwrap_or(usize::MAX)) {
        let (board, distance) = drawn.map_err(|e| explain_request(&data, e, &goal))?;
        if args.json {
            let line = match distance {
                Some(d) => serde_json::to_string(&BoardRecord::new(&board, &goal, d)),
                None => serde_json::to_string(&BoardRecord::unknown(&board, &goal)),
            };
            writeln!(out, "{}", line.expect("json"))?;
        } else {
            writeln!(out, "{board}")?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// The library's error, with the command that fixes a database's.
fn explain_request(
    data: &crate::data::OpenDatabase,
    e: RequestError,
    goal: &slidedb::Board,
) -> anyhow::Error {
    match e {
        RequestError::Database(e) => data.explain(e, Some(goal)),
        e => e.into(),
    }
}
