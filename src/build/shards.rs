//! Writing sharded tables: each process's shards and the manifest after a
//! cluster build. The reader is [`crate::table::Table::open_sharded`], and
//! the merge into one file [`crate::table::merge_shards`].

use std::io;
use std::path::{Path, PathBuf};

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
use crate::output::write_framed;
#[cfg(feature = "cluster")]
use crate::symmetry::GoalClass;
#[cfg(feature = "cluster")]
use crate::table::file::ENCODING_MOD3;
#[cfg(feature = "cluster")]
use crate::table::shards::{
    MANIFEST_NAME, ManifestMetadata, ManifestShard, PartMetadata, shard_name,
};

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
/// use std::time::Duration;
/// use slidedb::{Board, Shape, generate};
/// use slidedb::build::{Cluster, merge_shards, search_cluster, write_shards};
/// let dir = tempfile::tempdir().unwrap();
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// // Two workers in this process alone: no addresses, no network.
/// let alone = Cluster {
///     addresses: Vec::new(),
///     process: 0,
///     workers: 2,
///     connect_timeout: Duration::ZERO,
///     peer_timeout: Duration::ZERO,
///     checkpoints: None,
/// };
/// let run = search_cluster(&goal, &alone, |_| {}).unwrap();
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
        metric: crate::goals::metric_byte(crate::board::Metric::Single),
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
