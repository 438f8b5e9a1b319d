//! The table file's bytes: a fixed 64-byte header, bincode metadata, and
//! the body of 2-bit entries. `FORMAT.md` specifies every byte; this module
//! is its only reader and writer.
//!
//! Nothing read from a file is trusted before it is checked: every offset
//! and length goes through checked arithmetic and is compared with the
//! real length of the bytes before anything is sliced.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Shape};
use crate::generate::MAX_TABLE_CELLS;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"SLIDEDB\0";
/// The endianness mark, stored little-endian: bytes `FF FE`.
pub const ENDIAN_MARK: u16 = 0xFEFF;
/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// The length of the fixed header.
pub const HEADER_LEN: usize = 64;
/// The body starts at a multiple of this.
pub const BODY_ALIGN: usize = 64;
/// Table kind 1: a full distance table over every state.
pub const KIND_FULL: u16 = 1;
/// Table kind 2: an additive pattern database, one byte per placement of
/// each group's tiles.
pub const KIND_PATTERN: u16 = 2;
/// Entry encoding 1: 2 bits an entry, the distance mod 3, four a byte,
/// entry `i` in bits `2·(i mod 4)` of byte `i / 4`; `3` marks no state.
pub const ENCODING_MOD3: u16 = 1;
/// Entry encoding 2: one byte an entry, the distance itself.
pub const ENCODING_BYTE: u16 = 2;
/// The most metadata bytes a reader accepts.
pub const MAX_METADATA_LEN: u64 = 1 << 20;
/// The most hardest states the metadata lists.
pub const MAX_HARDEST: usize = 1000;

/// Which part of a file a checksum covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Bytes 0..60 of the header.
    Header,
    /// The bincode metadata.
    Metadata,
    /// The entries.
    Body,
}

impl std::fmt::Display for Section {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Section::Header => "header",
            Section::Metadata => "metadata",
            Section::Body => "body",
        })
    }
}

/// Why bytes are not a usable table. Each variant says what was found and
/// what to do.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Too few bytes for what the header promises.
    #[error(
        "the table is truncated: {got} bytes, but {expected} are needed; regenerate it with slidedb-gen --force"
    )]
    Truncated {
        /// Bytes needed.
        expected: u64,
        /// Bytes present.
        got: u64,
    },
    /// More bytes than the header accounts for.
    #[error(
        "the table has {got} bytes, but its header accounts for {expected}: the file is damaged; regenerate it"
    )]
    TrailingBytes {
        /// Bytes the header accounts for.
        expected: u64,
        /// Bytes present.
        got: u64,
    },
    /// The first bytes are not the table magic.
    #[error(
        "not a slidedb table (its first bytes are not {:?}): check the path",
        "SLIDEDB\\0"
    )]
    BadMagic,
    /// The endianness mark is wrong.
    #[error(
        "bad endianness mark {got:#06x} (expected {ENDIAN_MARK:#06x}): the file is damaged; regenerate it"
    )]
    Endianness {
        /// The mark read.
        got: u16,
    },
    /// A format version this crate does not read.
    #[error(
        "table format version {got}, but this slidedb reads version {expected}: regenerate the table with this slidedb-gen (--force)"
    )]
    Version {
        /// The version this crate reads.
        expected: u16,
        /// The file's version.
        got: u16,
    },
    /// A header length other than [`HEADER_LEN`].
    #[error("header length {got}, expected {expected}: the file is damaged; regenerate it")]
    HeaderLength {
        /// [`HEADER_LEN`].
        expected: u32,
        /// The length read.
        got: u32,
    },
    /// A checksum does not match.
    #[error(
        "the {section} checksum does not match (stored {stored:#010x}, computed {computed:#010x}): the file is damaged; regenerate it"
    )]
    Checksum {
        /// The part that is damaged.
        section: Section,
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the bytes.
        computed: u32,
    },
    /// A kind of table this crate does not know.
    #[error("unknown table kind {got}: made by a newer slidedb? regenerate it")]
    Kind {
        /// The kind read.
        got: u16,
    },
    /// A file of the other kind: a pattern database where a full table was
    /// wanted, or the reverse.
    #[error("this file is {got}, not {expected}: check the path (pattern databases are for --pdb)")]
    WrongKind {
        /// What was wanted.
        expected: &'static str,
        /// What the file is.
        got: &'static str,
    },
    /// An entry encoding this crate does not know.
    #[error("unknown entry encoding {got}: made by a newer slidedb? regenerate it")]
    Encoding {
        /// The encoding read.
        got: u16,
    },
    /// Offsets and lengths that do not describe a valid layout.
    #[error("bad layout: {what}: the file is damaged; regenerate it")]
    Layout {
        /// What is wrong.
        what: String,
    },
    /// Metadata that is not valid bincode, or that contradicts itself or
    /// the header.
    #[error("bad metadata: {what}: the file is damaged; regenerate it")]
    Metadata {
        /// What is wrong.
        what: String,
    },
}

/// What the metadata section holds (bincode 2, standard configuration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Metadata {
    /// The program that wrote the table, such as `slidedb 0.1.0`.
    pub generator: String,
    /// Board rows.
    pub rows: u8,
    /// Board columns.
    pub cols: u8,
    /// The goal's cells in reading order, 0 for the blank.
    pub goal: Vec<u8>,
    /// The number of entries: cells! / 2.
    pub states: u64,
    /// `layers[d]`: how many states are `d` moves from the goal.
    pub layers: Vec<u64>,
    /// The greatest distance: `layers.len() - 1`.
    pub max_distance: u32,
    /// States at the greatest distance (at most [`MAX_HARDEST`]), each as
    /// its cells, in index order.
    pub hardest: Vec<Vec<u8>>,
}

/// What a pattern database's metadata section holds (bincode 2, standard
/// configuration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PatternMetadata {
    /// The program that wrote the file.
    pub generator: String,
    /// Board rows.
    pub rows: u8,
    /// Board columns.
    pub cols: u8,
    /// The goal's cells in reading order, 0 for the blank.
    pub goal: Vec<u8>,
    /// The groups of tiles, each ascending; the body holds their entries
    /// in this order.
    pub groups: Vec<Vec<u8>>,
    /// `layers[g][d]`: placements of group `g` whose entry is `d`.
    pub layers: Vec<Vec<u64>>,
}

/// The fixed header, as read or to be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub kind: u16,
    pub encoding: u16,
    pub metadata_crc: u32,
    pub metadata_offset: u64,
    pub metadata_len: u64,
    pub body_offset: u64,
    pub body_len: u64,
    pub body_crc: u32,
}

/// A checked view of a table's bytes: where each section lies.
pub(crate) struct Layout<M = Metadata> {
    pub header: Header,
    pub metadata: M,
    pub goal: Board,
    pub body: std::ops::Range<usize>,
}

/// What one kind of file is called in messages.
fn kind_name(kind: u16) -> &'static str {
    match kind {
        KIND_FULL => "a full distance table",
        _ => "a pattern database",
    }
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ MAX_METADATA_LEN as usize }>()
}

/// Bytes of body for `states` 2-bit entries.
pub(crate) fn body_len(states: u64) -> u64 {
    states.div_ceil(4)
}

/// Lays out a whole table file: header, metadata, zero padding, body.
pub(crate) fn encode(metadata: &Metadata, body: &[u8]) -> Vec<u8> {
    encode_kind(KIND_FULL, ENCODING_MOD3, metadata, body)
}

/// Lays out a whole pattern database file.
pub(crate) fn encode_pattern(metadata: &PatternMetadata, body: &[u8]) -> Vec<u8> {
    encode_kind(KIND_PATTERN, ENCODING_BYTE, metadata, body)
}

fn encode_kind<M: Serialize>(kind: u16, encoding: u16, metadata: &M, body: &[u8]) -> Vec<u8> {
    let meta = bincode::serde::encode_to_vec(metadata, bincode_config())
        .expect("metadata of a generated table encodes");
    let metadata_offset = HEADER_LEN;
    let body_offset = (metadata_offset + meta.len()).next_multiple_of(BODY_ALIGN);
    let header = Header {
        kind,
        encoding,
        metadata_crc: crc32fast::hash(&meta),
        metadata_offset: metadata_offset as u64,
        metadata_len: meta.len() as u64,
        body_offset: body_offset as u64,
        body_len: body.len() as u64,
        body_crc: crc32fast::hash(body),
    };
    let mut out = Vec::with_capacity(body_offset + body.len());
    out.extend_from_slice(&header_bytes(&header));
    out.extend_from_slice(&meta);
    out.resize(body_offset, 0);
    out.extend_from_slice(body);
    out
}

fn header_bytes(h: &Header) -> [u8; HEADER_LEN] {
    let mut b = [0u8; HEADER_LEN];
    b[0..8].copy_from_slice(&MAGIC);
    b[8..10].copy_from_slice(&ENDIAN_MARK.to_le_bytes());
    b[10..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    b[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    b[16..18].copy_from_slice(&h.kind.to_le_bytes());
    b[18..20].copy_from_slice(&h.encoding.to_le_bytes());
    b[20..24].copy_from_slice(&h.metadata_crc.to_le_bytes());
    b[24..32].copy_from_slice(&h.metadata_offset.to_le_bytes());
    b[32..40].copy_from_slice(&h.metadata_len.to_le_bytes());
    b[40..48].copy_from_slice(&h.body_offset.to_le_bytes());
    b[48..56].copy_from_slice(&h.body_len.to_le_bytes());
    b[56..60].copy_from_slice(&h.body_crc.to_le_bytes());
    let crc = crc32fast::hash(&b[..60]);
    b[60..64].copy_from_slice(&crc.to_le_bytes());
    b
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().expect("2 bytes"))
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn layout_error(what: impl Into<String>) -> TableError {
    TableError::Layout { what: what.into() }
}
fn metadata_error(what: impl Into<String>) -> TableError {
    TableError::Metadata { what: what.into() }
}

/// Checks everything but the body checksum, in time independent of the
/// body's size: magic, endianness, version, header checksum, layout with
/// checked arithmetic, exact file length, zero padding, metadata checksum,
/// and that the metadata agrees with itself and the header.
pub(crate) fn decode(bytes: &[u8]) -> Result<Layout, TableError> {
    let (header, metadata, body) = decode_frame(bytes, KIND_FULL, ENCODING_MOD3)?;
    let goal = check_metadata(&metadata, header.body_len)?;
    Ok(Layout {
        header,
        metadata,
        goal,
        body,
    })
}

/// [`decode`] for a pattern database: the same checks, then the pattern
/// metadata's (the groups partition the tiles; the body holds exactly
/// their entries).
pub(crate) fn decode_pattern(bytes: &[u8]) -> Result<Layout<PatternMetadata>, TableError> {
    let (header, metadata, body) = decode_frame(bytes, KIND_PATTERN, ENCODING_BYTE)?;
    let goal = check_pattern_metadata(&metadata, header.body_len)?;
    Ok(Layout {
        header,
        metadata,
        goal,
        body,
    })
}

/// Everything but the kind's own metadata checks.
fn decode_frame<M: serde::de::DeserializeOwned>(
    bytes: &[u8],
    kind: u16,
    encoding: u16,
) -> Result<(Header, M, std::ops::Range<usize>), TableError> {
    let got = bytes.len() as u64;
    let truncated = |expected: u64| TableError::Truncated { expected, got };
    if bytes.len() < 12 {
        if !MAGIC.starts_with(&bytes[..bytes.len().min(8)]) {
            return Err(TableError::BadMagic);
        }
        return Err(truncated(HEADER_LEN as u64));
    }
    if bytes[0..8] != MAGIC {
        return Err(TableError::BadMagic);
    }
    let mark = u16_at(bytes, 8);
    if mark != ENDIAN_MARK {
        return Err(TableError::Endianness { got: mark });
    }
    let version = u16_at(bytes, 10);
    if version != FORMAT_VERSION {
        return Err(TableError::Version {
            expected: FORMAT_VERSION,
            got: version,
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(truncated(HEADER_LEN as u64));
    }
    let stored = u32_at(bytes, 60);
    let computed = crc32fast::hash(&bytes[..60]);
    if stored != computed {
        return Err(TableError::Checksum {
            section: Section::Header,
            stored,
            computed,
        });
    }
    let header_len = u32_at(bytes, 12);
    if header_len as usize != HEADER_LEN {
        return Err(TableError::HeaderLength {
            expected: HEADER_LEN as u32,
            got: header_len,
        });
    }
    let header = Header {
        kind: u16_at(bytes, 16),
        encoding: u16_at(bytes, 18),
        metadata_crc: u32_at(bytes, 20),
        metadata_offset: u64_at(bytes, 24),
        metadata_len: u64_at(bytes, 32),
        body_offset: u64_at(bytes, 40),
        body_len: u64_at(bytes, 48),
        body_crc: u32_at(bytes, 56),
    };
    if header.kind != kind {
        if matches!(header.kind, KIND_FULL | KIND_PATTERN) {
            return Err(TableError::WrongKind {
                expected: kind_name(kind),
                got: kind_name(header.kind),
            });
        }
        return Err(TableError::Kind { got: header.kind });
    }
    if header.encoding != encoding {
        return Err(TableError::Encoding {
            got: header.encoding,
        });
    }
    if header.metadata_offset != HEADER_LEN as u64 {
        return Err(layout_error(format!(
            "metadata offset {} (must be {HEADER_LEN})",
            header.metadata_offset
        )));
    }
    if header.metadata_len > MAX_METADATA_LEN {
        return Err(layout_error(format!(
            "metadata length {} (at most {MAX_METADATA_LEN})",
            header.metadata_len
        )));
    }
    let metadata_end = header.metadata_offset + header.metadata_len; // both small
    if header.body_offset != metadata_end.next_multiple_of(BODY_ALIGN as u64) {
        return Err(layout_error(format!(
            "body offset {} (must be {}, the end of the metadata rounded up to {BODY_ALIGN})",
            header.body_offset,
            metadata_end.next_multiple_of(BODY_ALIGN as u64)
        )));
    }
    let end = header
        .body_offset
        .checked_add(header.body_len)
        .ok_or_else(|| layout_error("body length overflows"))?;
    if got < end {
        return Err(truncated(end));
    }
    if got > end {
        return Err(TableError::TrailingBytes { expected: end, got });
    }
    // From here every offset is within `bytes`, whose length fits usize.
    let meta_bytes = &bytes[HEADER_LEN..metadata_end as usize];
    let computed = crc32fast::hash(meta_bytes);
    if computed != header.metadata_crc {
        return Err(TableError::Checksum {
            section: Section::Metadata,
            stored: header.metadata_crc,
            computed,
        });
    }
    if bytes[metadata_end as usize..header.body_offset as usize]
        .iter()
        .any(|&b| b != 0)
    {
        return Err(layout_error("padding before the body is not zero"));
    }
    let (metadata, used): (M, usize) =
        bincode::serde::decode_from_slice(meta_bytes, bincode_config())
            .map_err(|e| metadata_error(e.to_string()))?;
    if used != meta_bytes.len() {
        return Err(metadata_error(format!(
            "{} bytes after the metadata",
            meta_bytes.len() - used
        )));
    }
    let body = header.body_offset as usize..end as usize;
    Ok((header, metadata, body))
}

/// The pattern metadata agrees with itself and with the body's length;
/// returns the goal.
fn check_pattern_metadata(m: &PatternMetadata, body_bytes: u64) -> Result<Board, TableError> {
    let shape = Shape::new(m.rows as usize, m.cols as usize)
        .map_err(|e| metadata_error(format!("size: {e}")))?;
    let goal =
        Board::from_tiles(shape, &m.goal).map_err(|e| metadata_error(format!("goal: {e}")))?;
    // The body is laid out by the groups as written: they must already be
    // in the order the partition would put them in.
    if let Some(g) = m.groups.iter().find(|g| g.windows(2).any(|w| w[0] >= w[1])) {
        return Err(metadata_error(format!("group {g:?} is not ascending")));
    }
    crate::pdb::Partition::new(shape, m.groups.clone())
        .map_err(|e| metadata_error(format!("groups: {e}")))?;
    if m.layers.len() != m.groups.len() {
        return Err(metadata_error(format!(
            "{} groups but {} lists of layers",
            m.groups.len(),
            m.layers.len()
        )));
    }
    let mut total = 0u64;
    for (group, layers) in m.groups.iter().zip(&m.layers) {
        // At most 16 cells and 8 tiles a group (checked above): no overflow.
        let entries = crate::rank::placement_count(shape.cells(), group.len());
        // One-byte entries: at most 256 values.
        if layers.len() > 256 {
            return Err(metadata_error(format!(
                "group {group:?}: {} layer counts, but entries are bytes (at most 256)",
                layers.len()
            )));
        }
        if layers.first() != Some(&1) {
            return Err(metadata_error(format!(
                "group {group:?}: the layer counts do not start with 1 (the goal's placement)"
            )));
        }
        let sum = layers
            .iter()
            .try_fold(0u64, |acc, &c| acc.checked_add(c))
            .ok_or_else(|| metadata_error("layer counts overflow"))?;
        if sum != entries {
            return Err(metadata_error(format!(
                "group {group:?}: layer counts add up to {sum}, not {entries}"
            )));
        }
        total += entries;
    }
    if body_bytes != total {
        return Err(layout_error(format!(
            "body of {body_bytes} bytes, but the groups have {total} entries"
        )));
    }
    Ok(goal)
}

/// The metadata agrees with itself and with the body's length; returns the
/// goal.
fn check_metadata(m: &Metadata, body_bytes: u64) -> Result<Board, TableError> {
    let shape = Shape::new(m.rows as usize, m.cols as usize)
        .map_err(|e| metadata_error(format!("size: {e}")))?;
    // No slidedb writes a larger full table (their bodies would be 10 GB
    // and up): such a file, sparse and costing nothing on disk, must not
    // open as if it were one.
    if shape.cells() > MAX_TABLE_CELLS {
        return Err(metadata_error(format!(
            "size {shape}: full tables go up to {MAX_TABLE_CELLS} cells"
        )));
    }
    let goal =
        Board::from_tiles(shape, &m.goal).map_err(|e| metadata_error(format!("goal: {e}")))?;
    if m.states != shape.states() {
        return Err(metadata_error(format!(
            "{} states, but a {shape} board has {}",
            m.states,
            shape.states()
        )));
    }
    if body_bytes != body_len(m.states) {
        return Err(layout_error(format!(
            "body of {body_bytes} bytes, but {} states need {}",
            m.states,
            body_len(m.states)
        )));
    }
    let sum = m
        .layers
        .iter()
        .try_fold(0u64, |acc, &c| acc.checked_add(c))
        .ok_or_else(|| metadata_error("layer counts overflow"))?;
    if sum != m.states || m.layers.first() != Some(&1) || m.layers.contains(&0) {
        return Err(metadata_error(format!(
            "layer counts add up to {sum}, not {} (or a layer is empty)",
            m.states
        )));
    }
    if m.max_distance as usize + 1 != m.layers.len() {
        return Err(metadata_error(format!(
            "max distance {} but {} layers",
            m.max_distance,
            m.layers.len()
        )));
    }
    let last = *m.layers.last().expect("layers checked non-empty");
    if m.hardest.is_empty() || m.hardest.len() as u64 > last || m.hardest.len() > MAX_HARDEST {
        return Err(metadata_error(format!(
            "{} hardest states listed, for a last layer of {last}",
            m.hardest.len()
        )));
    }
    for h in &m.hardest {
        let board = Board::from_tiles(shape, h)
            .map_err(|e| metadata_error(format!("hardest state: {e}")))?;
        if !board.can_reach(&goal) {
            return Err(metadata_error("a hardest state cannot reach the goal"));
        }
    }
    Ok(goal)
}
