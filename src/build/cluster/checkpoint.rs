//! A distributed build's checkpoints (file kind 7, `FORMAT.md`): each
//! worker's part of the search at the start of one layer that every
//! worker agreed on, in two slots a worker fills in turn, so that a stop
//! at any moment leaves its last whole checkpoint. A build started again
//! with the same command goes on from the deepest layer every worker of
//! the run holds.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::format::{self, BODY_ALIGN, HEADER_LEN, Kind, MAX_METADATA_LEN};
use crate::goals::Goals;

use crate::build::BuildError;
use crate::output::write_framed;
use crate::table::shards::PartMetadata;

/// The entry encoding of a worker's checkpoint: its residue words, then
/// its frontier words (`FORMAT.md`, kind 7).
pub(crate) const ENCODING_WORKER_CHECKPOINT: u16 = 7;

/// The name of slot `slot` (0 or 1) of worker `worker`'s checkpoint (of
/// `workers`).
pub(crate) fn checkpoint_name(worker: usize, workers: usize, slot: usize) -> String {
    format!("checkpoint-{worker}-of-{workers}-{slot}.slidedb")
}

/// A worker's checkpoint's metadata: where the search stands at the start
/// of layer `depth`, before that layer is expanded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct WorkerCheckpoint {
    /// The worker's part, as its shard will say it: the program that
    /// wrote it (only the same one goes on from it), the goals of the
    /// table being built, the run it belongs to, the workers in the build
    /// and this one, and its tile orders.
    pub part: PartMetadata,
    /// The layer its frontier holds.
    pub depth: u32,
    /// The counts of layers `0 .. depth`, over all workers.
    pub layers: Vec<u64>,
    /// Moves, and moves sent to other workers, over all workers, of the
    /// expansions whose counts every worker has seen (layers before
    /// `depth − 1`).
    pub moves: u64,
    pub sent: u64,
    /// This worker's boards of layer `depth`.
    pub count: u64,
    /// This worker's moves, and those it sent, expanding layer
    /// `depth − 1`.
    pub last_moves: u64,
    pub last_sent: u64,
    /// Boards of layer `depth + 1` it had already claimed from moves
    /// other workers sent early.
    pub early: u64,
    /// Its first boards of layer `depth − 1`, as indexes.
    pub hardest: Vec<u64>,
}

/// A worker's state, as a checkpoint holds it.
pub(crate) struct Saved {
    pub metadata: WorkerCheckpoint,
    pub residues: Vec<u64>,
    pub frontier: Vec<u64>,
}

/// Writes a worker's state over slot `path`, by way of a `.partial`
/// file, synced, then renamed; the file's length. The slot written is the
/// worker's older one: when the disk is full, its checkpoint makes way for
/// the new one (the newer slot stays whole), so that a worker needs room
/// for two checkpoints, not three.
pub(crate) fn write_checkpoint(
    path: &Path,
    metadata: &WorkerCheckpoint,
    residues: &[u64],
    frontier: &[u64],
) -> Result<u64, BuildError> {
    match write_slot(path, metadata, residues, frontier) {
        Err(BuildError::Io { source, .. })
            if source.kind() == io::ErrorKind::StorageFull && path.exists() =>
        {
            std::fs::remove_file(path).map_err(|source| BuildError::Io {
                what: "remove",
                path: path.to_path_buf(),
                source,
            })?;
            write_slot(path, metadata, residues, frontier)
        }
        written => written,
    }
}

/// Writes a worker's state over slot `path` (see [`write_checkpoint`]).
fn write_slot(
    path: &Path,
    metadata: &WorkerCheckpoint,
    residues: &[u64],
    frontier: &[u64],
) -> Result<u64, BuildError> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let body_len = 8 * (residues.len() + frontier.len()) as u64;
    let head = |crc| {
        format::head(
            Kind::WorkerCheckpoint,
            ENCODING_WORKER_CHECKPOINT,
            metadata,
            body_len,
            crc,
        )
    };
    let written = write_framed(&partial, head, |out| {
        for words in [residues, frontier] {
            for chunk in words.chunks(1 << 16) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
                out.write_all(&bytes)?;
            }
        }
        Ok(())
    })
    .map_err(BuildError::from)
    .and_then(|len| {
        std::fs::rename(&partial, path).map_err(|source| BuildError::Io {
            what: "rename",
            path: partial.clone(),
            source,
        })?;
        Ok(len)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// What a worker's checkpoint must be to go on from it.
pub(crate) struct Expect<'a> {
    pub goals: &'a Goals,
    pub workers: usize,
    pub worker: usize,
    pub range: Range<u64>,
    /// Residue and frontier words.
    pub words: (usize, usize),
}

/// Reads slot `path`: `Ok(None)` when it is absent, `Err(why)` when it
/// is not a whole checkpoint of this build for this worker, else its
/// metadata and, when `keep`, its state (else empty words). The body's
/// CRC-32 is checked either way.
pub(crate) fn read_checkpoint(
    path: &Path,
    expect: &Expect,
    keep: bool,
) -> Result<Option<Saved>, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open it: {e}")),
    };
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read it: {e}"))?
        .len();
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut prefix = Vec::new();
    (&mut reader)
        .take(HEADER_LEN as u64 + MAX_METADATA_LEN + BODY_ALIGN as u64)
        .read_to_end(&mut prefix)
        .map_err(|e| format!("cannot read it: {e}"))?;
    let frame = format::read_head::<WorkerCheckpoint>(
        &prefix,
        len,
        Kind::WorkerCheckpoint,
        ENCODING_WORKER_CHECKPOINT,
    )
    .map_err(|e| e.to_string())?;
    let m = frame.metadata;
    check_metadata(&m, expect, frame.body.len())?;
    // The body follows the prefix read so far.
    let body = prefix.split_off(frame.body.start.min(prefix.len()));
    let (residues, frontier, computed) = read_body(&mut reader, body, expect.words, keep)?;
    if computed != frame.body_crc {
        return Err(format!(
            "its body's CRC-32 is {computed:#010x}, and its header says {:#010x} (damaged)",
            frame.body_crc
        ));
    }
    Ok(Some(Saved {
        metadata: m,
        residues,
        frontier,
    }))
}

/// Whether the metadata `m` of a checkpoint whose body is `body_len`
/// bytes is of this build, for this worker, and agrees with itself: why
/// not.
fn check_metadata(m: &WorkerCheckpoint, expect: &Expect, body_len: usize) -> Result<(), String> {
    let part = &m.part;
    let generator = crate::build::resumable::generator();
    if part.generator != generator {
        return Err(format!(
            "{} wrote it, and this is {generator}",
            part.generator
        ));
    }
    if &part.goals != expect.goals {
        return Err("it is of a build toward another goal".into());
    }
    if (part.workers as usize, part.worker as usize) != (expect.workers, expect.worker)
        || part.range() != expect.range
    {
        return Err(format!(
            "it is of worker {} of {}, and this is worker {} of {}",
            part.worker, part.workers, expect.worker, expect.workers
        ));
    }
    if m.layers.len() != m.depth as usize || m.layers.first().is_some_and(|&n| n != 1) {
        return Err("its layer counts do not match its depth".into());
    }
    let (r, f) = expect.words;
    if body_len as u64 != 8 * (r + f) as u64 {
        return Err(format!(
            "its body is {} bytes, and this worker's state is {}",
            body_len,
            8 * (r + f)
        ));
    }
    Ok(())
}

/// Reads a checkpoint's body of `r` residue words then `f` frontier
/// words from `body` (its bytes read so far) and `reader`: the words (empty
/// unless `keep`) and the body's CRC-32.
fn read_body(
    reader: &mut impl Read,
    mut body: Vec<u8>,
    (r, f): (usize, usize),
    keep: bool,
) -> Result<(Vec<u64>, Vec<u64>, u32), String> {
    let mut crc = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut words = |n: usize, body: &mut Vec<u8>| -> Result<Vec<u64>, String> {
        let mut out = Vec::with_capacity(if keep { n } else { 0 });
        let mut done = 0;
        while done < n {
            if body.len() < 8 {
                let got = reader
                    .read(&mut buf)
                    .map_err(|e| format!("cannot read it: {e}"))?;
                if got == 0 {
                    return Err("it ends early".into());
                }
                body.extend_from_slice(&buf[..got]);
            }
            let take = (body.len() / 8).min(n - done);
            crc.update(&body[..8 * take]);
            if keep {
                out.extend(
                    body[..8 * take]
                        .chunks_exact(8)
                        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))),
                );
            }
            body.drain(..8 * take);
            done += take;
        }
        Ok(out)
    };
    let residues = words(r, &mut body)?;
    let frontier = words(f, &mut body)?;
    Ok((residues, frontier, crc.finalize()))
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use super::*;
    use crate::board::{Board, Shape};
    use crate::build::cluster::{
        Checkpoints, Cluster, ClusterEvent, search_cluster, table_from_parts,
    };
    use crate::table::generate;

    /// Copies the checkpoint slots of `from` into `to`.
    fn copy_checkpoints(from: &Path, to: &Path) {
        for entry in std::fs::read_dir(from).unwrap() {
            let name = entry.unwrap().file_name();
            let name = name.to_string_lossy();
            if name.starts_with("checkpoint-") && name.ends_with(".slidedb") {
                std::fs::copy(from.join(&*name), to.join(&*name)).unwrap();
            }
        }
    }

    /// A search stopped after any layer goes on from its checkpoints to
    /// the same result; a damaged slot is passed over for the other one.
    #[test]
    fn a_search_goes_on_from_its_checkpoints() {
        let goal: Board = "1 2 3 / 4 0 5 / 6 7 8".parse().unwrap();
        let expected = generate(&goal, |_| {}).unwrap();
        let (fresh, copies) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let cluster = |dir: &Path| Cluster {
            addresses: Vec::new(),
            process: 0,
            workers: 3,
            connect_timeout: Duration::ZERO,
            peer_timeout: Duration::from_secs(60),
            checkpoints: Some(Checkpoints {
                dir: dir.to_path_buf(),
                every: Duration::ZERO,
            }),
        };
        let stop_at = 9;
        let (from, to) = (fresh.path().to_path_buf(), copies.path().to_path_buf());
        let first = search_cluster(&goal, &cluster(fresh.path()), move |event| {
            // Every worker has written its checkpoint of this layer, and
            // worker 0 (reporting) none after it.
            if let ClusterEvent::Layer(layer) = event
                && layer.depth == stop_at
            {
                copy_checkpoints(&from, &to);
            }
        })
        .unwrap();
        assert_eq!(first.resumed, None);
        let table = table_from_parts(&goal, &first.layers, &first.parts);
        assert!(table.as_bytes() == expected.as_bytes());

        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&events);
        let again = search_cluster(&goal, &cluster(copies.path()), move |e| {
            seen.lock().unwrap().push(e.clone())
        })
        .unwrap();
        assert_eq!(again.resumed, Some(stop_at));
        assert!(events.lock().unwrap().contains(&ClusterEvent::Resumed {
            depth: stop_at,
            run: first.run
        }));
        assert_eq!(
            (again.run, &again.layers, again.moves, again.sent),
            (first.run, &first.layers, first.moves, first.sent)
        );
        assert_eq!((&again.parts, &again.shards), (&first.parts, &first.shards));
        assert_eq!(again.hardest, first.hardest);

        // The finished search left the checkpoints of its last two
        // layers; damage one slot of worker 2's and it goes on from the
        // layer before, to the same result.
        let last = first.layers.len() as u32;
        let slot = (0..2)
            .map(|slot| fresh.path().join(checkpoint_name(2, 3, slot)))
            .find(|path| {
                let bytes = std::fs::read(path).unwrap();
                let frame = crate::format::read::<WorkerCheckpoint>(
                    &bytes,
                    crate::format::Kind::WorkerCheckpoint,
                    ENCODING_WORKER_CHECKPOINT,
                )
                .unwrap();
                frame.metadata.depth == last
            })
            .expect("a slot holds the last layer");
        let mut bytes = std::fs::read(&slot).unwrap();
        let at = bytes.len() - 3;
        bytes[at] ^= 0x10;
        std::fs::write(&slot, bytes).unwrap();
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&events);
        let third = search_cluster(&goal, &cluster(fresh.path()), move |e| {
            seen.lock().unwrap().push(e.clone())
        })
        .unwrap();
        assert_eq!(third.resumed, Some(last - 1));
        assert_eq!(&third.parts, &first.parts);
        let events = events.lock().unwrap();
        assert!(
            events.iter().any(|e| matches!(e,
                ClusterEvent::Ignored { path, why } if *path == slot && why.contains("damaged"))),
            "{events:?}"
        );
    }

    /// With no checkpoint every worker holds, a search starts a new run
    /// and clears the old slots.
    #[test]
    fn checkpoints_not_held_by_every_worker_start_a_new_run() {
        let goal = Board::solved(Shape::new(2, 4).unwrap());
        let dir = tempfile::tempdir().unwrap();
        let cluster = Cluster {
            addresses: Vec::new(),
            process: 0,
            workers: 2,
            connect_timeout: Duration::ZERO,
            peer_timeout: Duration::from_secs(60),
            checkpoints: Some(Checkpoints {
                dir: dir.path().to_path_buf(),
                every: Duration::ZERO,
            }),
        };
        let first = search_cluster(&goal, &cluster, |_| {}).unwrap();
        for slot in 0..2 {
            std::fs::remove_file(dir.path().join(checkpoint_name(1, 2, slot))).unwrap();
        }
        let again = search_cluster(&goal, &cluster, |_| {}).unwrap();
        assert_eq!(again.resumed, None);
        assert_ne!(again.run, first.run);
        assert_eq!(again.parts, first.parts);
    }
}
