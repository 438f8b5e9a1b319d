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

/// Writes `bytes` to `path` atomically: into a temporary file in the same
/// folder, flushed to disk, then renamed over `path`. Readers see the old
/// file or the new one, never a part. Refuses to replace an existing file
/// unless `overwrite`. Creates the folder if it is missing.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)?;
    if !overwrite && path.exists() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists (pass --force to replace it)", path.display()),
        ));
    }
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let temp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        if !overwrite && path.exists() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} exists (pass --force to replace it)", path.display()),
            ));
        }
        fs::rename(&temp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}
