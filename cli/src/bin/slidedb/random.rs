//! `slidedb random`: boards drawn uniformly at random, at a chosen
//! distance or from all boards.

use std::io::Write;

use anyhow::{Result, bail};
use clap::Args as ClapArgs;
use slidedb::random::{SplitMix64, random_board};
use slidedb::records::BoardRecord;

use crate::data::DataArgs;
use crate::distance::{Distance, parse_distance};

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
}

pub fn run(args: &RandomArgs) -> Result<u8> {
    let data = args.data.open(true)?;
    let shape = data.shape();
    let goal = data.goal_for(shape)?;
    let seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        now.as_nanos() as u64 ^ (std::process::id() as u64) << 32
    });
    let mut rng = SplitMix64::new(seed);
    let mut out = crate::output();
    let goal_text = goal.to_string();
    let write = |out: &mut dyn Write, board: &slidedb::Board, distance: Option<u32>| {
        if args.json {
            #[derive(serde::Serialize)]
            struct Unknown<'a> {
                board: String,
                goal: &'a str,
                distance: Option<u32>,
            }
            let line = match distance {
                Some(d) => serde_json::to_string(&BoardRecord::new(board, &goal, d)),
                None => serde_json::to_string(&Unknown {
                    board: board.to_string(),
                    goal: &goal_text,
                    distance: None,
                }),
            };
            writeln!(out, "{}", line.expect("json"))
        } else {
            writeln!(out, "{board}")
        }
    };
    let ranged = args.distance.is_some() || args.min.is_some() || args.max.is_some();
    if !ranged {
        // Uniform over every board that reaches the goal: a shuffle, which
        // needs no table; the distance comes from the table if there is one.
        let table = if args.json && shape.cells() <= slidedb::MAX_TABLE_CELLS {
            data.table_for("the distance of a random board", shape).ok()
        } else {
            None
        };
        for _ in 0..args.count {
            let board = random_board(&goal, &mut rng);
            let distance = match &table {
                Some(t) => t.distance(&board)?,
                None => None,
            };
            write(&mut out, &board, distance)?;
        }
        out.flush()?;
        return Ok(0);
    }
    let table = data.table_for("a random board at a distance", shape)?;
    let greatest = table.get().max_distance();
    let (lo, hi) = match (args.distance, args.min, args.max) {
        (Some(d), _, _) => (d.resolve(greatest), d.resolve(greatest)),
        (None, min, max) => (
            min.unwrap_or(0),
            max.map_or(greatest, |m| m.resolve(greatest)),
        ),
    };
    if lo > greatest {
        bail!(
            "no {shape} board is {lo} moves from goal {goal}: the farthest are {greatest} moves away"
        );
    }
    if lo > hi {
        bail!("--min {lo} is more than --max {hi}: no distance lies between");
    }
    for _ in 0..args.count {
        let Some(board) = data
            .db
            .random(&goal, lo..=hi, &mut rng)
            .map_err(|e| data.explain(e, Some(&goal)))?
        else {
            bail!("no {shape} board lies {lo} to {hi} moves from goal {goal}");
        };
        let distance = if lo == hi {
            lo
        } else {
            table.distance(&board)?.unwrap_or_default()
        };
        write(&mut out, &board, Some(distance))?;
    }
    out.flush()?;
    Ok(0)
}
