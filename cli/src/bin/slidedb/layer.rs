//! `slidedb layer`: every board at one distance from the goal.

use std::io::Write;
use std::ops::ControlFlow;

use anyhow::Result;
use clap::Args as ClapArgs;
use slidedb::records::BoardRecord;

use crate::data::DataArgs;
use slidedb::request::Distance;

use crate::distance::parse_distance;

#[derive(ClapArgs)]
pub struct LayerArgs {
    /// The distance: a number of moves, or `max` for the farthest boards.
    #[arg(value_name = "D", value_parser = parse_distance)]
    distance: Distance,
    #[command(flatten)]
    data: DataArgs,
    /// Print at most N boards.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// Print only how many boards there are (from the table's counts,
    /// instantly).
    #[arg(long, conflicts_with_all = ["limit", "json"])]
    count_only: bool,
    /// One JSON object per line: {"board","goal","distance"}.
    #[arg(long)]
    json: bool,
    /// Show no progress of the search from the goal (on a terminal a bar,
    /// elsewhere a line each tenth of the layers, for tables of 3×4 and up).
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &LayerArgs) -> Result<u8> {
    let data = args.data.open_reporting(true, args.quiet)?;
    let shape = data.shape();
    let table = data.table_for("layer", shape)?;
    let goal = *table.toward().goal();
    let greatest = table.get().max_distance();
    // Past the farthest boards is an error, as for `random --distance`.
    let distance = args.distance.within(&goal, greatest)?;
    let boards = table.get().layers()[distance as usize];
    let mut out = crate::output();
    if args.count_only {
        writeln!(out, "{boards}")?;
        out.flush()?;
        return Ok(0);
    }
    let limit = args.limit.unwrap_or(u64::MAX);
    if boards == 0 || limit == 0 {
        return Ok(0);
    }
    let mut written = 0u64;
    let mut failed: Option<std::io::Error> = None;
    let mut line = String::new();
    let goal_text = goal.to_string();
    data.db
        .layer(&goal, distance, |board| {
            line.clear();
            if args.json {
                let record = BoardRecord {
                    board: board.to_string(),
                    goal: goal_text.clone(),
                    distance: Some(distance),
                };
                line.push_str(&serde_json::to_string(&record).expect("json"));
            } else {
                use std::fmt::Write as _;
                let _ = write!(line, "{board}");
            }
            line.push('\n');
            if let Err(e) = out.write_all(line.as_bytes()) {
                failed = Some(e);
                return ControlFlow::Break(());
            }
            written += 1;
            if written >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .map_err(|e| data.explain(e, Some(&goal)))?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    out.flush()?;
    Ok(0)
}
