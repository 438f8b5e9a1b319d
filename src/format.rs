//! The frame every slidedb file shares: a fixed 64-byte header (magic,
//! endianness mark, version, kind, entry encoding, section offsets and
//! lengths, three CRC-32s), a metadata section, zero padding and a body.
//! `FORMAT.md` specifies every byte.
//!
//! The frame knows nothing of what a kind's metadata or body mean: each
//! kind ([`crate::table`], [`crate::pdb`]) encodes its own metadata, checks
//! it against its body, and hands the frame bytes. Nothing read from a file
//! is trusted before it is checked: every offset and length goes through
//! checked arithmetic and is compared with the real length of the bytes
//! before anything is sliced.

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

mod faults;

pub use faults::FileFault;

/// The first eight bytes of every file.
pub(crate) const MAGIC: [u8; 8] = *b"SLIDEDB\0";
/// The endianness mark, stored little-endian: bytes `FF FE`.
pub(crate) const ENDIAN_MARK: u16 = 0xFEFF;
/// The format version this crate writes. Version 2 records, in every
/// file, the goal it was built for beside the goal its body is indexed by;
/// version 3 also the metric its distances are in, one byte at the end of
/// every kind's metadata.
pub(crate) const FORMAT_VERSION: u16 = 3;

/// The oldest format version this crate reads: files of version 2 read as
/// version 3 with their metadata's last byte, the metric, 0 (the
/// single-tile metric), but for the checkpoints of a build, which only the
/// program that wrote them goes on from.
pub(crate) const OLDEST_VERSION: u16 = 2;
/// The length of the fixed header.
pub(crate) const HEADER_LEN: usize = 64;
/// The body starts at a multiple of this.
pub(crate) const BODY_ALIGN: usize = 64;
/// The most metadata bytes a reader accepts.
pub(crate) const MAX_METADATA_LEN: u64 = 1 << 20;

/// The kinds of file in the family, as the header's kind field names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// Kind 1: a full distance table over every board that reaches a goal.
    FullTable,
    /// Kind 2: additive pattern databases, one byte per placement of each
    /// group's tiles.
    PatternDatabases,
    /// Kind 3: the boards of a full table's rare layers, as indexes, kept
    /// beside the table to draw boards at rare distances.
    RareLayers,
    /// Kind 4: a checkpoint of a full table's build, from which
    /// [`build_file`](crate::build::build_file) goes on after a stop.
    BuildCheckpoint,
    /// Kind 5: one worker's part of a table a distributed build wrote.
    Shard,
    /// Kind 6: the list of a sharded table's shards.
    ShardManifest,
    /// Kind 7: a checkpoint of one worker's part of a distributed build.
    WorkerCheckpoint,
}

impl Kind {
    /// The number stored in the header.
    pub(crate) fn code(self) -> u16 {
        match self {
            Kind::FullTable => 1,
            Kind::PatternDatabases => 2,
            Kind::RareLayers => 3,
            Kind::BuildCheckpoint => 4,
            Kind::Shard => 5,
            Kind::ShardManifest => 6,
            Kind::WorkerCheckpoint => 7,
        }
    }

    /// The kind a header number names, if any.
    pub(crate) fn from_code(code: u16) -> Option<Kind> {
        match code {
            1 => Some(Kind::FullTable),
            2 => Some(Kind::PatternDatabases),
            3 => Some(Kind::RareLayers),
            4 => Some(Kind::BuildCheckpoint),
            5 => Some(Kind::Shard),
            6 => Some(Kind::ShardManifest),
            7 => Some(Kind::WorkerCheckpoint),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::FullTable => "a full distance table",
            Kind::PatternDatabases => "a pattern databases file",
            Kind::RareLayers => "a list of a table's rare layers",
            Kind::BuildCheckpoint => "a checkpoint of a table's build",
            Kind::Shard => "a shard of a table",
            Kind::ShardManifest => "a sharded table's manifest",
            Kind::WorkerCheckpoint => "a checkpoint of a distributed build's worker",
        })
    }
}

/// Which part of a file a checksum covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Section {
    /// Bytes 0..60 of the header.
    Header,
    /// The metadata.
    Metadata,
    /// The entries.
    Body,
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Section::Header => "header",
            Section::Metadata => "metadata",
            Section::Body => "body",
        })
    }
}

/// Why bytes are not a usable file of the kind asked for. Its message says
/// what was found ([`FileError::fault`]) and then, once, what to do
/// ([`FileError::advice`]); an error that wraps it with advice of its own
/// shows only its fault.
#[derive(Debug)]
#[non_exhaustive]
pub enum FileError {
    /// The file could not be read.
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Too few bytes for what the header promises.
    Truncated {
        /// Bytes needed.
        expected: u64,
        /// Bytes present.
        got: u64,
    },
    /// More bytes than the header accounts for.
    TrailingBytes {
        /// Bytes the header accounts for.
        expected: u64,
        /// Bytes present.
        got: u64,
    },
    /// The first bytes are not the magic.
    BadMagic,
    /// The endianness mark is wrong.
    Endianness {
        /// The mark read.
        got: u16,
    },
    /// A format version this crate does not read.
    Version {
        /// The oldest version this crate reads of the kind (for an older
        /// file), or the newest (for a newer one).
        expected: u16,
        /// The file's version.
        got: u16,
    },
    /// A header length other than 64.
    HeaderLength {
        /// 64, the header's length.
        expected: u32,
        /// The length read.
        got: u32,
    },
    /// A checksum does not match.
    Checksum {
        /// The part that is damaged.
        section: Section,
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the bytes.
        computed: u32,
    },
    /// A kind of file this crate does not know.
    Kind {
        /// The kind read.
        got: u16,
    },
    /// A file of another kind: pattern databases where a full table was
    /// wanted, or the reverse.
    WrongKind {
        /// What was wanted.
        expected: Kind,
        /// What the file is.
        got: Kind,
    },
    /// An entry encoding this crate does not know.
    Encoding {
        /// The encoding read.
        got: u16,
    },
    /// Offsets and lengths that do not describe a valid layout.
    Layout {
        /// What is wrong.
        what: String,
    },
    /// Metadata that does not decode, or that contradicts itself, the
    /// header or the body.
    Metadata {
        /// What is wrong.
        what: String,
    },
}

impl FileError {
    /// What is wrong, without what to do about it: for an error that
    /// gives advice of its own, such as a shard that can be copied again.
    ///
    /// ```
    /// use slidedb::FileError;
    /// let e = FileError::Truncated { expected: 128, got: 10 };
    /// assert_eq!(e.fault().to_string(), "the file is truncated: 10 bytes, but 128 are needed");
    /// assert_eq!(e.to_string(), "the file is truncated: 10 bytes, but 128 are needed; rebuild it");
    /// ```
    pub fn fault(&self) -> impl fmt::Display + '_ {
        Fault(self)
    }

    /// What to do about it, once: `rebuild it`, `check the path`, …
    /// ([`FileFault::advice`]); `None` where the fault is the system's (a
    /// file that cannot be read).
    pub fn advice(&self) -> Option<&'static str> {
        self.fault_kind().map(FileFault::advice)
    }

    /// Which row of the table of faults ([`FileFault`]) this is: `None`
    /// for a file that cannot be read, the system's fault.
    ///
    /// ```
    /// use slidedb::{FileError, FileFault};
    /// let e = FileError::Version { expected: 2, got: 3 };
    /// assert_eq!(e.fault_kind(), Some(FileFault::NewerVersion));
    /// ```
    pub fn fault_kind(&self) -> Option<FileFault> {
        use FileError::*;
        Some(match self {
            Io { .. } => return None,
            Truncated { .. } => FileFault::Truncated,
            TrailingBytes { .. } => FileFault::TrailingBytes,
            BadMagic => FileFault::BadMagic,
            Endianness { .. } => FileFault::Endianness,
            Version { expected, got } if got < expected => FileFault::OlderVersion,
            Version { .. } => FileFault::NewerVersion,
            HeaderLength { .. } => FileFault::HeaderLength,
            Checksum { .. } => FileFault::Checksum,
            Kind { .. } => FileFault::UnknownKind,
            WrongKind { .. } => FileFault::WrongKind,
            Encoding { .. } => FileFault::UnknownEncoding,
            Layout { .. } => FileFault::Layout,
            Metadata { .. } => FileFault::Metadata,
        })
    }
}

/// [`FileError::fault`]: the fault's sentence ([`FileFault::sentence`])
/// with its fields.
struct Fault<'a>(&'a FileError);

impl fmt::Display for Fault<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FileError::*;
        use faults::Field::{Number, Text};
        let fields = match self.0 {
            Io { path, .. } => return write!(f, "cannot read {}", path.display()),
            Truncated { expected, got } | TrailingBytes { expected, got } => {
                vec![("expected", Number(*expected)), ("got", Number(*got))]
            }
            BadMagic => vec![],
            Endianness { got } => vec![
                ("expected", Number(ENDIAN_MARK.into())),
                ("got", Number((*got).into())),
            ],
            Version { expected, got } => vec![
                ("expected", Number((*expected).into())),
                ("got", Number((*got).into())),
            ],
            HeaderLength { expected, got } => vec![
                ("expected", Number((*expected).into())),
                ("got", Number((*got).into())),
            ],
            Checksum {
                section,
                stored,
                computed,
            } => vec![
                ("section", Text(section)),
                ("stored", Number((*stored).into())),
                ("computed", Number((*computed).into())),
            ],
            Kind { got } | Encoding { got } => vec![("got", Number((*got).into()))],
            WrongKind { expected, got } => vec![("expected", Text(expected)), ("got", Text(got))],
            Layout { what } | Metadata { what } => vec![("what", Text(what))],
        };
        let kind = self.0.fault_kind().expect("every fault but Io is a row");
        faults::render(f, kind.sentence(), &fields)
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fault = self.fault();
        // "…: the file is damaged; rebuild it", "…: check the path",
        // "…: made by a newer slidedb? rebuild it with this one".
        match self.fault_kind() {
            Some(kind) => write!(f, "{fault}{}{}", kind.joiner(), kind.advice()),
            None => write!(f, "{fault}"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl FileError {
    /// A [`FileError::Layout`] saying `what`.
    pub(crate) fn layout(what: impl Into<String>) -> FileError {
        FileError::Layout { what: what.into() }
    }

    /// A [`FileError::Metadata`] saying `what`.
    pub(crate) fn metadata(what: impl Into<String>) -> FileError {
        FileError::Metadata { what: what.into() }
    }
}

/// A file's frame, checked: the header's fields, the decoded metadata, and
/// where the body lies.
#[derive(Clone, Debug)]
pub(crate) struct Frame<M> {
    /// The metadata, decoded.
    pub metadata: M,
    /// The body's bytes within the file.
    pub body: std::ops::Range<usize>,
    /// The body's CRC-32, as stored.
    pub body_crc: u32,
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ MAX_METADATA_LEN as usize }>()
}

/// Lays out a whole file: header, metadata, zero padding, body.
pub(crate) fn write<M: Serialize>(kind: Kind, encoding: u16, metadata: &M, body: &[u8]) -> Vec<u8> {
    let mut out = head(
        kind,
        encoding,
        metadata,
        body.len() as u64,
        crc32fast::hash(body),
    );
    out.extend_from_slice(body);
    out
}

/// The bytes of a file before its body (header, metadata, padding), for
/// a body written apart, of `body_len` bytes with CRC-32 `body_crc`.
pub(crate) fn head<M: Serialize>(
    kind: Kind,
    encoding: u16,
    metadata: &M,
    body_len: u64,
    body_crc: u32,
) -> Vec<u8> {
    let meta = bincode::serde::encode_to_vec(metadata, bincode_config())
        .expect("metadata that slidedb made encodes");
    let metadata_offset = HEADER_LEN;
    let body_offset = (metadata_offset + meta.len()).next_multiple_of(BODY_ALIGN);
    let mut out = Vec::with_capacity(body_offset);
    out.extend_from_slice(&header_bytes(
        kind,
        encoding,
        &meta,
        body_offset as u64,
        body_len,
        body_crc,
    ));
    out.extend_from_slice(&meta);
    out.resize(body_offset, 0);
    out
}

fn header_bytes(
    kind: Kind,
    encoding: u16,
    meta: &[u8],
    body_offset: u64,
    body_len: u64,
    body_crc: u32,
) -> [u8; HEADER_LEN] {
    let mut b = [0u8; HEADER_LEN];
    b[0..8].copy_from_slice(&MAGIC);
    b[8..10].copy_from_slice(&ENDIAN_MARK.to_le_bytes());
    b[10..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    b[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    b[16..18].copy_from_slice(&kind.code().to_le_bytes());
    b[18..20].copy_from_slice(&encoding.to_le_bytes());
    b[20..24].copy_from_slice(&crc32fast::hash(meta).to_le_bytes());
    b[24..32].copy_from_slice(&(HEADER_LEN as u64).to_le_bytes());
    b[32..40].copy_from_slice(&(meta.len() as u64).to_le_bytes());
    b[40..48].copy_from_slice(&body_offset.to_le_bytes());
    b[48..56].copy_from_slice(&body_len.to_le_bytes());
    b[56..60].copy_from_slice(&body_crc.to_le_bytes());
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

/// The entry encoding a file's header names (`None` if the bytes are too
/// short to hold one), unchecked: for a kind with several encodings to
/// choose the one [`read`] is to expect.
pub(crate) fn encoding_of(bytes: &[u8]) -> Option<u16> {
    (bytes.len() >= 20).then(|| u16_at(bytes, 18))
}

/// Checks the frame of a file of `kind` with entry `encoding`, in time
/// independent of the body's size: magic, endianness, version, header
/// checksum, kind, encoding, layout with checked arithmetic, exact file
/// length, metadata checksum, zero padding; then decodes the metadata
/// (nothing may follow it). The body's checksum is not checked (see
/// [`check_body`]); the kind checks its metadata against the body.
pub(crate) fn read<M: DeserializeOwned>(
    bytes: &[u8],
    kind: Kind,
    encoding: u16,
) -> Result<Frame<M>, FileError> {
    read_head(bytes, bytes.len() as u64, kind, encoding)
}

/// Like [`read`], from the first bytes of a file of `file_len` bytes:
/// `bytes` must reach the body (a file's first `HEADER_LEN +
/// MAX_METADATA_LEN + BODY_ALIGN` bytes always do), and may stop there.
pub(crate) fn read_head<M: DeserializeOwned>(
    bytes: &[u8],
    file_len: u64,
    kind: Kind,
    encoding: u16,
) -> Result<Frame<M>, FileError> {
    let got = file_len;
    let truncated = |expected: u64| FileError::Truncated { expected, got };
    if bytes.len() < 12 {
        if !MAGIC.starts_with(&bytes[..bytes.len().min(8)]) {
            return Err(FileError::BadMagic);
        }
        return Err(truncated(HEADER_LEN as u64));
    }
    if bytes[0..8] != MAGIC {
        return Err(FileError::BadMagic);
    }
    let mark = u16_at(bytes, 8);
    if mark != ENDIAN_MARK {
        return Err(FileError::Endianness { got: mark });
    }
    let version = u16_at(bytes, 10);
    let reads_older = !matches!(kind, Kind::BuildCheckpoint | Kind::WorkerCheckpoint);
    let oldest = if reads_older {
        OLDEST_VERSION
    } else {
        FORMAT_VERSION
    };
    if !(oldest..=FORMAT_VERSION).contains(&version) {
        return Err(FileError::Version {
            expected: if version < oldest {
                oldest
            } else {
                FORMAT_VERSION
            },
            got: version,
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(truncated(HEADER_LEN as u64));
    }
    let stored = u32_at(bytes, 60);
    let computed = crc32fast::hash(&bytes[..60]);
    if stored != computed {
        return Err(FileError::Checksum {
            section: Section::Header,
            stored,
            computed,
        });
    }
    let header_len = u32_at(bytes, 12);
    if header_len as usize != HEADER_LEN {
        return Err(FileError::HeaderLength {
            expected: HEADER_LEN as u32,
            got: header_len,
        });
    }
    let kind_code = u16_at(bytes, 16);
    match Kind::from_code(kind_code) {
        Some(k) if k == kind => {}
        Some(other) => {
            return Err(FileError::WrongKind {
                expected: kind,
                got: other,
            });
        }
        None => return Err(FileError::Kind { got: kind_code }),
    }
    let stored_encoding = u16_at(bytes, 18);
    if stored_encoding != encoding {
        return Err(FileError::Encoding {
            got: stored_encoding,
        });
    }
    let metadata_crc = u32_at(bytes, 20);
    let metadata_offset = u64_at(bytes, 24);
    let metadata_len = u64_at(bytes, 32);
    let body_offset = u64_at(bytes, 40);
    let body_len = u64_at(bytes, 48);
    let body_crc = u32_at(bytes, 56);
    if metadata_offset != HEADER_LEN as u64 {
        return Err(FileError::layout(format!(
            "metadata offset {metadata_offset} (must be {HEADER_LEN})"
        )));
    }
    if metadata_len > MAX_METADATA_LEN {
        return Err(FileError::layout(format!(
            "metadata length {metadata_len} (at most {MAX_METADATA_LEN})"
        )));
    }
    let metadata_end = metadata_offset + metadata_len; // both small
    let aligned = metadata_end.next_multiple_of(BODY_ALIGN as u64);
    if body_offset != aligned {
        return Err(FileError::layout(format!(
            "body offset {body_offset} (must be {aligned}, the end of the metadata rounded up to {BODY_ALIGN})"
        )));
    }
    let end = body_offset
        .checked_add(body_len)
        .ok_or_else(|| FileError::layout("body length overflows"))?;
    if got < end {
        return Err(truncated(end));
    }
    if got > end {
        return Err(FileError::TrailingBytes { expected: end, got });
    }
    if (bytes.len() as u64) < body_offset {
        return Err(truncated(end));
    }
    // From here every offset up to the body is within `bytes`; the body's
    // end is within the file, whose length fits usize when mapped.
    let meta_bytes = &bytes[HEADER_LEN..metadata_end as usize];
    let computed = crc32fast::hash(meta_bytes);
    if computed != metadata_crc {
        return Err(FileError::Checksum {
            section: Section::Metadata,
            stored: metadata_crc,
            computed,
        });
    }
    if bytes[metadata_end as usize..body_offset as usize]
        .iter()
        .any(|&b| b != 0)
    {
        return Err(FileError::layout("padding before the body is not zero"));
    }
    // Version 3 appended the metric to every kind's metadata: a file of
    // version 2 is read with it 0, the single-tile metric.
    let upgraded;
    let meta_bytes = if version < 3 {
        upgraded = [meta_bytes, &[0]].concat();
        &upgraded[..]
    } else {
        meta_bytes
    };
    let (metadata, used): (M, usize) =
        bincode::serde::decode_from_slice(meta_bytes, bincode_config())
            .map_err(|e| FileError::metadata(e.to_string()))?;
    if used != meta_bytes.len() {
        return Err(FileError::metadata(format!(
            "{} bytes after the metadata",
            meta_bytes.len() - used
        )));
    }
    Ok(Frame {
        metadata,
        body: body_offset as usize..end as usize,
        body_crc,
    })
}

/// The CRC-32 of `bytes`, computed in pieces on every core of the current
/// rayon pool and combined (the same value as `crc32fast::hash`).
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    use rayon::prelude::*;
    const PIECE: usize = 8 << 20;
    if bytes.len() <= PIECE {
        return crc32fast::hash(bytes);
    }
    bytes
        .par_chunks(PIECE)
        .map(|piece| {
            let mut hasher = crc32fast::Hasher::new();
            hasher.update(piece);
            hasher
        })
        .reduce_with(|mut left, right| {
            left.combine(&right);
            left
        })
        .map_or(0, |h| h.finalize())
}

/// Checks a body against its stored CRC-32: O(body), in parallel.
pub(crate) fn check_body(body: &[u8], stored: u32) -> Result<(), FileError> {
    let computed = crc32(body);
    if computed != stored {
        return Err(FileError::Checksum {
            section: Section::Body,
            stored,
            computed,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_parallel_checksum_is_the_checksum() {
        let bytes: Vec<u8> = (0..20_000_003u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for len in [0, 1, 8 << 20, (8 << 20) + 1, 17 << 20, bytes.len()] {
            assert_eq!(
                super::crc32(&bytes[..len]),
                crc32fast::hash(&bytes[..len]),
                "{len}"
            );
        }
    }
}
