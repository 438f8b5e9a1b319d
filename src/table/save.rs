//! Saving an open table as one file: the bytes of a table in one file
//! written as they are, a sharded table's merged from its directory. Both
//! write atomically (a hidden temporary file renamed into place) and
//! replace an existing file only when asked.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::file as table_file;
use super::shards::{hardest_boards, open_shards};
use super::{ShardError, Table, metadata};
use crate::output::{WriteError, write_framed};
use crate::rank::Indexer;

/// Why a table could not be saved.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The file could not be written (an existing file without
    /// `overwrite` among the reasons).
    #[error("cannot write {}", path.display())]
    Write {
        /// The file asked for.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// The shards of a sharded table were written again since it was
    /// opened (another build): its answers and the shards now differ.
    #[error("the shards in {} changed since the table was opened (another build wrote them): open it again", dir.display())]
    Changed {
        /// The directory of shards.
        dir: PathBuf,
    },
    /// A shard could not be read, or is not the manifest's.
    #[error(transparent)]
    Shards(#[from] ShardError),
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Writes the table to `path` as one table file, the file
    /// [`generate()`](crate::generate) and `slidedb-gen` write, and
    /// returns its length: atomically (a hidden temporary file in `path`'s
    /// folder, which must exist, renamed into place); an existing file is
    /// replaced only if `overwrite`. A sharded table
    /// (a folder of shards and their manifest) is merged from its
    /// directory, each shard checked against the manifest; if the
    /// directory changed since the table was opened, that is
    /// [`SaveError::Changed`] and nothing is written.
    ///
    /// ```
    /// use slidedb::{Board, Shape, Table, generate, table::SaveError};
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("2x3.slidedb");
    /// let table = generate(&Board::solved(Shape::new(2, 3).unwrap()), |_| {}).unwrap();
    /// assert_eq!(table.save(&path, false).unwrap(), std::fs::metadata(&path).unwrap().len());
    /// let Err(SaveError::Write { source, .. }) = table.save(&path, false) else { panic!() };
    /// assert_eq!(source.kind(), std::io::ErrorKind::AlreadyExists); // not without overwrite
    /// assert_eq!(Table::open_path(&path).unwrap().as_bytes(), table.as_bytes());
    /// ```
    pub fn save(&self, path: &Path, overwrite: bool) -> Result<u64, SaveError> {
        let write = |source| SaveError::Write {
            path: path.to_path_buf(),
            source,
        };
        let Some(bodies) = &self.shards else {
            let bytes = self.as_bytes();
            crate::output::write_atomic(path, bytes, overwrite).map_err(write)?;
            return Ok(bytes.len() as u64);
        };
        let dir = bodies.dir();
        // The manifest read now is the one the table was opened with.
        let unchanged = || match std::fs::read(dir.join(super::MANIFEST_NAME)) {
            Ok(now) if now == self.as_bytes() => Ok(()),
            Ok(_) => Err(SaveError::Changed {
                dir: dir.to_path_buf(),
            }),
            Err(source) => Err(SaveError::Shards(ShardError::Read {
                path: dir.join(super::MANIFEST_NAME),
                source,
            })),
        };
        unchanged()?;
        crate::output::check_target(path, overwrite).map_err(write)?;
        let len = merge(dir, path, overwrite).map_err(|e| match e {
            ShardError::Write(WriteError { path, source, .. }) => SaveError::Write { path, source },
            e => SaveError::Shards(e),
        })?;
        // The shards merged are the manifest's (each checked against its
        // CRC-32): the table's, if the manifest still is.
        if let Err(e) = unchanged() {
            let _ = std::fs::remove_file(path);
            return Err(e);
        }
        Ok(len)
    }
}

/// Merges the sharded table in `dir` into one table file at `out`
/// (written into a new hidden file in `out`'s folder, `.slidedb-XXXXXX.tmp`
/// as [`crate::write_atomic`] writes, synced, then renamed over `out`; no
/// other file is touched, and the folder must exist), checking each shard
/// against the manifest (run, range, length, CRC-32). Returns the file's
/// length.
pub fn merge_shards(dir: &Path, out: &Path) -> Result<u64, ShardError> {
    merge(dir, out, true)
}

/// [`merge_shards`], replacing `out` only if `overwrite`.
fn merge(dir: &Path, out: &Path, overwrite: bool) -> Result<u64, ShardError> {
    let (manifest, bodies, _) = open_shards(dir, true)?;
    let class = manifest.goals.class().expect("a checked manifest");
    let indexer = Indexer::new(class.canonical());
    let cells = indexer.shape().cells();
    let metric = crate::goals::metric_of(manifest.metric).map_err(|fault| ShardError::Table {
        path: dir.to_path_buf(),
        fault,
    })?;
    let metadata = metadata(
        &class,
        metric,
        manifest.layers.clone(),
        &hardest_boards(&manifest),
    );
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
    let placed = if overwrite {
        partial.persist(out)
    } else {
        partial.persist_noclobber(out)
    };
    placed.map_err(|e| match e.error.kind() {
        io::ErrorKind::AlreadyExists => write_error(
            "write",
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} exists", out.display()),
            ),
        ),
        _ => write_error("rename", e.error),
    })?;
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
