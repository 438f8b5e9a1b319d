//! `slidedb count`: the exact number of optimal solutions of each board.

use anyhow::Result;
use clap::Args as ClapArgs;
use slidedb::database::Bytes;
use slidedb::records::CountRecord;
use slidedb::{Board, Move, Shape, SolveError, Table, Toward};

use crate::batch::{self, Query};
use crate::data::{DataArgs, OpenDatabase};

#[derive(ClapArgs)]
pub struct CountArgs {
    /// Boards, each one argument, such as "2 3 4 1 5 x 7 6 8" or 123/456/78x.
    #[arg(value_name = "BOARD")]
    boards: Vec<String>,
    #[command(flatten)]
    data: DataArgs,
    /// One JSON object per line: {"board","goal","solvable","distance",
    /// "count"}, the count a number up to 2^53 and a decimal string above.
    #[arg(long)]
    json: bool,
}

/// `count` as a batch query.
struct Count<'a> {
    args: &'a CountArgs,
}

pub fn run(args: &CountArgs) -> Result<u8> {
    let data = args.data.open(true)?;
    batch::run(&Count { args }, &args.boards, data)
}

impl Query for Count<'_> {
    type Answerer = Toward<Table<Bytes>>;

    fn answerer(&self, data: &OpenDatabase, shape: Shape) -> Result<Self::Answerer> {
        data.table_for("count", shape)
    }

    fn is_lookup(&self, _: &Self::Answerer) -> bool {
        // Milliseconds a board at most: one line a task spreads them.
        false
    }

    fn json(&self) -> bool {
        self.args.json
    }

    fn answer(
        &self,
        table: &Self::Answerer,
        board: &Board,
        _moves: &mut Vec<Move>,
        out: &mut String,
    ) -> Result<bool, SolveError> {
        let found = match table.count(board)? {
            Some(count) => {
                let distance = table.distance(board)?.unwrap_or_default();
                Some((distance, count))
            }
            None => None,
        };
        if self.args.json {
            let record = CountRecord::new(board, table.toward().goal(), found);
            out.push_str(&serde_json::to_string(&record).expect("json"));
        } else {
            match found {
                Some((_, count)) => out.push_str(&count.to_string()),
                None => out.push_str("unsolvable"),
            }
        }
        out.push('\n');
        Ok(found.is_some())
    }
}
