//! What the database reports as it works ([`Event`]), and where what it
//! answers from came from ([`Source`]).

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::board::Board;
use crate::format::Kind;

/// Where a table or databases came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// Memory-mapped from this file.
    File(PathBuf),
    /// Built on first use; saved to this file if it could be.
    Built {
        /// Where it was saved.
        saved: Option<PathBuf>,
    },
    /// Given to the builder in memory.
    Memory,
}

impl Source {
    /// What to call it in a message: the file's path, or what it is.
    ///
    /// ```
    /// use slidedb::Source;
    /// assert_eq!(Source::Memory.name(), "the table given in memory");
    /// assert_eq!(Source::File("t.slidedb".into()).name(), "t.slidedb");
    /// ```
    pub fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Built { saved: Some(path) } => path.display().to_string(),
            Source::Built { saved: None } => "the table built in memory".to_string(),
            Source::Memory => "the table given in memory".to_string(),
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::File(path) => write!(f, "{}", path.display()),
            Source::Built { saved: Some(path) } => {
                write!(f, "built in memory, saved to {}", path.display())
            }
            Source::Built { saved: None } => f.write_str("built in memory"),
            Source::Memory => f.write_str("given in memory"),
        }
    }
}

/// What the database did, as it does it: for a front end to report.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Event {
    /// A file's body was checked in full against its checksum, the first
    /// time it was opened since it last changed.
    Verified {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        bytes: u64,
        /// How long the check took.
        elapsed: Duration,
        /// Whether a stamp beside it now records it, so that later
        /// opens skip the check until the file changes; `false` where the
        /// folder is not writable (the file is then checked on every open).
        stamped: bool,
    },
    /// A file was opened (mapped and checked).
    Opened {
        /// The file.
        path: PathBuf,
        /// What it is.
        kind: Kind,
    },
    /// A missing table was built in memory.
    Built {
        /// The goal it was built for.
        goal: Board,
        /// How long it took.
        elapsed: Duration,
    },
    /// The data folder did not exist and was created, to save a table in.
    CreatedDataDir {
        /// The folder.
        path: PathBuf,
    },
    /// A table just built was saved.
    Saved {
        /// The file.
        path: PathBuf,
    },
    /// A table just built could not be saved; it serves from memory.
    NotSaved {
        /// Where it was to go.
        path: PathBuf,
        /// Why it could not.
        error: String,
    },
    /// A search from the goal began, to find which boards lie at which
    /// distance (a table stores distances mod 3 only): it takes about as
    /// long as building the table, up to the deepest layer wanted.
    Searching {
        /// The goal it searches from.
        goal: Board,
        /// The deepest layer it goes to.
        upto: u32,
    },
    /// A layer of the search of [`Event::Searching`] is done (reported
    /// after each, for a progress display).
    SearchedLayer {
        /// The goal it searches from.
        goal: Board,
        /// The layer done.
        depth: u32,
        /// The deepest layer it goes to.
        upto: u32,
        /// The boards of that layer.
        boards: u64,
        /// Time since the search began.
        elapsed: Duration,
    },
    /// The rare layers kept beside a table could not be used (damaged, of
    /// another table, or listed not deep enough): they are listed again,
    /// and the file replaced.
    RareLayersUnusable {
        /// The file.
        path: PathBuf,
        /// Why it could not be used.
        why: String,
    },
    /// The rare layers of a table were listed ([`RareLayers`](crate::RareLayers)).
    ListedRareLayers {
        /// The goal asked for.
        goal: Board,
        /// How many boards they hold.
        boards: u64,
        /// How long the listing took.
        elapsed: Duration,
        /// The file they were saved to beside the table, and the error if
        /// they could not be (`None`: not kept in a file, because the table
        /// has none or is small enough to list them again in milliseconds).
        saved: Option<(PathBuf, Option<String>)>,
    },
    /// The 4×4 coloured pattern database of the multi-tile metric is
    /// being built in memory, for the first 4×4 search in that metric of
    /// this process (about half a minute on two cores; 38 MB kept).
    BuildingMultiPatterns,
    /// It was built, in `elapsed`.
    BuiltMultiPatterns {
        /// How long it took.
        elapsed: Duration,
    },
    /// No pattern databases for a board too big for a full table: answers
    /// come from IDA* with Manhattan distance, optimal but slow on hard
    /// boards. Reported once per class of goals and database.
    NoPatterns {
        /// The goal asked for.
        goal: Board,
        /// Where they were looked for.
        dir: Option<PathBuf>,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Verified {
                path,
                bytes,
                elapsed,
                stamped,
            } => write!(
                f,
                "checked {} ({:.1} MB) in {:.3} s{}",
                path.display(),
                *bytes as f64 / 1e6,
                elapsed.as_secs_f64(),
                if *stamped {
                    "; it is not checked again until it changes"
                } else {
                    "; could not record that beside it (is its folder writable?), so it is checked on every open"
                }
            ),
            Event::Opened { path, kind } => write!(f, "opened {kind} {}", path.display()),
            Event::Built { goal, elapsed } => write!(
                f,
                "built the {} table for goal {goal} in {:.3} s",
                goal.shape(),
                elapsed.as_secs_f64()
            ),
            Event::CreatedDataDir { path } => {
                write!(f, "created the data folder {}", path.display())
            }
            Event::Saved { path } => write!(f, "saved the table to {}", path.display()),
            Event::NotSaved { path, error } => write!(
                f,
                "could not save the table to {} ({error}); it serves from memory",
                path.display()
            ),
            Event::Searching { goal, upto } => write!(
                f,
                "searching the {} boards from goal {goal} out to distance {upto}, to list them by distance (about as long as building the table)",
                goal.shape()
            ),
            Event::SearchedLayer {
                depth,
                upto,
                boards,
                elapsed,
                ..
            } => write!(
                f,
                "searched layer {depth} of {upto}: {} ({:.1} s)",
                crate::words::counted(*boards, "board", "boards"),
                elapsed.as_secs_f64()
            ),
            Event::RareLayersUnusable { path, why } => write!(
                f,
                "cannot use the rare layers kept in {}: {why}; listing them again",
                path.display()
            ),
            Event::ListedRareLayers {
                goal,
                boards,
                elapsed,
                saved,
            } => {
                write!(
                    f,
                    "listed the {} of the rare layers of {} goal {goal} in {:.1} s",
                    crate::words::counted(*boards, "board", "boards"),
                    goal.shape(),
                    elapsed.as_secs_f64()
                )?;
                match saved {
                    Some((path, None)) => {
                        write!(f, "; saved to {} for next time", path.display())
                    }
                    Some((path, Some(error))) => write!(
                        f,
                        "; could not save them to {} ({error}), so they are listed again next time",
                        path.display()
                    ),
                    None => Ok(()),
                }
            }
            Event::BuildingMultiPatterns => f.write_str(
                "building the 4x4 pattern database of the multi-tile metric in memory, for this process (38 MB; about half a minute)",
            ),
            Event::BuiltMultiPatterns { elapsed } => write!(
                f,
                "built the 4x4 pattern database of the multi-tile metric in {:.1} s",
                elapsed.as_secs_f64()
            ),
            Event::NoPatterns { goal, dir } => write!(
                f,
                "no pattern databases for {} goal {goal}{}: solving by IDA* with Manhattan distance, which can take minutes a board",
                goal.shape(),
                dir.as_ref()
                    .map(|d| format!(" in {}", d.display()))
                    .unwrap_or_default()
            ),
        }
    }
}
