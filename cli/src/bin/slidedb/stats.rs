//! `slidedb stats`: what a table (or pattern databases file) holds.

use std::io::Write;

use anyhow::Result;
use clap::Args as ClapArgs;
use serde::Serialize;

use slidedb::PatternDb;
use slidedb::database::Bytes;
use slidedb::{ExactBy, Toward};

use crate::data::DataArgs;

#[derive(ClapArgs)]
pub struct StatsArgs {
    #[command(flatten)]
    data: DataArgs,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct JsonGroup {
    tiles: Vec<u8>,
    entries: u64,
    max_value: usize,
    mean_value: f64,
    layers: Vec<u64>,
}

#[derive(Serialize)]
struct JsonPatterns {
    size: String,
    goal: String,
    partition: String,
    groups: Vec<JsonGroup>,
    generator: String,
}

/// What pattern databases hold: per group, its tiles and the spread of
/// its values (the tiles named toward the databases' own goal).
fn patterns(args: &StatsArgs, found: &Toward<PatternDb<Bytes>>) -> Result<u8> {
    let class = *found.toward();
    let (shape, goal) = (class.goal().shape(), *class.goal());
    let db = found.get();
    let groups: Vec<JsonGroup> = db
        .indexed_partition()
        .groups()
        .iter()
        .enumerate()
        .map(|(g, tiles)| {
            // The tiles as the goal asked for names them.
            let mut tiles: Vec<u8> = tiles.iter().filter_map(|&t| class.goal_tile(t)).collect();
            tiles.sort_unstable();
            let layers = db.layers(g).to_vec();
            let entries: u64 = layers.iter().sum();
            let reached: u64 = layers.iter().take(255).sum();
            let total: f64 = layers
                .iter()
                .take(255)
                .enumerate()
                .map(|(d, &c)| d as f64 * c as f64)
                .sum();
            // 255 marks a placement no board reaches (when a group holds
            // every tile, parity splits its placements).
            let max_value = (0..layers.len().min(255))
                .rev()
                .find(|&d| layers[d] > 0)
                .unwrap_or(0);
            JsonGroup {
                tiles,
                entries,
                max_value,
                mean_value: (total / reached.max(1) as f64 * 1e4).round() / 1e4,
                layers,
            }
        })
        .collect();
    let mut out = crate::output();
    if args.json {
        let j = JsonPatterns {
            size: shape.to_string(),
            goal: goal.to_string(),
            partition: db.partition().sizes(),
            groups,
            generator: db.generator().to_string(),
        };
        writeln!(out, "{}", serde_json::to_string(&j)?)?;
    } else {
        writeln!(out, "size          {shape}")?;
        writeln!(out, "goal          {goal}")?;
        if !class.is_canonical() {
            writeln!(
                out,
                "databases     of goal {} ({}), renamed and moved by symmetry",
                class.canonical(),
                class.canonical().shape()
            )?;
        }
        writeln!(out, "partition     {}", db.partition().sizes())?;
        writeln!(out, "generator     {}", db.generator())?;
        for (g, group) in groups.iter().enumerate() {
            let tiles: Vec<String> = group.tiles.iter().map(u8::to_string).collect();
            writeln!(
                out,
                "group {}: tiles {}; {} entries, values 0 to {}, mean {:.4}",
                g + 1,
                tiles.join(" "),
                group.entries,
                group.max_value,
                group.mean_value
            )?;
        }
    }
    out.flush()?;
    Ok(0)
}

pub fn run(args: &StatsArgs) -> Result<u8> {
    let data = args.data.open(true)?;
    // What the exact answers come from is what is described.
    let found = match data.exact(data.shape())? {
        ExactBy::Table(table) => table,
        ExactBy::Patterns(db) => return patterns(args, &db),
        // Searched, with no file to describe: the error says stats needs
        // a table.
        ExactBy::MultiSearch => data.table_for("stats", data.shape())?,
        // Nothing to describe: the error names what to build.
        _ => return patterns(args, &data.require_patterns(data.shape())?),
    };
    let class = found.toward();
    // The goal's own view: its goal, and the hardest boards toward it.
    let (shape, goal) = (class.goal().shape(), class.goal());
    let hardest = found.hardest();
    let table = found.get();
    let mut out = crate::output();
    if args.json {
        let j = slidedb::records::StatsRecord::new(&found);
        writeln!(out, "{}", serde_json::to_string(&j)?)?;
    } else {
        writeln!(out, "size          {shape}")?;
        writeln!(out, "goal          {goal}")?;
        if !class.is_canonical() {
            writeln!(
                out,
                "table         of goal {} ({}), renamed and moved by symmetry",
                class.canonical(),
                class.canonical().shape()
            )?;
        }
        writeln!(out, "states        {}", table.states())?;
        if slidedb::BuiltFor::metric(table) != slidedb::Metric::Single {
            writeln!(
                out,
                "metric        {}",
                slidedb::BuiltFor::metric(table).adjective()
            )?;
        }
        writeln!(out, "max distance  {}", table.max_distance())?;
        writeln!(out, "mean distance {:.4}", table.mean_distance())?;
        writeln!(out, "generator     {}", table.generator())?;
        writeln!(out, "distance  states")?;
        let widest = table.layers().iter().copied().max().unwrap_or(1);
        for (d, &count) in table.layers().iter().enumerate() {
            let bar = ((count as f64 / widest as f64) * 50.0).ceil() as usize;
            writeln!(out, "{d:>8}  {count:>12}  {}", "#".repeat(bar))?;
        }
        writeln!(
            out,
            "hardest ({} {} at distance {}{}):",
            table.layers().last().copied().unwrap_or(0),
            if table.layers().last() == Some(&1) {
                "state"
            } else {
                "states"
            },
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
