//! The options every command shares for finding tables (`--size`,
//! `--goal`, `--table`, `--pdb`, `--data`), the library database they
//! open, and how its errors and events read on the command line: the
//! library says what is wrong; this adds the command that fixes it.

use slidedb::BuiltFor;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use slidedb_cli::progress::{BAR, Progress};

use anyhow::{Result, anyhow};
use clap::Args as ClapArgs;
use slidedb::PatternDb;
use slidedb::database::Bytes;
use slidedb::database::{DataFile, Kind};
use slidedb::request;
use slidedb::{
    Board, Database, DatabaseError, Engine, Event, ExactBy, FileError, Method, Metric, Shape,
    Source, Table, Toward,
};

#[derive(ClapArgs)]
pub struct DataArgs {
    /// Board size as ROWSxCOLS [default: from the goal, the table or the
    /// board].
    #[arg(long, value_name = "RxC")]
    pub size: Option<Shape>,
    /// The goal [default: the goal --table or --pdb was built for, else
    /// the tiles in order, blank last].
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    pub goal: Option<String>,
    /// The table file to answer from (and no other) [default: the file of
    /// the goal's class in the data folder; built there if missing and the
    /// board has at most 9 cells].
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
    /// The pattern databases file: answers (by IDA*) the boards of its size,
    /// also where a full table exists, and is the estimate of --heuristic
    /// pdb [default: for boards over 14 cells, or 10 to 14 without their
    /// table, every set of the goal's class in the data folder, largest
    /// first]. Given again, each file is another set toward the same goals:
    /// IDA* takes the maximum, reading the smallest set first.
    #[arg(long, value_name = "PATH")]
    pub pdb: Vec<PathBuf>,
    /// The memory a search (bfs, dfs, astar) may use for the boards it
    /// remembers, such as 512M or 4G; a search that needs more stops with
    /// an error [default: half the memory available].
    #[arg(long, value_name = "SIZE", value_parser = slidedb_cli::units::parse_bytes)]
    pub search_memory: Option<u64>,
    /// The data folder, where tables are looked for and saved [default:
    /// $SLIDEDB_DATA, else the user's data directory, such as
    /// ~/.local/share/slidedb].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// How moves are counted: single (a move slides one tile one cell) or
    /// multi (a move slides the blank any distance along its row or
    /// column: `rrr` is one move); also stm and mtm [default: the metric of
    /// --table's file, else single].
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<Metric>,
}

/// The database the options open, and the size and goal they name.
pub struct OpenDatabase {
    pub db: Database,
    /// The size in force for reading boards.
    pub size: Option<Shape>,
    /// The goal asked for with --goal, if any.
    pub goal: Option<Board>,
    /// --data, if given (repeated in suggested commands).
    data: Option<PathBuf>,
}

impl DataArgs {
    /// Opens the database the options describe. Bodies of small files are
    /// checksummed as they are opened unless `check_bodies` is false
    /// (`verify` does its own checks, to report them).
    pub fn open(&self, check_bodies: bool) -> Result<OpenDatabase> {
        self.open_reporting(check_bodies, false)
    }

    /// [`DataArgs::open`], showing a search from the goal (`layer`,
    /// `random --distance` on a large table) as it goes: a bar on a
    /// terminal, a line each tenth of its layers elsewhere, nothing of it
    /// if `quiet`.
    pub fn open_reporting(&self, check_bodies: bool, quiet: bool) -> Result<OpenDatabase> {
        let search = SearchDisplay {
            quiet,
            shown: Mutex::new(None),
        };
        let mut builder = Database::builder().on_event(move |event| search.report(event));
        if !check_bodies {
            builder = builder.verify_on_open(false);
        }
        if let Some(dir) = &self.data {
            builder = builder.data_dir(dir);
        }
        if let Some(bytes) = self.search_memory {
            builder = builder.search_memory(bytes);
        }
        if let Some(path) = &self.table {
            builder = builder.table_file(path);
        }
        for path in &self.pdb {
            builder = builder.patterns_file(path);
        }
        let db = builder
            .open()
            .map_err(|e| explain(self.data.as_deref(), e, None))?;
        let metric = self
            .metric
            .or_else(|| db.named_table().map(|t| t.metric()))
            .unwrap_or_default();
        let db = db.with_metric(metric);
        let mut data = OpenDatabase {
            db,
            size: self.size,
            goal: None,
            data: self.data.clone(),
        };
        // Without --size or --goal, a named file's size is the size.
        if self.goal.is_none() && self.size.is_none() {
            data.size = data
                .db
                .named_table()
                .map(|t| t.shape())
                .or_else(|| data.db.named_patterns().map(|p| p.shape()));
        }
        if let Some(text) = &self.goal {
            let goal = request::parse_goal(text, data.size)
                .map_err(|e| anyhow::anyhow!(name_options(&e.to_string())))?;
            data.size = Some(goal.shape());
            data.goal = Some(goal);
        }
        // A named file that cannot serve the goal asked for fails now.
        if let Some(size) = data.size {
            if data.db.named_table().is_some() {
                data.table(size)?;
            }
            if data.db.named_patterns().is_some() {
                data.patterns(size)?;
            }
        }
        Ok(data)
    }
}

/// Tables at least this large take long enough to search that the search
/// is shown (3×4 and 2×6: seconds; 2×7: minutes).
const SHOWN_SEARCH_STATES: u128 = 20_000_000;

/// What the database does that a user should know, on stderr, with the
/// progress of a long search from the goal.
struct SearchDisplay {
    quiet: bool,
    /// The running search's display: its bar (or lines), and the tenth of
    /// its layers last said.
    shown: Mutex<Option<(Progress, u32)>>,
}

impl SearchDisplay {
    fn report(&self, event: &Event) {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            Event::Searching { goal, upto } if goal.shape().states() >= SHOWN_SEARCH_STATES => {
                let template = format!("{BAR} {{pos}}/{{len}} layers, {{msg}} [{{elapsed}}]");
                let progress = Progress::bar(self.quiet, u64::from(*upto) + 1, &template);
                progress.say(format!("slidedb: {event}"));
                *shown = Some((progress, 0));
            }
            Event::SearchedLayer {
                depth,
                upto,
                boards,
                ..
            } => {
                let Some((progress, said)) = shown.as_mut() else {
                    return;
                };
                progress.set(
                    u64::from(*depth) + 1,
                    format!(
                        "layer {depth}: {}",
                        slidedb::words::counted(*boards, "board", "boards")
                    ),
                );
                // Elsewhere than a terminal, a line each tenth.
                let tenth = (depth + 1) * 10 / (upto + 1);
                if !progress.is_drawn() && tenth > *said {
                    progress.say(format!("slidedb: {event}"));
                    *said = tenth;
                }
                if depth == upto {
                    progress.finish();
                    *shown = None;
                }
            }
            Event::ListedRareLayers { .. } if self.quiet => {}
            _ => {
                drop(shown);
                report(event);
            }
        }
    }
}

/// Prints what the database does that a user should know.
fn report(event: &Event) {
    match event {
        Event::Opened { .. } => {}
        // A check worth mentioning: a long one, or one that will be run
        // again on every open.
        Event::Verified {
            elapsed, stamped, ..
        } if elapsed.as_secs_f64() < 0.1 && *stamped => {}
        // A search of a small table takes milliseconds: not worth a line.
        Event::Searching { goal, .. } | Event::ListedRareLayers { goal, .. }
            if goal.shape().states() < 20_000_000 => {}
        Event::NoPatterns { goal, .. } => {
            let shape = goal.shape();
            say!(
                "slidedb: {event}; build them with\n    slidedb-gen --size {shape} --goal \"{goal}\" --pdb {}\n{}",
                suggested_sizes(shape),
                if shape.cells() == 16 {
                    "(seconds and 12 MB; --pdb 7-8 is the strongest: 2 to 4 minutes, 1.6 GB of memory and a 577 MB file)"
                } else {
                    "(other group sizes adding up to the tiles also work)"
                }
            );
        }
        _ => say!("slidedb: {event}"),
    }
}

/// Group sizes to suggest for `shape`'s pattern databases: the library's
/// default partition (6-6-3 on 4x4, 6-6-6-6 on 5x5).
pub fn suggested_sizes(shape: Shape) -> String {
    slidedb::Partition::default_for(&Board::solved(shape)).sizes()
}

impl OpenDatabase {
    /// The one shape the options name (`--table`, `--size`, `--goal`), or
    /// 3x3.
    pub fn shape(&self) -> Shape {
        self.size.unwrap_or(Shape::EIGHT)
    }

    /// The goal for boards of `shape`.
    pub fn goal_for(&self, shape: Shape) -> Result<Board> {
        Ok(request::goal_for(&self.db, shape, self.goal)?)
    }

    /// Asks the database `ask` toward the goal of boards of `shape`; an
    /// error comes with the command that fixes it.
    fn ask<T>(
        &self,
        shape: Shape,
        ask: impl FnOnce(&Database, &Board) -> Result<T, DatabaseError>,
    ) -> Result<T> {
        let goal = self.goal_for(shape)?;
        ask(&self.db, &goal).map_err(|e| self.explain(e, Some(&goal)))
    }

    /// What gives exact answers for boards of `shape` toward their goal.
    pub fn exact(&self, shape: Shape) -> Result<ExactBy> {
        self.ask(shape, Database::exact)
    }

    /// What answers boards of `shape` toward their goal by `method`.
    pub fn engine(&self, shape: Shape, method: Method) -> Result<Engine> {
        self.ask(shape, |db, goal| db.engine(goal, method))
    }

    /// The full table for boards of `shape` toward their goal.
    pub fn table(&self, shape: Shape) -> Result<Toward<Table<Bytes>>> {
        self.ask(shape, Database::table)
    }

    /// The full table for boards of `shape` toward their goal, for a
    /// query that needs one (the error names it).
    pub fn table_for(&self, query: &'static str, shape: Shape) -> Result<Toward<Table<Bytes>>> {
        self.ask(shape, |db, goal| db.table_for(query, goal))
    }

    /// The pattern databases for boards of `shape` toward their goal, if
    /// any.
    pub fn patterns(&self, shape: Shape) -> Result<Option<Toward<PatternDb<Bytes>>>> {
        self.ask(shape, Database::patterns)
    }

    /// Like [`OpenDatabase::patterns`], but none is an error naming the command
    /// that builds them.
    pub fn require_patterns(&self, shape: Shape) -> Result<Toward<PatternDb<Bytes>>> {
        self.ask(shape, Database::require_patterns)
    }

    /// The library's error, with the command that fixes it.
    pub fn explain(&self, e: DatabaseError, goal: Option<&Board>) -> anyhow::Error {
        explain(self.data.as_deref(), e, goal)
    }
}

/// The library's error `e`, with the command that fixes it (`data` is
/// --data as given, repeated in the command; `goal` the goal asked for).
pub fn explain(data: Option<&Path>, e: DatabaseError, goal: Option<&Board>) -> anyhow::Error {
    let data = match data {
        Some(dir) => format!(" --data {}", dir.display()),
        None => String::new(),
    };
    let gen_table = |goal: &Board, tail: &str| {
        format!(
            "slidedb-gen --size {} --goal \"{goal}\"{tail}",
            goal.shape()
        )
    };
    let hint = match &e {
        DatabaseError::MissingTable { goal, metric, .. } => Some(format!(
            "with\n    {}",
            gen_table(goal, &with_metric(&data, *metric))
        )),
        DatabaseError::NeedsTable { source, .. } => match source.as_ref() {
            DatabaseError::MissingTable { goal, metric, .. } => Some(format!(
                "with\n    {}",
                gen_table(goal, &with_metric(&data, *metric))
            )),
            _ => None,
        },
        DatabaseError::MissingPatterns { goal, .. } => Some(format!(
            "with\n    {}",
            gen_table(
                goal,
                &format!("{data} --pdb {}", suggested_sizes(goal.shape()))
            )
        )),
        DatabaseError::TooBig {
            shape,
            metric: Metric::Single,
        } => Some(format!(
            "build them with slidedb-gen --size {shape} --pdb {}",
            suggested_sizes(*shape)
        )),
        DatabaseError::WrongGoal {
            asked,
            kind,
            origin,
            ..
        } => {
            let pdb = match kind {
                Kind::FullTable => String::new(),
                _ => format!(" --pdb {}", suggested_sizes(asked.shape())),
            };
            // A wrong file under the class's own name in the data folder
            // is what the build replaces.
            let own = match origin {
                Source::File(path) => DataFile::from_path(path).is_some_and(|f| f.serves(asked)),
                _ => false,
            };
            let force = if own { " --force" } else { "" };
            Some(format!(
                "with\n    {}",
                gen_table(asked, &format!("{data}{pdb}{force}"))
            ))
        }
        // Damage and other versions are fixed by rebuilding; another kind
        // of file, or not a table at all, by checking the path.
        DatabaseError::File { path, source }
            if !matches!(source, FileError::BadMagic | FileError::WrongKind { .. }) =>
        {
            // `slidedb-gen --out` takes the file itself, not a link to
            // it; a directory of shards is built again by the distributed
            // build.
            let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            let target = match link {
                true => std::fs::canonicalize(path).unwrap_or_else(|_| path.clone()),
                false => path.clone(),
            };
            let workers = if target.is_dir() { " --workers 1" } else { "" };
            let out = format!("{workers} --out {} --force", target.display());
            Some(match goal {
                Some(goal) if goal.shape().cells() <= slidedb::MAX_TABLE_CELLS => {
                    let through = match link {
                        true => format!("\n(the file that {} links to)", path.display()),
                        false => String::new(),
                    };
                    format!("with\n    {}{through}", gen_table(goal, &out))
                }
                _ => {
                    let through = match link {
                        true => format!("{} links to it; ", path.display()),
                        false => String::new(),
                    };
                    format!(
                        "with slidedb-gen{out} ({through}and the --size, --goal and --pdb it was built with)"
                    )
                }
            })
        }
        // A damaged shard, which the error names: the distributed build
        // writes the directory again, as its manifest says it was built.
        DatabaseError::Shards {
            path,
            source: slidedb::database::ShardError::Damaged { goal, workers, .. },
        } => Some(slidedb_cli::rebuild::sharded_table(goal, *workers, path)),
        _ => None,
    };
    match hint {
        Some(hint) => {
            // The whole chain, then the command.
            let mut message = e.to_string();
            let mut cause = std::error::Error::source(&e);
            while let Some(c) = cause {
                message.push_str(&format!(": {c}"));
                cause = c.source();
            }
            anyhow!("{message}, {hint}")
        }
        None => anyhow::Error::new(e),
    }
}

/// A library message as the command line says it on stderr: where it asks
/// for the size, it names `--size` (the library names no option). JSON
/// records keep the library's words, the same in every front end.
pub fn name_options(message: &str) -> String {
    message.replace("give the size", "give the size with --size")
}

/// The options of `slidedb-gen` that `data` (such as ` --data DIR`) holds,
/// and `--metric multi` for a table of the multi-tile metric.
fn with_metric(data: &str, metric: Metric) -> String {
    match metric {
        Metric::Single => data.to_string(),
        other => format!("{data} --metric {other}"),
    }
}
