//! A full table's own bytes within the shared frame ([`crate::format`]):
//! kind 1, entry encoding 1, its metadata, and the checks that the
//! metadata agrees with itself and with the body.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Metric, Shape};
use crate::format::{self, FileError, Frame, Kind};
use crate::goals::Goals;
use crate::symmetry::GoalClass;

use super::MAX_TABLE_CELLS;

/// Entry encoding 1: 2 bits an entry, the distance mod 3, four a byte,
/// entry `i` in bits `2·(i mod 4)` of byte `i / 4`; `3` marks no state.
pub(crate) const ENCODING_MOD3: u16 = 1;
/// The most hardest states the metadata lists.
pub const MAX_HARDEST: usize = 1000;

/// What a full table's metadata section holds (bincode 2, standard
/// configuration); `FORMAT.md` lists the fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Metadata {
    /// The program that wrote the table, such as `slidedb 0.1.0`.
    pub generator: String,
    /// The goal it answers toward, and the goal its body is laid out by.
    pub goals: Goals,
    /// The number of entries: cells! / 2.
    pub states: u64,
    /// `layers[d]`: how many states are `d` moves from the goal.
    pub layers: Vec<u64>,
    /// The greatest distance: `layers.len() - 1`.
    pub max_distance: u32,
    /// States at the greatest distance (at most [`MAX_HARDEST`]), as boards
    /// toward the indexed goal, in index order.
    pub hardest: Vec<Vec<u8>>,
    /// The metric of the distances ([`crate::goals::metric_byte`]).
    pub metric: u8,
}

/// A full table's bytes, checked: its metadata, its goal's class, and
/// where its body lies.
pub(crate) struct Layout {
    pub metadata: Metadata,
    pub class: GoalClass,
    pub metric: Metric,
    pub body: std::ops::Range<usize>,
    pub body_crc: u32,
}

/// Bytes of body for `states` 2-bit entries.
pub(crate) fn body_len(states: u64) -> u64 {
    states.div_ceil(4)
}

/// Lays out a whole table file.
pub(crate) fn write(metadata: &Metadata, body: &[u8]) -> Vec<u8> {
    format::write(Kind::FullTable, ENCODING_MOD3, metadata, body)
}

/// The bytes of a table file before its body, for a body of `body_len`
/// bytes with CRC-32 `body_crc` written apart.
pub(crate) fn head(metadata: &Metadata, body_len: u64, body_crc: u32) -> Vec<u8> {
    format::head(Kind::FullTable, ENCODING_MOD3, metadata, body_len, body_crc)
}

/// Checks a table's bytes in time independent of the body's size: the
/// frame, then the metadata against itself and the body's length.
pub(crate) fn read(bytes: &[u8]) -> Result<Layout, FileError> {
    let Frame {
        metadata,
        body,
        body_crc,
    } = format::read::<Metadata>(bytes, Kind::FullTable, ENCODING_MOD3)?;
    let class = check(&metadata, body.len() as u64)?;
    let metric = crate::goals::metric_of(metadata.metric)?;
    Ok(Layout {
        metadata,
        class,
        metric,
        body,
        body_crc,
    })
}

/// The metadata agrees with itself and with the body's length; returns the
/// goal's class.
pub(crate) fn check(m: &Metadata, body_bytes: u64) -> Result<GoalClass, FileError> {
    let shape = Shape::new(m.goals.rows as usize, m.goals.cols as usize)
        .map_err(|e| FileError::metadata(format!("goal: size: {e}")))?;
    // No slidedb writes a larger full table (their bodies would be 10 GB
    // and up): such a file, sparse and costing nothing on disk, must not
    // open as if it were one.
    if shape.cells() > MAX_TABLE_CELLS {
        return Err(FileError::metadata(format!(
            "size {shape}: full tables go up to {MAX_TABLE_CELLS} cells"
        )));
    }
    let class = m.goals.class()?;
    crate::goals::metric_of(m.metric)?;
    let indexed = *class.canonical();
    if m.states != shape.table_states() {
        return Err(FileError::metadata(format!(
            "{} states, but a {shape} board has {}",
            m.states,
            shape.states()
        )));
    }
    if body_bytes != body_len(m.states) {
        return Err(FileError::layout(format!(
            "body of {body_bytes} bytes, but {} states need {}",
            m.states,
            body_len(m.states)
        )));
    }
    let sum = m
        .layers
        .iter()
        .try_fold(0u64, |acc, &c| acc.checked_add(c))
        .ok_or_else(|| FileError::metadata("layer counts overflow"))?;
    if sum != m.states || m.layers.first() != Some(&1) || m.layers.contains(&0) {
        return Err(FileError::metadata(format!(
            "layer counts add up to {sum}, not {} (or a layer is empty)",
            m.states
        )));
    }
    if m.max_distance as usize + 1 != m.layers.len() {
        return Err(FileError::metadata(format!(
            "max distance {} but {} layers",
            m.max_distance,
            m.layers.len()
        )));
    }
    let last = *m.layers.last().expect("layers checked non-empty");
    if m.hardest.is_empty() || m.hardest.len() as u64 > last || m.hardest.len() > MAX_HARDEST {
        return Err(FileError::metadata(format!(
            "{} hardest states listed, for a last layer of {last}",
            m.hardest.len()
        )));
    }
    for h in &m.hardest {
        let board = Board::from_tiles(indexed.shape(), h)
            .map_err(|e| FileError::metadata(format!("hardest state: {e}")))?;
        if !board.can_reach(&indexed) {
            return Err(FileError::metadata("a hardest state cannot reach the goal"));
        }
    }
    Ok(class)
}
