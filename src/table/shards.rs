//! A sharded table: the directory a distributed build writes. Each worker's
//! part is a shard file (kind 5: its range of tile orders for every blank
//! cell), and a manifest (kind 6) lists them all with their checksums, the
//! layer counts and the run that made them; `FORMAT.md` gives every byte.
//!
//! [`merge_shards`] streams the shards into one table file, byte for byte
//! the one a single-process build writes.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::format::{self, Kind, TableError};
use crate::goals::Goals;
use crate::rank::{Index, Indexer};
#[cfg(feature = "cluster")]
use crate::symmetry::GoalClass;

use super::build::{BuildError, write_framed};
#[cfg(feature = "cluster")]
use super::distributed::Distributed;
use super::file::{self as table_file, ENCODING_MOD3};
use super::{MAX_HARDEST, metadata};

/// The manifest's name in a sharded table's directory.
pub const MANIFEST_NAME: &str = "manifest.slidedb";

/// The name of worker `worker`'s shard (of `workers`) in the directory.
///
/// ```
/// assert_eq!(slidedb::table::shard_name(2, 3), "shard-2-of-3.slidedb");
/// ```
pub fn shard_name(worker: usize, workers: usize) -> String {
    format!("shard-{worker}-of-{workers}.slidedb")
}

/// A shard's metadata (kind 5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ShardMetadata {
    pub generator: String,
    pub goals: Goals,
    /// The run of the build (the manifest's).
    pub run: u64,
    /// Workers in the build, and this shard's.
    pub workers: u32,
    pub worker: u32,
    /// Its tile orders: `start .. end`.
    pub start: u64,
    pub end: u64,
}

/// One shard, as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ManifestShard {
    pub worker: u32,
    pub start: u64,
    pub end: u64,
    /// Its body's length and CRC-32.
    pub len: u64,
    pub crc: u32,
}

/// The manifest's metadata (kind 6; no body).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ManifestMetadata {
    pub generator: String,
    pub goals: Goals,
    pub states: u64,
    pub layers: Vec<u64>,
    pub run: u64,
    pub shards: Vec<ManifestShard>,
    /// The first boards of the deepest layer, as indexes, in order.
    pub hardest: Vec<u64>,
}

/// What is wrong with a sharded table.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// A file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// The directory has no manifest.
    #[error(
        "{dir} holds no {MANIFEST_NAME}: it is not a sharded table (the directory of shards a distributed build writes)"
    )]
    NoManifest {
        /// The directory.
        dir: PathBuf,
    },
    /// A shard the manifest lists is not in the directory.
    #[error(
        "{path} is missing: the manifest lists {workers} shards, each written by the process of its worker; copy every one into the directory"
    )]
    Missing {
        /// The shard.
        path: PathBuf,
        /// Shards in the table.
        workers: usize,
    },
    /// The manifest is damaged, or not a manifest.
    #[error(
        "{path} is not a usable manifest: copy it again from a process that wrote it, or build the sharded table again"
    )]
    Table {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: TableError,
    },
    /// A shard is damaged, or not a shard.
    #[error(
        "{path} is not a usable shard: copy it again from the process that wrote it, or build the sharded table again ({} goal {goal} on {workers} workers)",
        goal.shape()
    )]
    Damaged {
        /// The shard.
        path: PathBuf,
        /// The goal of the table, as the manifest says.
        goal: Board,
        /// Its workers (shards).
        workers: usize,
        /// What is wrong.
        #[source]
        source: TableError,
    },
    /// A shard does not belong with the manifest.
    #[error(
        "{path} {what}: copy every shard of one finished build into the directory, or build again"
    )]
    Mismatch {
        /// The shard.
        path: PathBuf,
        /// How it differs.
        what: String,
    },
    /// Writing the merged table failed.
    #[error(transparent)]
    Write(#[from] BuildError),
}

/// Writes this process's shards (its workers' parts) and the manifest
/// into `dir`, each by way of a temporary file renamed into place, then
/// removes those workers' checkpoints from `dir`, and what is left there
/// of another build: shards and checkpoints of another number of workers,
/// and of another run (by their names and headers; no other file is
/// touched). When the disk is full, those workers' checkpoints make way
/// for the shards that replace them first. The paths written; an error
/// names the file.
///
/// ```
/// use slidedb::{Board, Shape, generate};
/// use slidedb::table::{merge_shards, search_distributed, write_shards};
/// let dir = tempfile::tempdir().unwrap();
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// let run = search_distributed(&goal, 2, |_| {}).unwrap();
/// write_shards(dir.path(), &goal, &run).unwrap();
/// let merged = dir.path().join("2x3.slidedb");
/// merge_shards(dir.path(), &merged).unwrap();
/// assert_eq!(std::fs::read(merged).unwrap(), generate(&goal, |_| {}).unwrap().as_bytes());
/// ```
#[cfg(feature = "cluster")]
pub fn write_shards(dir: &Path, goal: &Board, run: &Distributed) -> io::Result<Vec<PathBuf>> {
    let written = match write_parts(dir, goal, run) {
        Err(e) if e.kind() == io::ErrorKind::StorageFull => {
            remove_checkpoints(dir, run)?;
            write_parts(dir, goal, run)?
        }
        other => other?,
    };
    remove_checkpoints(dir, run)?;
    remove_other_builds(dir, run)?;
    Ok(written)
}

/// Writes the shards and the manifest (see [`write_shards`]).
#[cfg(feature = "cluster")]
fn write_parts(dir: &Path, goal: &Board, run: &Distributed) -> io::Result<Vec<PathBuf>> {
    let class = GoalClass::of(goal);
    let goals = Goals::new(&class);
    let generator = concat!("slidedb ", env!("CARGO_PKG_VERSION")).to_string();
    let workers = run.shards.len();
    let mut written = Vec::new();
    for part in &run.parts {
        let shard = ShardMetadata {
            generator: generator.clone(),
            goals: goals.clone(),
            run: run.run,
            workers: workers as u32,
            worker: part.worker as u32,
            start: part.range.start,
            end: part.range.end,
        };
        let path = dir.join(shard_name(part.worker, workers));
        write_body(&path, Kind::Shard, &shard, &part.entries).map_err(|e| naming(&path, e))?;
        written.push(path);
    }
    let manifest = ManifestMetadata {
        generator,
        goals,
        states: class.goal().shape().states(),
        layers: run.layers.clone(),
        run: run.run,
        shards: run
            .shards
            .iter()
            .map(|s| ManifestShard {
                worker: s.worker as u32,
                start: s.range.start,
                end: s.range.end,
                len: s.len,
                crc: s.crc,
            })
            .collect(),
        hardest: run.hardest.iter().map(|i| i.0).collect(),
    };
    let path = dir.join(MANIFEST_NAME);
    let bytes = format::write(Kind::ShardManifest, ENCODING_MOD3, &manifest, &[]);
    crate::store::write_atomic(&path, &bytes, true).map_err(|e| naming(&path, e))?;
    written.push(path);
    Ok(written)
}

/// `e`, with the file it happened to.
#[cfg(feature = "cluster")]
fn naming(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Removes `path`; gone already is fine.
#[cfg(feature = "cluster")]
fn remove(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(naming(path, e)),
        _ => Ok(()),
    }
}

/// Removes the checkpoints of this process's workers: the shards
/// replace them.
#[cfg(feature = "cluster")]
fn remove_checkpoints(dir: &Path, run: &Distributed) -> io::Result<()> {
    let workers = run.shards.len();
    for part in &run.parts {
        for slot in 0..2 {
            let name = super::worker_checkpoint::checkpoint_name(part.worker, workers, slot);
            remove(&dir.join(name))?;
        }
    }
    Ok(())
}

/// Removes the shards and checkpoints in `dir` of another build than
/// `run`: of another number of workers, or of another run (a file that
/// cannot be read as one is of another run). The files of this run's
/// other processes, when they share the directory, stay.
#[cfg(feature = "cluster")]
fn remove_other_builds(dir: &Path, run: &Distributed) -> io::Result<()> {
    use super::worker_checkpoint::{ENCODING_WORKER_CHECKPOINT, WorkerCheckpoint};
    let workers = run.shards.len();
    let entries = std::fs::read_dir(dir).map_err(|e| naming(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| naming(dir, e))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let path = entry.path();
        let stale = if let Some((_, of)) = parse_name(name, "shard-", ".slidedb") {
            of != workers
                || run_of::<ShardMetadata>(&path, Kind::Shard, ENCODING_MOD3, |m| m.run)
                    != Some(run.run)
        } else if let Some((_, of)) = parse_name(name, "checkpoint-", "-0.slidedb")
            .or_else(|| parse_name(name, "checkpoint-", "-1.slidedb"))
        {
            of != workers
                || run_of::<WorkerCheckpoint>(
                    &path,
                    Kind::WorkerCheckpoint,
                    ENCODING_WORKER_CHECKPOINT,
                    |m| m.run,
                ) != Some(run.run)
        } else {
            false
        };
        if stale {
            remove(&path)?;
        }
    }
    Ok(())
}

/// `k` and `n` of a name `{prefix}{k}-of-{n}{suffix}`.
#[cfg(feature = "cluster")]
fn parse_name(name: &str, prefix: &str, suffix: &str) -> Option<(usize, usize)> {
    let middle = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    let (k, n) = middle.split_once("-of-")?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((number(k)?, number(n)?))
}

/// The run a file's metadata names, if it reads as a file of `kind`.
#[cfg(feature = "cluster")]
fn run_of<M: serde::de::DeserializeOwned>(
    path: &Path,
    kind: Kind,
    encoding: u16,
    run: impl Fn(&M) -> u64,
) -> Option<u64> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    let mut prefix = Vec::new();
    file.take(format::HEADER_LEN as u64 + format::MAX_METADATA_LEN)
        .read_to_end(&mut prefix)
        .ok()?;
    let frame = format::read_head::<M>(&prefix, len, kind, encoding).ok()?;
    Some(run(&frame.metadata))
}

/// Writes a file of `kind` with `body` over `path`, by way of
/// `path.partial`, synced, then renamed; the body is streamed, not copied.
#[cfg(feature = "cluster")]
fn write_body<M: Serialize>(path: &Path, kind: Kind, metadata: &M, body: &[u8]) -> io::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let head = |crc| format::head(kind, ENCODING_MOD3, metadata, body.len() as u64, crc);
    let written = write_framed(&partial, head, |out| out.write_all(body))
        .map_err(|e| match e {
            BuildError::Io { source, .. } => source,
            other => io::Error::other(other.to_string()),
        })
        .and_then(|_| std::fs::rename(&partial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written?;
    if let Some(dir) = path.parent()
        && let Ok(d) = std::fs::File::open(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        })
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Reads and checks a sharded table's manifest; with its bytes.
fn read_manifest(dir: &Path) -> Result<(ManifestMetadata, Vec<u8>), ShardError> {
    let path = dir.join(MANIFEST_NAME);
    let bytes = std::fs::read(&path).map_err(|source| match source.kind() {
        io::ErrorKind::NotFound if dir.is_dir() => ShardError::NoManifest {
            dir: dir.to_path_buf(),
        },
        _ => ShardError::Read {
            path: path.clone(),
            source,
        },
    })?;
    let table = |source| ShardError::Table {
        path: path.clone(),
        source,
    };
    let frame = format::read::<ManifestMetadata>(&bytes, Kind::ShardManifest, ENCODING_MOD3)
        .map_err(table)?;
    let manifest = frame.metadata;
    let class = manifest.goals.class().map_err(table)?;
    if class.goal().shape().cells() > super::MAX_TABLE_CELLS {
        return Err(table(TableError::metadata(format!(
            "a {}-cell table: tables go up to {} cells",
            class.goal().shape().cells(),
            super::MAX_TABLE_CELLS
        ))));
    }
    let indexer = Indexer::new(class.canonical());
    let fault = |what: &str| table(TableError::metadata(what.to_string()));
    // The shards cover the tile orders in order, each its own worker's.
    let mut next = 0;
    for (k, shard) in manifest.shards.iter().enumerate() {
        if shard.worker as usize != k || shard.start != next || shard.end < shard.start {
            return Err(fault("the shards do not cover the tile orders in order"));
        }
        next = shard.end;
    }
    if next != indexer.per_blank() || manifest.states != indexer.len() {
        return Err(fault("the shards do not cover the tile orders"));
    }
    if manifest.layers.is_empty()
        || manifest.hardest.len() > MAX_HARDEST
        || manifest.hardest.iter().any(|&i| i >= manifest.states)
    {
        return Err(fault(
            "no layer counts, or hardest boards that are not boards of the table",
        ));
    }
    // The rest as a table file's metadata is checked (sizes, layer counts,
    // hardest boards in the last layer).
    let hardest = hardest_boards(&manifest);
    let implied = metadata(&class, manifest.layers.clone(), &hardest);
    table_file::check(&implied, table_file::body_len(manifest.states)).map_err(table)?;
    Ok((manifest, bytes))
}

/// One shard's body, mapped and checked.
pub(crate) struct ShardBody {
    map: memmap2::Mmap,
    body: std::ops::Range<usize>,
    start: u64,
    /// Bytes a cell's run takes.
    run: usize,
}

/// The bodies of a sharded table's shards, for [`Table`](super::Table)
/// to read entries from.
pub(crate) struct ShardBodies {
    /// The goal of the table, and each shard's file.
    goal: Board,
    paths: Vec<PathBuf>,
    per_blank: u64,
    /// Each shard's first tile order past its range, in worker order.
    ends: Vec<u64>,
    shards: Vec<ShardBody>,
    /// The manifest's CRC-32 of each body, to check them again.
    crcs: Vec<u32>,
}

impl ShardBodies {
    /// Entry `index`'s 2 bits (3 past the end).
    #[inline]
    pub(crate) fn residue(&self, index: u64) -> u8 {
        let (cell, h) = (index / self.per_blank, index % self.per_blank);
        let k = self.ends.partition_point(|&end| end <= h);
        let Some(shard) = self.shards.get(k) else {
            return 3;
        };
        let j = h - shard.start;
        let at = shard.body.start + cell as usize * shard.run + (j / 4) as usize;
        match shard.map.get(at) {
            Some(byte) if at < shard.body.end => (byte >> (2 * (j % 4))) & 3,
            _ => 3,
        }
    }

    /// Checks every body's CRC-32 against the manifest's.
    pub(crate) fn verify(&self) -> Result<(), TableError> {
        self.check().map_err(|e| match e {
            ShardError::Damaged { source, .. } => source,
            other => TableError::metadata(other.to_string()),
        })
    }

    /// Checks every body's CRC-32 against the manifest's, naming the
    /// shard that does not match.
    pub(crate) fn check(&self) -> Result<(), ShardError> {
        for ((shard, &crc), path) in self.shards.iter().zip(&self.crcs).zip(&self.paths) {
            format::check_body(&shard.map[shard.body.clone()], crc).map_err(|source| {
                ShardError::Damaged {
                    path: path.clone(),
                    goal: self.goal,
                    workers: self.shards.len(),
                    source,
                }
            })?;
        }
        Ok(())
    }

    /// A CRC-32 that names these bodies: of their CRC-32s in order.
    pub(crate) fn crc(&self) -> u32 {
        let bytes: Vec<u8> = self.crcs.iter().flat_map(|c| c.to_le_bytes()).collect();
        format::crc32(&bytes)
    }
}

impl<D> super::Table<D> {
    /// Of a sharded table, checks every shard's body against the
    /// manifest's CRC-32, naming a shard that does not match (`None` for a
    /// table of one file).
    pub(crate) fn verify_shards(&self) -> Option<Result<(), ShardError>> {
        self.shards.as_ref().map(|bodies| bodies.check())
    }
}

/// A sharded table's manifest and shards, each checked against it (its
/// frame, goals, run, worker, range and listed length and CRC-32; the
/// bodies' own CRC-32s only when `check_bodies`), and the manifest's bytes.
pub(crate) fn open_shards(
    dir: &Path,
    check_bodies: bool,
) -> Result<(ManifestMetadata, ShardBodies, Vec<u8>), ShardError> {
    let (manifest, bytes) = read_manifest(dir)?;
    let class = manifest
        .goals
        .class()
        .expect("read_manifest checked the goals");
    let indexer = Indexer::new(class.canonical());
    let cells = indexer.shape().cells();
    let workers = manifest.shards.len();
    let goal = *class.goal();
    let mut shards = Vec::with_capacity(workers);
    let mut paths = Vec::with_capacity(workers);
    for shard in &manifest.shards {
        let path = dir.join(shard_name(shard.worker as usize, workers));
        let read = |source: io::Error| match source.kind() {
            io::ErrorKind::NotFound => ShardError::Missing {
                path: path.clone(),
                workers,
            },
            _ => ShardError::Read {
                path: path.clone(),
                source,
            },
        };
        let table = |source| ShardError::Damaged {
            path: path.clone(),
            goal,
            workers,
            source,
        };
        let map = crate::store::map_file(&path).map_err(|e| match e {
            TableError::Io { source, .. } => read(source),
            e => table(e),
        })?;
        let frame =
            format::read::<ShardMetadata>(&map, Kind::Shard, ENCODING_MOD3).map_err(table)?;
        let m = &frame.metadata;
        let mismatch = |what: String| ShardError::Mismatch {
            path: path.clone(),
            what,
        };
        if m.run != manifest.run {
            return Err(mismatch(format!(
                "is of run {:016x}, the manifest of run {:016x}",
                m.run, manifest.run
            )));
        }
        if m.goals != manifest.goals
            || m.workers as usize != workers
            || m.worker != shard.worker
            || (m.start, m.end) != (shard.start, shard.end)
        {
            return Err(mismatch("is another part than the manifest lists".into()));
        }
        let run = (shard.end - shard.start).div_ceil(4) as usize;
        let body_len = frame.body.len() as u64;
        if body_len != shard.len || frame.body_crc != shard.crc {
            return Err(mismatch(
                "has another length or checksum than the manifest lists".into(),
            ));
        }
        if body_len != (cells * run) as u64 {
            return Err(mismatch("has a body of the wrong length".into()));
        }
        if check_bodies {
            format::check_body(&map[frame.body.clone()], frame.body_crc).map_err(table)?;
        }
        shards.push(ShardBody {
            map,
            body: frame.body,
            start: shard.start,
            run,
        });
        paths.push(path);
    }
    let bodies = ShardBodies {
        goal,
        paths,
        per_blank: indexer.per_blank(),
        ends: manifest.shards.iter().map(|s| s.end).collect(),
        crcs: manifest.shards.iter().map(|s| s.crc).collect(),
        shards,
    };
    Ok((manifest, bodies, bytes))
}

/// The hardest boards a manifest lists, as boards toward the indexed goal.
pub(crate) fn hardest_boards(manifest: &ManifestMetadata) -> Vec<Board> {
    let class = manifest.goals.class().expect("a checked manifest");
    let indexer = Indexer::new(class.canonical());
    manifest
        .hardest
        .iter()
        .map(|&i| indexer.unrank(Index(i)).expect("checked below states"))
        .collect()
}

/// Merges the sharded table in `dir` into one table file at `out`
/// (written as `out.partial`, synced, then renamed), checking each shard
/// against the manifest (run, range, length, CRC-32). Returns the file's
/// length.
pub fn merge_shards(dir: &Path, out: &Path) -> Result<u64, ShardError> {
    let (manifest, bodies, _) = open_shards(dir, true)?;
    let class = manifest.goals.class().expect("a checked manifest");
    let indexer = Indexer::new(class.canonical());
    let cells = indexer.shape().cells();
    let metadata = metadata(&class, manifest.layers.clone(), &hardest_boards(&manifest));
    let body_len = table_file::body_len(indexer.len());
    let partial = out.with_extension("partial");
    write_framed(
        &partial,
        |crc| table_file::head(&metadata, body_len, crc),
        |out| {
            let mut entries = Entries::new(out);
            for cell in 0..cells {
                for (shard, listed) in bodies.shards.iter().zip(&manifest.shards) {
                    let len = listed.end - listed.start;
                    let from =
                        &shard.map[shard.body.clone()][cell * shard.run..(cell + 1) * shard.run];
                    entries.push_run(from, len)?;
                }
            }
            entries.finish()
        },
    )?;
    std::fs::rename(&partial, out).map_err(|source| {
        ShardError::Write(BuildError::Io {
            what: "rename",
            path: out.to_path_buf(),
            source,
        })
    })?;
    std::fs::metadata(out)
        .map(|m| m.len())
        .map_err(|source| ShardError::Read {
            path: out.to_path_buf(),
            source,
        })
}

/// Writes 2-bit entries in order, whole bytes at a time where it can.
struct Entries<'w> {
    out: &'w mut dyn Write,
    /// Entries of a byte not yet written (`filled` of them).
    pending: u8,
    filled: u32,
}

impl<'w> Entries<'w> {
    fn new(out: &'w mut dyn Write) -> Entries<'w> {
        Entries {
            out,
            pending: 0,
            filled: 0,
        }
    }

    /// Appends `len` entries, packed four a byte in `run`.
    fn push_run(&mut self, run: &[u8], len: u64) -> io::Result<()> {
        if self.filled == 0 && len.is_multiple_of(4) {
            return self.out.write_all(&run[..(len / 4) as usize]);
        }
        for j in 0..len {
            let entry = (run[(j / 4) as usize] >> (2 * (j % 4))) & 3;
            self.pending |= entry << (2 * self.filled);
            self.filled += 1;
            if self.filled == 4 {
                self.out.write_all(&[self.pending])?;
                (self.pending, self.filled) = (0, 0);
            }
        }
        Ok(())
    }

    /// Writes the last partial byte, if any.
    fn finish(self) -> io::Result<()> {
        if self.filled > 0 {
            self.out.write_all(&[self.pending])?;
        }
        Ok(())
    }
}
