//! What a data folder holds, and the sizes a database answers: the one
//! listing every front end shows (the server's `/sizes`, the page, the
//! Python package), read from file names without opening a file.

use std::io;
use std::path::PathBuf;

use super::{Database, DatabaseError, MAX_FALLBACK_CELLS, MAX_MULTI_CELLS};
use crate::board::{Board, MAX_CELLS, Metric, Shape};
use crate::solver::Solver;
use crate::store;
use crate::symmetry::{BuiltFor, GoalClass};
use crate::table::{MANIFEST_NAME, MAX_TABLE_CELLS};

/// What a file of the data folder holds, by its name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Holds {
    /// A full table of every board's distance, one file.
    Table,
    /// A full table in shards: a folder with a manifest, as the
    /// distributed build writes it.
    ShardedTable,
    /// Pattern databases of these group sizes (such as `5-5-5`).
    Patterns {
        /// The set's name ([`PatternSpec::label`](crate::pdb::PatternSpec::label)):
        /// the sizes of the tile groups joined by `-` (or the groups' tiles),
        /// with `-blank` after them for blank-aware entries (`6-6-6-6-blank`).
        sizes: String,
    },
}

/// A file (or folder of shards) of the data folder that slidedb reads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DataFile {
    /// Where it is.
    pub path: PathBuf,
    /// The goal its name says it was built for: a canonical goal, which
    /// serves every goal of its class.
    pub goal: Board,
    /// What it holds.
    pub holds: Holds,
    /// The metric its name says its distances are in.
    pub metric: Metric,
}

impl DataFile {
    /// What the file at `path` holds, by its name (nothing is opened);
    /// `None` for a name slidedb does not give.
    ///
    /// ```
    /// use slidedb::{Board, Shape, database::{DataFile, Holds}};
    /// let file = DataFile::from_path("data/4x4-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0-pdb-6-6-3.slidedb").unwrap();
    /// assert_eq!(file.holds, Holds::Patterns { sizes: "6-6-3".into() });
    /// assert!(file.serves(&Board::solved(Shape::new(4, 4).unwrap())));
    /// assert!(DataFile::from_path("notes.txt").is_none());
    /// ```
    pub fn from_path(path: impl Into<PathBuf>) -> Option<DataFile> {
        let path = path.into();
        let (goal, sizes, metric) = store::parse_file_name(path.file_name()?.to_str()?)?;
        let holds = match sizes {
            Some(sizes) => Holds::Patterns { sizes },
            None if path.is_dir() && path.join(MANIFEST_NAME).exists() => Holds::ShardedTable,
            None if path.is_dir() => return None,
            None => Holds::Table,
        };
        Some(DataFile {
            path,
            goal,
            holds,
            metric,
        })
    }

    /// Whether its name is that of the file of `goal`'s class: the file
    /// that answers toward `goal`, if it holds what its name says.
    pub fn serves(&self, goal: &Board) -> bool {
        GoalClass::of(goal).canonical() == &self.goal
    }
}

/// How [`Method::Exact`](super::Method::Exact) answers boards of a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AnsweredBy {
    /// A lookup in the full table: found, open, or built on first use.
    Table,
    /// IDA* over pattern databases (in the multi-tile metric, the 4×4's
    /// coloured one, built in memory by the first search).
    Patterns,
    /// IDA* with Manhattan distance, for lack of pattern databases: exact,
    /// but it can take minutes a board.
    Search,
}

impl AnsweredBy {
    /// Its name in records: `table`, `patterns` or `search`.
    ///
    /// ```
    /// assert_eq!(slidedb::database::AnsweredBy::Patterns.name(), "patterns");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            AnsweredBy::Table => "table",
            AnsweredBy::Patterns => "patterns",
            AnsweredBy::Search => "search",
        }
    }
}

/// A size the database answers, how, and the goal it answers toward when
/// none is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Size {
    /// The board size.
    pub shape: Shape,
    /// Its default goal ([`Database::default_goal`]).
    pub goal: Board,
    /// How its default goal's boards are answered.
    pub by: AnsweredBy,
}

/// Every board size slidedb knows, smallest first, each beside its
/// transpose: rows and columns of at least 2, up to [`MAX_CELLS`] cells.
pub(crate) fn every_shape() -> Vec<Shape> {
    let mut shapes: Vec<Shape> = (2..=MAX_CELLS / 2)
        .flat_map(|rows| (2..=MAX_CELLS / 2).filter_map(move |cols| Shape::new(rows, cols).ok()))
        .collect();
    // By cells, then the wider before its transpose, then by rows.
    shapes.sort_by_key(|s| (s.cells(), s.rows().min(s.cols()), s.rows() > s.cols()));
    shapes
}

impl Database {
    /// The files of the data folder slidedb reads, by name, in name
    /// order: tables, sharded tables and pattern databases (nothing is
    /// opened: a file is checked by what it holds when it is used). Empty
    /// without a data folder, or when the folder is missing.
    ///
    /// ```
    /// use slidedb::{Board, Database, Shape, database::Holds};
    /// let dir = tempfile::tempdir().unwrap();
    /// let db = Database::open(dir.path()).unwrap();
    /// assert!(db.files().unwrap().is_empty());
    /// db.solve(&Board::solved(Shape::EIGHT), &Board::solved(Shape::EIGHT)).unwrap(); // builds, saves
    /// let files = db.files().unwrap();
    /// assert_eq!((files.len(), &files[0].holds), (1, &Holds::Table));
    /// assert_eq!(files[0].goal, Board::solved(Shape::EIGHT));
    /// ```
    pub fn files(&self) -> Result<Vec<DataFile>, DatabaseError> {
        let Some(dir) = self.data_dir() else {
            return Ok(Vec::new());
        };
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(DatabaseError::DataDir {
                    path: dir.to_path_buf(),
                    source,
                });
            }
        };
        let mut files: Vec<DataFile> = entries
            .flatten()
            .filter_map(|entry| DataFile::from_path(entry.path()))
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// Every size this database answers exactly, smallest first, with how
    /// ([`AnsweredBy`]) and its default goal: the one rule of
    /// [`exact`](Database::exact), read from what is named, open and in
    /// the data folder, without opening or building anything. Sizes it
    /// cannot answer (a 5×5 board with no pattern databases) are left out.
    ///
    /// ```
    /// use slidedb::{Database, database::AnsweredBy};
    /// let db = Database::in_memory().open().unwrap();
    /// let sizes = db.sizes().unwrap();
    /// let by = |size: &str| sizes.iter().find(|s| s.shape.to_string() == size).map(|s| s.by);
    /// assert_eq!(by("3x3"), Some(AnsweredBy::Table)); // built on first use
    /// assert_eq!(by("3x4"), None); // no file, too big to build here, no databases
    /// assert_eq!(by("4x4"), Some(AnsweredBy::Search));
    /// assert_eq!(by("5x5"), None);
    /// ```
    pub fn sizes(&self) -> Result<Vec<Size>, DatabaseError> {
        let files = self.files()?;
        let mut sizes = Vec::new();
        for shape in every_shape() {
            let goal = self.default_goal(shape);
            if let Some(by) = self.answered_by(&goal, &files) {
                sizes.push(Size { shape, goal, by });
            }
        }
        Ok(sizes)
    }

    /// How [`exact`](Database::exact) would answer toward `goal`, given
    /// the data folder's `files`: `None` where it would fail.
    fn answered_by(&self, goal: &Board, files: &[DataFile]) -> Option<AnsweredBy> {
        let shape = goal.shape();
        let metric = self.metric;
        if metric == Metric::Multi {
            // Full tables of up to 14 cells, and past them the 4x4's
            // coloured pattern database (see `Database::exact`).
            if shape.cells() > MAX_MULTI_CELLS {
                return Solver::multi_patterns_serve(goal).then_some(AnsweredBy::Patterns);
            }
            if let Some(table) = self.named_table() {
                return (table.serves(goal) && table.metric() == metric)
                    .then_some(AnsweredBy::Table);
            }
            let table = files.iter().any(|f| {
                matches!(f.holds, Holds::Table | Holds::ShardedTable)
                    && f.metric == metric
                    && f.serves(goal)
            });
            let ready = table || shape.cells() <= self.inner.build_cells;
            return (ready || self.ready_engine(goal).is_some()).then_some(AnsweredBy::Table);
        }
        // Whether there are pattern databases for the goal; `None` where
        // looking for them is an error (databases named for another goal).
        let patterns = || match self.named_patterns() {
            Some(named) => named.serves(goal).then_some(true),
            None => Some(
                files
                    .iter()
                    .any(|f| matches!(f.holds, Holds::Patterns { .. }) && f.serves(goal)),
            ),
        };
        let named_patterns = self.named_patterns().is_some_and(|p| p.shape() == shape);
        if shape.cells() <= MAX_TABLE_CELLS && !named_patterns {
            if let Some(table) = self.named_table() {
                return table.serves(goal).then_some(AnsweredBy::Table);
            }
            let table = files.iter().any(|f| {
                matches!(f.holds, Holds::Table | Holds::ShardedTable)
                    && f.metric == metric
                    && f.serves(goal)
            });
            if table || shape.cells() <= self.inner.build_cells || self.ready_engine(goal).is_some()
            {
                return Some(AnsweredBy::Table);
            }
            return patterns()?.then_some(AnsweredBy::Patterns);
        }
        match patterns()? {
            true => Some(AnsweredBy::Patterns),
            false => (shape.cells() <= MAX_FALLBACK_CELLS).then_some(AnsweredBy::Search),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_runs_from_2x2_to_5x5() {
        let shapes = every_shape();
        assert_eq!(shapes.first().unwrap().to_string(), "2x2");
        assert!(shapes.iter().any(|s| s.to_string() == "2x7"));
        assert_eq!(shapes.last().unwrap().to_string(), "5x5");
    }
}
