//! The goals every file of the family records in its metadata, right
//! after the generator: the goal the file was built for and answers
//! toward, and the goal its body is laid out by (the canonical goal of the
//! first one's class). Both kinds ([`crate::table`], [`crate::pdb`]) embed
//! [`Goals`] and check it the same way.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Metric, Shape};
use crate::format::FileError;
use crate::symmetry::GoalClass;

/// The goals every file of the family records, in this order, after the
/// generator: the goal it was built for and answers toward, and the goal
/// its body is laid out by. (bincode writes a nested struct's fields in
/// place: these are the metadata's fields `rows` to `indexed_goal` in
/// `FORMAT.md`.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Goals {
    /// The goal's rows.
    pub rows: u8,
    /// The goal's columns.
    pub cols: u8,
    /// The goal the file was built for: its cells in reading order, 0 for
    /// the blank.
    pub goal: Vec<u8>,
    /// The rows of the indexed goal (the goal's class's canonical goal).
    pub indexed_rows: u8,
    /// Its columns.
    pub indexed_cols: u8,
    /// The goal the body is laid out by: the canonical goal of the goal's
    /// class, cells in reading order.
    pub indexed_goal: Vec<u8>,
}

impl Goals {
    /// The goals of a file built for `class`'s goal.
    pub fn new(class: &GoalClass) -> Goals {
        let (goal, indexed) = (class.goal(), class.canonical());
        Goals {
            rows: goal.shape().rows() as u8,
            cols: goal.shape().cols() as u8,
            goal: goal.tiles().collect(),
            indexed_rows: indexed.shape().rows() as u8,
            indexed_cols: indexed.shape().cols() as u8,
            indexed_goal: indexed.tiles().collect(),
        }
    }

    /// The goal's class, checked: both goals are boards, and the indexed
    /// goal is the canonical goal of the goal's class.
    pub fn class(&self) -> Result<GoalClass, FileError> {
        let goal = board_of(self.rows, self.cols, &self.goal, "goal")?;
        let indexed = board_of(
            self.indexed_rows,
            self.indexed_cols,
            &self.indexed_goal,
            "indexed goal",
        )?;
        let class = GoalClass::of(&goal);
        if class.canonical() != &indexed {
            return Err(FileError::metadata(format!(
                "the indexed goal {indexed} ({}) is not the canonical goal {} of goal {goal}",
                indexed.shape(),
                class.canonical()
            )));
        }
        Ok(class)
    }
}

/// The byte every kind's metadata ends with (format version 3): the
/// metric its distances are in, 0 for the single-tile metric and 1 for the
/// multi-tile metric. (Files of version 2 read as 0.)
pub(crate) fn metric_byte(metric: Metric) -> u8 {
    match metric {
        Metric::Single => 0,
        Metric::Multi => 1,
    }
}

/// The metric a metadata's last byte names, or a metadata error.
pub(crate) fn metric_of(byte: u8) -> Result<Metric, FileError> {
    match byte {
        0 => Ok(Metric::Single),
        1 => Ok(Metric::Multi),
        other => Err(FileError::metadata(format!(
            "unknown metric {other} (0 is the single-tile metric, 1 the multi-tile metric)"
        ))),
    }
}

/// The board of `rows` × `cols` with `cells`, or a metadata error naming
/// `what`.
fn board_of(rows: u8, cols: u8, cells: &[u8], what: &str) -> Result<Board, FileError> {
    let shape = Shape::new(rows as usize, cols as usize)
        .map_err(|e| FileError::metadata(format!("{what}: size: {e}")))?;
    Board::from_tiles(shape, cells).map_err(|e| FileError::metadata(format!("{what}: {e}")))
}
