//! Pattern databases' own bytes within the shared frame
//! ([`crate::format`]): kind 2, entry encoding 2 (plain entries) or 1
//! (blank-aware entries), their metadata, and the checks that it agrees
//! with itself and with the body.

use serde::{Deserialize, Serialize};

use crate::format::{self, FileError, Frame, Kind};
use crate::goals::Goals;
use crate::rank::placement_count;
use crate::symmetry::GoalClass;

use super::{EntryKind, Partition};

/// Entry encoding 2: one byte an entry, the value itself
/// ([`EntryKind::Plain`]).
pub(crate) const ENCODING_BYTE: u16 = 2;

/// Entry encoding 1: two bits an entry, the distance modulo 3, four a
/// byte ([`EntryKind::BlankAware`]).
pub(crate) const ENCODING_BLANK_AWARE: u16 = 1;

/// The entry encoding of `entries`.
pub(crate) fn encoding(entries: EntryKind) -> u16 {
    match entries {
        EntryKind::Plain => ENCODING_BYTE,
        EntryKind::BlankAware => ENCODING_BLANK_AWARE,
    }
}

/// How many entries a group of `k` tiles has on `n` cells, and how many
/// bytes they take.
pub(crate) fn group_len(entries: EntryKind, n: usize, k: usize) -> (u64, u64) {
    let placements = placement_count(n, k);
    match entries {
        EntryKind::Plain => (placements, placements),
        EntryKind::BlankAware => {
            let all = placements * (n - k) as u64;
            (all, all.div_ceil(4))
        }
    }
}

/// What a pattern databases file's metadata section holds (bincode 2,
/// standard configuration); `FORMAT.md` lists the fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Metadata {
    /// The program that wrote the file.
    pub generator: String,
    /// The goal they estimate toward, and the goal the body is laid out
    /// by.
    pub goals: Goals,
    /// The groups of tiles, named as in the indexed goal, each ascending;
    /// the body holds their entries in this order.
    pub groups: Vec<Vec<u8>>,
    /// `layers[g][d]`: entries of group `g` whose distance is `d`.
    pub layers: Vec<Vec<u64>>,
    /// The metric of the entries ([`crate::goals::metric_byte`]).
    pub metric: u8,
}

/// Pattern databases' bytes, checked.
pub(crate) struct Layout {
    pub metadata: Metadata,
    pub entries: EntryKind,
    pub class: GoalClass,
    pub metric: crate::board::Metric,
    /// The groups, named as in the indexed goal.
    pub partition: Partition,
    pub body: std::ops::Range<usize>,
    pub body_crc: u32,
}

/// Lays out a whole pattern databases file.
pub(crate) fn write(metadata: &Metadata, entries: EntryKind, body: &[u8]) -> Vec<u8> {
    format::write(Kind::PatternDatabases, encoding(entries), metadata, body)
}

/// The bytes of a pattern databases file before its body, for a body of
/// `body_len` bytes with CRC-32 `body_crc` written apart.
pub(crate) fn head(metadata: &Metadata, body_len: u64, body_crc: u32) -> Vec<u8> {
    format::head(
        Kind::PatternDatabases,
        ENCODING_BYTE,
        metadata,
        body_len,
        body_crc,
    )
}

/// Checks pattern databases' bytes in time independent of the body's
/// size: the frame, then the metadata (the groups partition the tiles; the
/// body holds exactly their entries).
pub(crate) fn read(bytes: &[u8]) -> Result<Layout, FileError> {
    let entries = match format::encoding_of(bytes) {
        Some(ENCODING_BLANK_AWARE) => EntryKind::BlankAware,
        _ => EntryKind::Plain,
    };
    let Frame {
        metadata: m,
        body,
        body_crc,
    } = format::read::<Metadata>(bytes, Kind::PatternDatabases, encoding(entries))?;
    let class = m.goals.class()?;
    let metric = crate::goals::metric_of(m.metric)?;
    let shape = class.canonical().shape();
    // The body is laid out by the groups as written: they must already be
    // in the order the partition would put them in.
    if let Some(g) = m.groups.iter().find(|g| g.windows(2).any(|w| w[0] >= w[1])) {
        return Err(FileError::metadata(format!("group {g:?} is not ascending")));
    }
    let partition = Partition::new(shape, m.groups.clone())
        .map_err(|e| FileError::metadata(format!("groups: {e}")))?;
    if m.layers.len() != m.groups.len() {
        return Err(FileError::metadata(format!(
            "{} groups but {} lists of layers",
            m.groups.len(),
            m.layers.len()
        )));
    }
    let mut total = 0u64;
    for (group, layers) in m.groups.iter().zip(&m.layers) {
        // At most 25 cells and 8 tiles a group (checked above): no overflow.
        let (count, bytes) = group_len(entries, shape.cells(), group.len());
        // One-byte entries: at most 256 values.
        if layers.len() > 256 {
            return Err(FileError::metadata(format!(
                "group {group:?}: {} layer counts, but entries are bytes (at most 256)",
                layers.len()
            )));
        }
        // Plain: the goal's placement alone is 0 moves away; blank-aware:
        // the goal's placement with the blank anywhere in the goal's
        // region, at least one cell.
        let home = layers.first().copied().unwrap_or(0);
        if entries == EntryKind::Plain && home != 1 || home == 0 {
            return Err(FileError::metadata(format!(
                "group {group:?}: the layer counts do not start with {} (the goal's placement)",
                match entries {
                    EntryKind::Plain => "1",
                    EntryKind::BlankAware => "at least 1",
                }
            )));
        }
        let sum = layers
            .iter()
            .try_fold(0u64, |acc, &c| acc.checked_add(c))
            .ok_or_else(|| FileError::metadata("layer counts overflow"))?;
        if sum != count {
            return Err(FileError::metadata(format!(
                "group {group:?}: layer counts add up to {sum}, not {count}"
            )));
        }
        total += bytes;
    }
    if body.len() as u64 != total {
        return Err(FileError::layout(format!(
            "body of {} bytes, but the groups' entries take {total}",
            body.len()
        )));
    }
    Ok(Layout {
        metadata: m,
        entries,
        class,
        metric,
        partition,
        body,
        body_crc,
    })
}
