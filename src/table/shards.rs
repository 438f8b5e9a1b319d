//! A sharded table: the directory a distributed build writes. Each worker's
//! part is a shard file (kind 5: its range of tile orders for every blank
//! cell), and a manifest (kind 6) lists them all with their checksums, the
//! layer counts and the run that made them; `FORMAT.md` gives every byte.
//!
//! [`merge_shards`](crate::build::merge_shards) streams the shards into one table file, byte for byte
//! the one a single-process build writes.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::format::{self, FileError, Kind};
use crate::goals::Goals;
use crate::rank::{Index, Indexer};

use super::file::{self as table_file, ENCODING_MOD3};
use super::{MAX_HARDEST, metadata};
use crate::output::WriteError;

/// The manifest's name in a sharded table's directory.
pub const MANIFEST_NAME: &str = "manifest.slidedb";

/// The name of worker `worker`'s shard (of `workers`) in the directory.
pub(crate) fn shard_name(worker: usize, workers: usize) -> String {
    format!("shard-{worker}-of-{workers}.slidedb")
}

/// One worker's part of a distributed build: a shard's metadata (kind 5),
/// and the first fields of the worker's checkpoints' (kind 7), which nest
/// it. bincode writes a nested struct as its fields in turn, so the bytes
/// are those `FORMAT.md` lists for either kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PartMetadata {
    /// The program that wrote it.
    pub generator: String,
    /// The goals of the table being built.
    pub goals: Goals,
    /// The run of the build (the manifest's).
    pub run: u64,
    /// Workers in the build, and this shard's.
    pub workers: u32,
    pub worker: u32,
    /// Its tile orders: `start .. end`.
    pub start: u64,
    pub end: u64,
    /// The metric of the search ([`crate::goals::metric_byte`]).
    pub metric: u8,
}

impl PartMetadata {
    /// Worker `worker`'s part (of `workers`), owning the tile orders
    /// `range`, in run `run` of a build toward `goals`, written by this
    /// program. (Parts are written by the cluster's build only.)
    #[cfg(feature = "cluster")]
    pub(crate) fn new(
        goals: Goals,
        run: u64,
        workers: usize,
        worker: usize,
        range: std::ops::Range<u64>,
    ) -> PartMetadata {
        PartMetadata {
            generator: concat!("slidedb ", env!("CARGO_PKG_VERSION")).to_string(),
            goals,
            run,
            workers: workers as u32,
            worker: worker as u32,
            start: range.start,
            end: range.end,
            metric: crate::goals::metric_byte(crate::board::Metric::Single),
        }
    }

    /// The tile orders it owns.
    #[cfg(feature = "cluster")]
    pub(crate) fn range(&self) -> std::ops::Range<u64> {
        self.start..self.end
    }
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
    /// The metric of the distances ([`crate::goals::metric_byte`]).
    pub metric: u8,
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
        "{path} is not a usable manifest: {}; copy it again from a process that wrote it, or build the sharded table again",
        fault.fault()
    )]
    Table {
        /// The file.
        path: PathBuf,
        /// What is wrong (its own advice, to rebuild the file, is this
        /// error's: copy it again, or build the whole table again).
        fault: FileError,
    },
    /// A shard is damaged, or not a shard.
    #[error(
        "{path} is not a usable shard of the {} goal {goal} on {workers} workers: {}; copy it again from the process that wrote it, or build the sharded table again",
        goal.shape(),
        fault.fault()
    )]
    Damaged {
        /// The shard.
        path: PathBuf,
        /// The goal of the table, as the manifest says.
        goal: Board,
        /// Its workers (shards).
        workers: usize,
        /// What is wrong (its own advice is this error's).
        fault: FileError,
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
    Write(#[from] WriteError),
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
    let table = |fault| ShardError::Table {
        path: path.clone(),
        fault,
    };
    let frame = format::read::<ManifestMetadata>(&bytes, Kind::ShardManifest, ENCODING_MOD3)
        .map_err(table)?;
    let manifest = frame.metadata;
    let class = manifest.goals.class().map_err(table)?;
    if class.goal().shape().cells() > super::MAX_TABLE_CELLS {
        return Err(table(FileError::metadata(format!(
            "a {}-cell table: tables go up to {} cells",
            class.goal().shape().cells(),
            super::MAX_TABLE_CELLS
        ))));
    }
    let indexer = Indexer::new(class.canonical());
    let fault = |what: &str| table(FileError::metadata(what.to_string()));
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
    let metric = crate::goals::metric_of(manifest.metric).map_err(table)?;
    let implied = metadata(&class, metric, manifest.layers.clone(), &hardest);
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

impl ShardBody {
    /// The packed entries of the shard's range with the blank in `cell`.
    pub(crate) fn cell_run(&self, cell: usize) -> &[u8] {
        &self.map[self.body.clone()][cell * self.run..(cell + 1) * self.run]
    }
}

/// The bodies of a sharded table's shards, for [`Table`](super::Table)
/// to read entries from.
pub(crate) struct ShardBodies {
    /// The goal of the table, its directory, and each shard's file.
    goal: Board,
    dir: PathBuf,
    paths: Vec<PathBuf>,
    per_blank: u64,
    /// Each shard's first tile order past its range, in worker order.
    ends: Vec<u64>,
    pub(crate) shards: Vec<ShardBody>,
    /// The manifest's CRC-32 of each body, to check them again.
    crcs: Vec<u32>,
}

impl ShardBodies {
    /// The directory of the shards.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

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
    pub(crate) fn verify(&self) -> Result<(), FileError> {
        self.check().map_err(|e| match e {
            ShardError::Damaged { fault, .. } => fault,
            other => FileError::metadata(other.to_string()),
        })
    }

    /// Checks every body's CRC-32 against the manifest's, naming the
    /// shard that does not match.
    pub(crate) fn check(&self) -> Result<(), ShardError> {
        for ((shard, &crc), path) in self.shards.iter().zip(&self.crcs).zip(&self.paths) {
            format::check_body(&shard.map[shard.body.clone()], crc).map_err(|fault| {
                ShardError::Damaged {
                    path: path.clone(),
                    goal: self.goal,
                    workers: self.shards.len(),
                    fault,
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
        let table = |fault| ShardError::Damaged {
            path: path.clone(),
            goal,
            workers,
            fault,
        };
        let map = crate::store::map_file(&path).map_err(|e| match e {
            FileError::Io { source, .. } => read(source),
            e => table(e),
        })?;
        let frame =
            format::read::<PartMetadata>(&map, Kind::Shard, ENCODING_MOD3).map_err(table)?;
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
        dir: dir.to_path_buf(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_named_by_worker_and_workers() {
        assert_eq!(shard_name(2, 3), "shard-2-of-3.slidedb");
    }
}
