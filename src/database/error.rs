//! Why the database could not answer toward a goal: [`DatabaseError`].

use std::io;
use std::path::PathBuf;

use super::Source;
use crate::board::{Board, Metric, Shape};
use crate::format::{FileError, Kind};
use crate::solution::SolveError;
use crate::solver::Algorithm;
use crate::table::{GenerateError, MAX_TABLE_CELLS};

/// Why the database could not answer toward a goal: the table or databases
/// it needs cannot be had. Each variant carries its facts; the message
/// says what to do in library terms.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DatabaseError {
    /// Pattern databases could not be copied into memory backed by huge
    /// pages ([`DatabaseBuilder::patterns_in_huge_pages`](super::DatabaseBuilder::patterns_in_huge_pages)).
    #[error(
        "cannot copy {} ({bytes} bytes) into memory backed by huge pages: free memory, or map the file instead (patterns_in_huge_pages(false))",
        path.display()
    )]
    HugePages {
        /// The file.
        path: PathBuf,
        /// Its length.
        bytes: u64,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A file could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A directory is not a usable sharded table.
    #[error("{}", path.display())]
    Shards {
        /// The directory.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: crate::table::ShardError,
    },
    /// A file is not a usable table or databases file (damaged, another
    /// kind, another format version).
    #[error("{}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        source: FileError,
    },
    /// A file (or a table given in memory) holds a table or databases that
    /// do not serve the goal asked for (another size, or another class of
    /// goals).
    #[error(
        "{} is {kind} for {} goal {holds}, which does not serve {} goal {asked} (another class of goals): build one for goal {asked}",
        origin.name(), holds.shape(), asked.shape()
    )]
    WrongGoal {
        /// Where it came from.
        origin: Source,
        /// What it is.
        kind: Kind,
        /// The goal asked for.
        asked: Board,
        /// The goal the file was built for.
        holds: Board,
    },
    /// A file of the data folder named for one class of goals holds the
    /// full table of another (a 3×4 table named as a 2×6 one), or the
    /// class's table is missing and the file under the asked goal's own
    /// name holds it (a 3×4 table named as a 4×3 one): renamed.
    #[error(
        "{} holds the full distance table for {} goal {holds}: rename it to {}, the name a data folder keeps it under",
        path.display(), holds.shape(), own_name(holds)
    )]
    Misnamed {
        /// The file.
        path: PathBuf,
        /// The goal it was built for, as its header says.
        holds: Board,
    },
    /// No full table of the goal's class is in the data folder (or there is
    /// no data folder), and it is too big to build on the fly.
    #[error(
        "no {}table for {} goal {goal} {} ({} states: too many to build on the fly): generate it and save it there",
        match metric {
            Metric::Single => String::new(),
            other => format!("{} ", other.adjective()),
        },
        goal.shape(),
        match path {
            Some(path) => format!("at {}", path.display()),
            None => "in memory, and no data folder to find it in".to_string(),
        },
        goal.shape().states()
    )]
    MissingTable {
        /// The goal asked for.
        goal: Board,
        /// Where the table is looked for, if there is a data folder.
        path: Option<PathBuf>,
        /// The metric asked for.
        metric: Metric,
    },
    /// A file (or a table given in memory) counts moves in another metric
    /// than the one asked for: a file built for one metric never answers
    /// in the other.
    #[error(
        "{} is {kind} in the {} metric, but the {} metric was asked for: use one built for the {} metric",
        origin.name(), holds.adjective(), asked.adjective(), asked.adjective()
    )]
    OtherMetric {
        /// Where it came from.
        origin: Source,
        /// What it is.
        kind: Kind,
        /// The metric asked for.
        asked: Metric,
        /// The metric the file was built for.
        holds: Metric,
    },
    /// Boards or a method that the metric is not answered for.
    #[error("{shape} boards are not answered in the {} metric here: {why}", metric.adjective())]
    Unanswered {
        /// The metric asked for.
        metric: Metric,
        /// The board size.
        shape: Shape,
        /// What is and is not answered.
        why: &'static str,
    },
    /// Boards of this size have no full table.
    #[error("{}", too_big(*shape, *metric))]
    TooBig {
        /// The board size.
        shape: Shape,
        /// The metric asked for.
        metric: Metric,
    },
    /// No pattern databases of the goal's class are in the data folder (or
    /// there is no data folder).
    #[error(
        "no pattern databases for {} goal {goal} {}: build them (any group sizes adding up to the tiles) and save them there",
        goal.shape(),
        match dir {
            Some(dir) => format!("in {}", dir.display()),
            None => "in memory, and no data folder to find them in".to_string(),
        }
    )]
    MissingPatterns {
        /// The goal asked for.
        goal: Board,
        /// Where they are looked for, if there is a data folder.
        dir: Option<PathBuf>,
    },
    /// The data folder could not be read or created.
    #[error("cannot use the data folder {}", path.display())]
    DataDir {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A table could not be built.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// Pattern databases could not be built: groups that do not fit the
    /// board, or too big.
    #[error(transparent)]
    Patterns(#[from] crate::pdb::PatternError),
    /// A method that cannot run: pattern databases as the estimate of a
    /// search that uses none.
    #[error("pattern databases are an estimate for A* and IDA*, not for {algorithm}")]
    Method {
        /// The algorithm asked for.
        algorithm: Algorithm,
    },
    /// The board could not be answered.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A query that only a full table answers (counts, layers, boards at a
    /// distance), asked where there is none: `source` says why.
    #[error("{query} needs a full table of every board's distance")]
    NeedsTable {
        /// The query, such as `count`.
        query: &'static str,
        /// Why there is no table.
        #[source]
        source: Box<DatabaseError>,
    },
}

/// The name a data folder keeps the full table of `holds` under: its
/// class's file name.
fn own_name(holds: &Board) -> String {
    crate::store::default_file_name(crate::symmetry::GoalClass::of(holds).canonical())
}

/// What [`DatabaseError::TooBig`] says: what answers such boards instead.
fn too_big(shape: Shape, metric: Metric) -> String {
    match metric {
        Metric::Single => format!(
            "no full table can serve {shape}: full tables go up to {MAX_TABLE_CELLS} cells; {shape} boards are answered through pattern databases"
        ),
        Metric::Multi => format!(
            "no full table can serve {shape} in the multi-tile metric: full tables go up to {MAX_TABLE_CELLS} cells; {shape} boards are solved and probed there by IDA*, but counts, layers, random boards and stats need a table"
        ),
    }
}
