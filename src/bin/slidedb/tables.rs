//! Finding, opening and building the tables that boards need.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;
use slidedb::pdb::PatternDb;
use slidedb::symmetry::GoalClass;
use slidedb::{
    Board, Move, Shape, Solution, SolveError, Table, data_dir, default_file_name, generate,
    write_atomic,
};

#[derive(ClapArgs)]
pub struct TableChoice {
    /// Board size as ROWSxCOLS [default: from the goal or the board].
    #[arg(long, value_name = "RxC")]
    pub size: Option<Shape>,
    /// The goal [default: the tiles in order, blank last].
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    pub goal: Option<String>,
    /// The table file [default: $SLIDEDB_DATA or ./data, by size and goal;
    /// built there if missing and the board has at most 9 cells].
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
    /// The pattern databases file, for boards over 12 cells and for
    /// --heuristic pdb [default: the largest for the goal in
    /// $SLIDEDB_DATA or ./data, as slidedb-gen --pdb names them].
    #[arg(long, value_name = "PATH")]
    pub pdb: Option<PathBuf>,
}

/// The bytes of a table: memory-mapped from its file, or built in memory.
pub enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// Tables up to this size have their body checksum checked on every open
/// (every table of up to 10 cells, in microseconds); bigger ones only by
/// `verify`, so that a 60 MB 3x4 table opens in O(1).
const VERIFY_ON_OPEN: usize = 4 << 20;
/// Boards up to this many cells get their table built on first use.
const AUTO_BUILD_CELLS: usize = 9;

/// A goal's table: the table of its class, and how the goal maps onto it.
#[derive(Clone)]
pub struct GoalTable {
    pub table: Arc<Table<Bytes>>,
    pub class: GoalClass,
}

impl GoalTable {
    /// The optimal moves from `board` toward the goal, or `None` if it
    /// cannot reach it.
    pub fn solve_into(&self, board: &Board, moves: &mut Vec<Move>) -> Result<bool, SolveError> {
        if board.shape() != self.class.goal().shape() {
            return Err(SolveError::WrongShape {
                table: self.class.goal().shape(),
                board: board.shape(),
            });
        }
        if self.class.is_canonical() {
            return self.table.solve_into(board, moves);
        }
        let start = moves.len();
        let solvable = self
            .table
            .solve_into(&self.class.to_canonical(board), moves)?;
        self.class.moves_back(&mut moves[start..]);
        Ok(solvable)
    }

    /// The distance from `board` to the goal.
    pub fn distance(&self, board: &Board) -> Result<Option<u32>, SolveError> {
        let mut moves = Vec::new();
        Ok(self
            .solve_into(board, &mut moves)?
            .then_some(moves.len() as u32))
    }
}

/// A goal's pattern databases: those of its class, and how the goal maps
/// onto them.
#[derive(Clone)]
pub struct GoalPatterns {
    pub db: Arc<PatternDb<Bytes>>,
    pub class: GoalClass,
}

impl GoalPatterns {
    /// An optimal solution by IDA* over the databases, moves toward the
    /// goal asked for.
    pub fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        if board.shape() != self.class.goal().shape() {
            return Err(SolveError::WrongShape {
                table: self.class.goal().shape(),
                board: board.shape(),
            });
        }
        let mut found = self.db.solve(&self.class.to_canonical(board))?;
        if let Some(moves) = &mut found.moves {
            self.class.moves_back(moves);
        }
        Ok(found)
    }

    /// The databases' estimate for `board`.
    pub fn estimate(&self, board: &Board) -> u32 {
        self.db.estimate(&self.class.to_canonical(board))
    }
}

/// Finds (or builds) the tables that boards need: one per class of goals.
pub struct Tables {
    /// The goal asked for with --goal, if any.
    pub goal: Option<Board>,
    /// The size in force for reading boards.
    pub size: Option<Shape>,
    /// Loaded so far, by canonical goal.
    loaded: HashMap<Board, Arc<Table<Bytes>>>,
    /// The canonical goal of --table: no other table may be used.
    fixed: Option<Board>,
    /// Check body checksums on open.
    check_body: bool,
    /// Pattern databases found so far (`None`: looked, none), by
    /// canonical goal.
    patterns: HashMap<Board, Option<Arc<PatternDb<Bytes>>>>,
    /// The pattern databases of --pdb.
    fixed_patterns: Option<Arc<PatternDb<Bytes>>>,
    /// Shapes whose hint has been printed.
    hinted: Vec<Shape>,
}

impl Tables {
    /// The tables the options ask for; bodies up to [`VERIFY_ON_OPEN`]
    /// have their checksum checked as they are opened.
    pub fn new(choice: &TableChoice) -> Result<Tables> {
        Tables::opening(choice, true)
    }

    /// Like [`Tables::new`], with the checksum checked on open or not
    /// (`verify` does its own checks, to report them).
    pub fn opening(choice: &TableChoice, check_body: bool) -> Result<Tables> {
        let mut tables = Tables {
            goal: None,
            size: choice.size,
            loaded: HashMap::new(),
            fixed: None,
            check_body,
            patterns: HashMap::new(),
            fixed_patterns: None,
            hinted: Vec::new(),
        };
        if let Some(path) = &choice.pdb {
            let db = open_patterns(path, check_body)?;
            if choice.goal.is_none() && choice.size.is_none() && choice.table.is_none() {
                tables.size = Some(db.shape());
            }
            tables.fixed_patterns = Some(Arc::new(db));
        }
        if let Some(path) = &choice.table {
            let table = open_table(path, check_body)?;
            let canonical = *table.goal();
            if choice.goal.is_none() && choice.size.is_none() {
                tables.size = Some(table.shape());
            }
            tables.loaded.insert(canonical, Arc::new(table));
            tables.fixed = Some(canonical);
        }
        if let Some(text) = &choice.goal {
            let goal =
                Board::parse(text, tables.size).with_context(|| format!("bad goal {text:?}"))?;
            tables.size = Some(goal.shape());
            tables.goal = Some(goal);
        }
        if let (Some(db), Some(size)) = (&tables.fixed_patterns, tables.size) {
            let goal = tables.goal_for(size)?;
            let canonical = *GoalClass::of(&goal).canonical();
            if canonical != *db.goal() {
                bail!(
                    "the pattern databases are for goal {} ({}), which does not serve {size} goal {goal}: build them with slidedb-gen --size {size} --goal \"{goal}\" --pdb SIZES",
                    db.goal(),
                    db.shape()
                );
            }
        }
        if let (Some(fixed), Some(size)) = (tables.fixed, tables.size) {
            let canonical = *GoalClass::of(&tables.goal_for(size)?).canonical();
            if canonical != fixed {
                bail!(
                    "the table is for goal {fixed} ({}), which does not serve {size} goal {}: build its table with slidedb-gen --size {size} --goal \"{}\"",
                    fixed.shape(),
                    tables.goal_for(size)?,
                    tables.goal_for(size)?
                );
            }
        }
        Ok(tables)
    }

    /// The one shape the options name (`--table`, `--size`, `--goal`), or
    /// 3x3.
    pub fn shape(&self) -> Shape {
        match (self.size, self.goal) {
            (Some(s), _) => s,
            (None, Some(g)) => g.shape(),
            (None, None) => Shape::EIGHT,
        }
    }

    /// The goal for boards of `shape`.
    pub fn goal_for(&self, shape: Shape) -> Result<Board> {
        match self.goal {
            Some(goal) if goal.shape() != shape => {
                bail!("the board is {shape} but the goal is {}", goal.shape())
            }
            Some(goal) => Ok(goal),
            None => Ok(Board::solved(shape)),
        }
    }

    /// The table for boards of `shape` (toward their goal), loading or
    /// building its class's table if needed.
    pub fn get(&mut self, shape: Shape) -> Result<GoalTable> {
        let class = GoalClass::of(&self.goal_for(shape)?);
        let canonical = *class.canonical();
        if let Some(t) = self.loaded.get(&canonical) {
            return Ok(GoalTable {
                table: t.clone(),
                class,
            });
        }
        if let Some(fixed) = self.fixed {
            bail!(
                "the board is {shape}, toward goal {}, but the table is for goal {fixed} ({})",
                class.goal(),
                fixed.shape()
            );
        }
        let table = Arc::new(find_or_build(&canonical, self.check_body)?);
        self.loaded.insert(canonical, table.clone());
        Ok(GoalTable { table, class })
    }
}

impl Tables {
    /// Whether --pdb named a pattern databases file for boards of `shape`.
    pub fn named_patterns(&self, shape: Shape) -> bool {
        self.fixed_patterns
            .as_ref()
            .is_some_and(|db| db.shape() == shape)
    }

    /// Prints `hint` to stderr, once per shape in a run.
    pub fn hint_once(&mut self, shape: Shape, hint: String) {
        if !self.hinted.contains(&shape) {
            self.hinted.push(shape);
            say!("{hint}");
        }
    }

    /// The pattern databases for boards of `shape` toward their goal: those
    /// of --pdb, or the largest file for the goal's class in the data
    /// folder; `None` if there is none.
    pub fn patterns(&mut self, shape: Shape) -> Result<Option<GoalPatterns>> {
        let class = GoalClass::of(&self.goal_for(shape)?);
        let canonical = *class.canonical();
        if let Some(db) = &self.fixed_patterns {
            if *db.goal() != canonical {
                bail!(
                    "the pattern databases are for goal {} ({}), which does not serve {shape} goal {}: build them with slidedb-gen --size {shape} --goal \"{}\" --pdb SIZES",
                    db.goal(),
                    db.shape(),
                    class.goal(),
                    class.goal()
                );
            }
            return Ok(Some(GoalPatterns {
                db: db.clone(),
                class,
            }));
        }
        if !self.patterns.contains_key(&canonical) {
            let found = match find_patterns(&canonical)? {
                Some(path) => Some(Arc::new(open_patterns(&path, self.check_body)?)),
                None => None,
            };
            self.patterns.insert(canonical, found);
        }
        Ok(self.patterns[&canonical]
            .clone()
            .map(|db| GoalPatterns { db, class }))
    }
}

/// The largest pattern databases file for `goal` in the data folder.
fn find_patterns(goal: &Board) -> Result<Option<PathBuf>> {
    let prefix = slidedb::store::pattern_file_prefix(goal);
    let suffix = format!(".{}", slidedb::store::EXTENSION);
    let dir = data_dir();
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", dir.display())),
    };
    let mut best: Option<(u64, PathBuf)> = None;
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        if file.starts_with(&prefix) && file.ends_with(&suffix) {
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if best.as_ref().is_none_or(|(s, _)| size > *s) {
                best = Some((size, entry.path()));
            }
        }
    }
    Ok(best.map(|(_, path)| path))
}

/// Opens a pattern databases file (memory-mapped), checking its body's
/// checksum when small.
pub fn open_patterns(path: &Path, check_body: bool) -> Result<PatternDb<Bytes>> {
    let db = PatternDb::open_path(path)
        .with_context(|| format!("pattern databases {}", path.display()))?;
    if check_body && db.as_bytes().len() <= VERIFY_ON_OPEN {
        db.verify()
            .with_context(|| format!("pattern databases {}", path.display()))?;
    }
    Ok(PatternDb::new(Bytes::Mapped(db.into_inner())).expect("already checked"))
}

pub fn open_table(path: &Path, check_body: bool) -> Result<Table<Bytes>> {
    let table = Table::open_path(path).with_context(|| format!("table {}", path.display()))?;
    if check_body && table.as_bytes().len() <= VERIFY_ON_OPEN {
        table
            .verify()
            .with_context(|| format!("table {}", path.display()))?;
    }
    // Re-wrap the map so mapped and built tables are one type.
    let map = table.into_inner();
    Ok(Table::new(Bytes::Mapped(map)).expect("already checked"))
}

/// The table for `goal` from the data folder; built and saved there if
/// missing and small.
fn find_or_build(goal: &Board, check_body: bool) -> Result<Table<Bytes>> {
    let path = data_dir().join(default_file_name(goal));
    if path.exists() {
        return open_table(&path, check_body);
    }
    let shape = goal.shape();
    if shape.cells() > slidedb::MAX_TABLE_CELLS {
        bail!(
            "no full table can be built for {shape}: full tables go up to {} cells; {shape} boards are solved with pattern databases (slidedb-gen --size {shape} --pdb SIZES)",
            slidedb::MAX_TABLE_CELLS
        );
    }
    if shape.cells() > AUTO_BUILD_CELLS {
        bail!(
            "no table for {shape} goal {goal} at {}: build it with\n    slidedb-gen --size {shape} --goal \"{goal}\" --out {}",
            path.display(),
            path.display()
        );
    }
    let table = generate(goal, |_| {})?;
    let saved = std::fs::create_dir_all(data_dir())
        .and_then(|()| write_atomic(&path, table.as_bytes(), false));
    match saved {
        Ok(()) => say!(
            "slidedb: built the {shape} table for goal {goal} and saved it to {}",
            path.display()
        ),
        Err(e) => say!(
            "slidedb: built the {shape} table for goal {goal} in memory (could not save it to {}: {e})",
            path.display()
        ),
    }
    Ok(Table::new(Bytes::Owned(table.into_inner())).expect("just built"))
}
