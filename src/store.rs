//! Where tables live on disk: their default file names and the atomic write.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::board::Board;

/// The file extension of table files.
pub const EXTENSION: &str = "slidedb";

/// The default file name of the table for `goal`: the size, then the
/// goal's cells joined by `-`, such as `3x3-1-2-3-4-5-6-7-8-0.slidedb`.
///
/// ```
/// use slidedb::{Board, Shape, default_file_name};
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// assert_eq!(default_file_name(&goal), "2x3-1-2-3-4-5-0.slidedb");
/// ```
pub fn default_file_name(goal: &Board) -> String {
    let cells: Vec<String> = goal.tiles().map(|t| t.to_string()).collect();
    format!("{}-{}.{EXTENSION}", goal.shape(), cells.join("-"))
}

/// The folder tables are looked for and saved in: `$SLIDEDB_DATA` if set
/// and not empty, else `./data`.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("SLIDEDB_DATA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from("data"),
    }
}

/// Writes `bytes` to `path` atomically: into a new temporary file in the
/// same folder (a unique name, created exclusively), flushed to disk, then
/// moved to `path` in one step. Readers see the old file or the new one,
/// never a part, and a writer killed at any moment leaves `path` as it was.
///
/// Without `overwrite`, an existing `path` is an `AlreadyExists` error, and
/// the final step refuses to replace a file that appeared meanwhile. The
/// folder must exist. On any error the temporary file is removed.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let exists = || {
        io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists (pass --force to replace it)", path.display()),
        )
    };
    if !overwrite && path.exists() {
        return Err(exists());
    }
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            format!("{} is a directory", path.display()),
        ));
    }
    // Dropping `temp` on any early return removes the file.
    let mut temp = tempfile::Builder::new()
        .prefix(".slidedb-")
        .suffix(".tmp")
        .tempfile_in(&dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    if overwrite {
        temp.persist(path).map_err(|e| e.error)?;
    } else {
        temp.persist_noclobber(path)
            .map_err(|e| match e.error.kind() {
                io::ErrorKind::AlreadyExists => exists(),
                _ => e.error,
            })?;
    }
    // Make the rename itself durable.
    if let Ok(d) = fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
