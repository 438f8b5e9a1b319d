//! `slidedb stats`: what a table holds.

use std::io::{self, BufWriter, Write};

use anyhow::Result;
use clap::Args as ClapArgs;
use serde::Serialize;

use crate::tables::{TableChoice, Tables};

#[derive(ClapArgs)]
pub struct StatsArgs {
    #[command(flatten)]
    choice: TableChoice,
    /// One JSON object.
    #[arg(long)]
    json: bool,
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

pub fn run(args: &StatsArgs) -> Result<u8> {
    let mut tables = Tables::new(&args.choice)?;
    let found = tables.get(tables.shape())?;
    let (table, class) = (&found.table, &found.class);
    // The goal's own view: its goal, and the hardest boards toward it.
    let (shape, goal) = (class.goal().shape(), class.goal());
    let hardest: Vec<_> = table
        .hardest()
        .iter()
        .map(|b| class.from_canonical(b))
        .collect();
    let mut out = BufWriter::new(io::stdout().lock());
    if args.json {
        let j = JsonStats {
            size: shape.to_string(),
            goal: goal.to_string(),
            states: table.states(),
            max_distance: table.max_distance(),
            mean_distance: (table.mean_distance() * 1e4).round() / 1e4,
            layers: table.layers().to_vec(),
            hardest: hardest.iter().map(|b| b.to_string()).collect(),
            generator: table.generator().to_string(),
        };
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
