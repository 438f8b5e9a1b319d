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
    format!("{}.{EXTENSION}", stem(goal))
}

/// The size and the goal's cells joined by `-`: what every file for
/// `goal` is named by.
fn stem(goal: &Board) -> String {
    let cells: Vec<String> = goal.tiles().map(|t| t.to_string()).collect();
    format!("{}-{}", goal.shape(), cells.join("-"))
}

/// The default file name of the pattern databases for `goal` with group
/// sizes `sizes` (such as `6-6-3`): the table's name with `-pdb-` and the
/// sizes before the extension.
///
/// ```
/// use slidedb::{Board, Shape, store::pattern_file_name};
/// let goal = Board::solved(Shape::new(4, 4).unwrap());
/// assert_eq!(
///     pattern_file_name(&goal, "7-8"),
///     "4x4-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0-pdb-7-8.slidedb"
/// );
/// ```
pub fn pattern_file_name(goal: &Board, sizes: &str) -> String {
    format!("{}{sizes}.{EXTENSION}", pattern_file_prefix(goal))
}

/// How every [`pattern_file_name`] for `goal` begins, whatever its sizes.
///
/// ```
/// use slidedb::{Board, Shape, store::pattern_file_prefix};
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// assert_eq!(pattern_file_prefix(&goal), "2x3-1-2-3-4-5-0-pdb-");
/// ```
pub fn pattern_file_prefix(goal: &Board) -> String {
    format!("{}-pdb-", stem(goal))
}

/// The folder tables are looked for and saved in: `$SLIDEDB_DATA` if set
/// and not empty, else `./data`.
pub fn data_dir() -> PathBuf {
    match std::env::var_os("SLIDEDB_DATA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from("data"),
    }
}

/// The temporary files [`write_atomic`] writes before renaming them are
/// named `.slidedb-XXXXXX.tmp`: hidden, in the target folder.
const TEMP_PREFIX: &str = ".slidedb-";
const TEMP_SUFFIX: &str = ".tmp";

/// How temporary files are made: named `.slidedb-XXXXXX.tmp`, created
/// exclusively, with the mode any new file gets (0666 less the umask, like
/// `fs::write`), not tempfile's owner-only 0600, which the rename would
/// hand on to the table (and to every table replaced with --force).
fn temp_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder
}

/// Checks that [`write_atomic`] could create its temporary file next to
/// `path` (creating and removing one), so that a read-only or forbidden
/// folder is found before the work of building the bytes, not after.
/// A full disk is only found by the write itself.
pub fn check_writable(path: &Path) -> io::Result<()> {
    temp_builder().tempfile_in(parent_dir(path)).map(drop)
}

/// The folder `path` is in: its parent, or `.` for a bare name.
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
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
///
/// A process killed by a signal (SIGKILL, or an unhandled SIGINT/SIGTERM)
/// while the temporary file exists, between its creation and the rename,
/// cannot remove it: it stays in the folder as `.slidedb-XXXXXX.tmp`,
/// hidden, never under `path`'s name, and holding a prefix of `bytes`.
/// Such files are left alone (a later writer cannot tell a stale one from
/// another writer's live one); delete them when no writer is running.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> io::Result<()> {
    let dir = parent_dir(path);
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
    let mut temp = temp_builder().tempfile_in(&dir)?;
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
