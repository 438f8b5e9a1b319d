//! Writing sharded tables: each process's shards and the manifest after a
//! cluster build, and the merge of a sharded table into one file. The
//! reader is [`crate::table::Table::open_sharded`].

use std::io::{self, Write};
use std::path::Path;
#[cfg(feature = "cluster")]
use std::path::PathBuf;

#[cfg(feature = "cluster")]
use serde::Serialize;

#[cfg(feature = "cluster")]
use crate::board::Board;
#[cfg(feature = "cluster")]
use crate::build::Distributed;
#[cfg(feature = "cluster")]
use crate::format::{self, Kind};
#[cfg(feature = "cluster")]
use crate::goals::Goals;
use crate::output::{WriteError, write_framed};
use crate::rank::Indexer;
#[cfg(feature = "cluster")]
use crate::symmetry::GoalClass;
use crate::table::file as table_file;
#[cfg(feature = "cluster")]
use crate::table::file::ENCODING_MOD3;
#[cfg(feature = "cluster")]
use crate::table::shards::{
    MANIFEST_NAME, ManifestMetadata, ManifestShard, PartMetadata, shard_name,
};
use crate::table::shards::{hardest_boards, open_shards};
use crate::table::{ShardError, metadata};

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
/// use slidedb::build::{merge_shards, search_distributed, write_shards};
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
        let shard = PartMetadata::new(
            goals.clone(),
            run.run,
            workers,
            part.worker,
            part.range.clone(),
        );
        let path = dir.join(shard_name(part.worker, workers));
        write_body(&path, Kind::Shard, &shard, &part.entries).map_err(|e| naming(&path, e))?;
        written.push(path);
    }
    let manifest = ManifestMetadata {
        generator,
        goals,
        states: class.goal().shape().table_states(),
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
    crate::output::write_atomic(&path, &bytes, true).map_err(|e| naming(&path, e))?;
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
            let name =
                crate::build::cluster::checkpoint::checkpoint_name(part.worker, workers, slot);
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
    use crate::build::cluster::checkpoint::{ENCODING_WORKER_CHECKPOINT, WorkerCheckpoint};
    let workers = run.shards.len();
    let entries = std::fs::read_dir(dir).map_err(|e| naming(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| naming(dir, e))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let path = entry.path();
        let stale = if let Some((_, of)) = parse_name(name, "shard-", ".slidedb") {
            of != workers
                || run_of::<PartMetadata>(&path, Kind::Shard, ENCODING_MOD3, |m| m.run)
                    != Some(run.run)
        } else if let Some((_, of)) = parse_name(name, "checkpoint-", "-0.slidedb")
            .or_else(|| parse_name(name, "checkpoint-", "-1.slidedb"))
        {
            of != workers
                || run_of::<WorkerCheckpoint>(
                    &path,
                    Kind::WorkerCheckpoint,
                    ENCODING_WORKER_CHECKPOINT,
                    |m| m.part.run,
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
        .map_err(|e| e.source)
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

/// Merges the sharded table in `dir` into one table file at `out`
/// (written into a new hidden file in `out`'s folder, `.slidedb-XXXXXX.tmp`
/// as [`crate::write_atomic`] writes, synced, then renamed over `out`; no
/// other file is touched, and the folder must exist), checking each shard
/// against the manifest (run, range, length, CRC-32). Returns the file's
/// length.
pub fn merge_shards(dir: &Path, out: &Path) -> Result<u64, ShardError> {
    let (manifest, bodies, _) = open_shards(dir, true)?;
    let class = manifest.goals.class().expect("a checked manifest");
    let indexer = Indexer::new(class.canonical());
    let cells = indexer.shape().cells();
    let metadata = metadata(&class, manifest.layers.clone(), &hardest_boards(&manifest));
    let body_len = table_file::body_len(indexer.len());
    let write_error = |what, source| {
        ShardError::Write(WriteError {
            what,
            path: out.to_path_buf(),
            source,
        })
    };
    let folder = crate::output::existing_parent(out).map_err(|e| write_error("write", e))?;
    // Removed on any early return: nothing of the merge is left behind.
    let partial = crate::output::temp_builder()
        .tempfile_in(&folder)
        .map_err(|e| write_error("write", e))?
        .into_temp_path();
    write_framed(
        &partial,
        |crc| table_file::head(&metadata, body_len, crc),
        |out| {
            let mut entries = Entries::new(out);
            for cell in 0..cells {
                for (shard, listed) in bodies.shards.iter().zip(&manifest.shards) {
                    let len = listed.end - listed.start;
                    let from = shard.cell_run(cell);
                    entries.push_run(from, len)?;
                }
            }
            entries.finish()
        },
    )
    .map_err(|e| write_error("write", e.source))?;
    partial
        .persist(out)
        .map_err(|e| write_error("rename", e.error))?;
    if let Ok(d) = std::fs::File::open(&folder) {
        let _ = d.sync_all();
    }
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
