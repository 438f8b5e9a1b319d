//! `slidedb sizes`: every size the data folder's database answers, how,
//! and toward which goal by default: the library's
//! [`Database::sizes`](slidedb::Database::sizes), as the server's `/sizes`
//! and Python's `Database.sizes()` give it.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args as ClapArgs;
use slidedb::records::SizeRecord;

use crate::data::DataArgs;

#[derive(ClapArgs)]
pub struct SizesArgs {
    /// A table file to answer from, as `serve --table` takes it.
    #[arg(long, value_name = "PATH")]
    table: Option<PathBuf>,
    /// A pattern databases file, as `serve --pdb` takes it.
    #[arg(long, value_name = "PATH")]
    pdb: Vec<PathBuf>,
    /// The data folder [default: $SLIDEDB_DATA, else the user's data
    /// directory, such as ~/.local/share/slidedb].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// The metric: single or multi (see `slidedb solve --help`) [default:
    /// single].
    #[arg(long, value_name = "METRIC")]
    metric: Option<slidedb::Metric>,
    /// One JSON object per line: {"size","exact","goal"}, as each element
    /// of the server's /api/v1/sizes.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &SizesArgs) -> Result<u8> {
    let data = DataArgs {
        size: None,
        goal: None,
        table: args.table.clone(),
        pdb: args.pdb.clone(),
        search_memory: None,
        data: args.data.clone(),
        metric: args.metric,
    }
    .open(false)?;
    let sizes = data.db.sizes()?;
    let mut out = crate::output();
    for size in &sizes {
        let record = SizeRecord::new(size);
        if args.json {
            writeln!(out, "{}", serde_json::to_string(&record)?)?;
        } else {
            writeln!(
                out,
                "{:<6} {:<9} {}",
                record.size, record.exact, record.goal
            )?;
        }
    }
    out.flush()?;
    Ok(0)
}
