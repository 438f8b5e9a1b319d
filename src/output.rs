//! How slidedb writes what a user names: the file of an `--out`, the
//! folder it goes into, the data folder, and the files a build streams.
//! The rules every front's `--out` shares live here once, so that the
//! command line, the server and Python write alike.
//!
//! - Folders: [`create_out_dir`] makes the last folder of a path and
//!   never its parent (a mistyped path is an error naming it);
//!   [`create_data_dir`] makes the data folder with its parents.
//! - Before the work: [`check_target`] (what `--force` may replace) and
//!   [`check_writable`] (the folder takes a new file).
//! - The writes: [`write_atomic`] (all the bytes, renamed into place in
//!   one step); inside the crate, the framed write of a file whose body is
//!   streamed, its checksum in its head, and the creation of a file only
//!   while no stop has begun.
//!
//! It imports nothing of the crate: where files are and what they are
//! named is the private `store`'s.

use std::fs::{self, File};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Creates the data folder `dir` if it is missing, with its parents, and
/// says whether it did. One rule for every data folder, the platform's
/// default (a fresh account may have no `~/.local/share` yet) as one named
/// by the user: the caller says where it was created.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let data = dir.path().join("tables/slidedb");
/// assert_eq!(slidedb::output::create_data_dir(&data).unwrap(), true);
/// assert_eq!(slidedb::output::create_data_dir(&data).unwrap(), false);
/// let file = dir.path().join("a-file");
/// std::fs::write(&file, b"").unwrap();
/// assert!(slidedb::output::create_data_dir(&file).is_err());
/// ```
pub fn create_data_dir(dir: &Path) -> io::Result<bool> {
    if dir.is_dir() {
        return Ok(false);
    }
    if dir.exists() {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is not a folder", dir.display()),
        ));
    }
    fs::create_dir_all(dir)?;
    Ok(true)
}

/// Makes the output folder `dir` if it is missing, but never its parent,
/// and says whether it did: the rule of every `--out DIR` and `--dir DIR`,
/// so that a mistyped path is an error naming the folder that does not
/// exist (a `NotFound` error), not a tree of new folders. An existing
/// folder is used as it is; anything else at `dir` is a `NotADirectory`
/// error.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("site");
/// assert_eq!(slidedb::output::create_out_dir(&out).unwrap(), true);
/// assert_eq!(slidedb::output::create_out_dir(&out).unwrap(), false);
/// let deeper = dir.path().join("no/such");
/// let e = slidedb::output::create_out_dir(&deeper).unwrap_err();
/// assert!(e.to_string().contains("does not exist"), "{e}");
/// assert!(!dir.path().join("no").exists());
/// ```
pub fn create_out_dir(dir: &Path) -> io::Result<bool> {
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => return Ok(false),
        Ok(_) => {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a folder", dir.display()),
            ));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    existing_parent(dir)?;
    match fs::create_dir(dir) {
        // Made meanwhile by another process: as good.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(false),
        Err(e) => Err(e),
        Ok(()) => Ok(true),
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
pub(crate) fn temp_builder() -> tempfile::Builder<'static, 'static> {
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
    let dir = existing_parent(path)?;
    temp_builder().tempfile_in(dir).map(drop)
}

/// The folder `path` is in, which must exist: it is never created here, so
/// a mistyped path is an error naming the missing folder.
pub(crate) fn existing_parent(path: &Path) -> io::Result<PathBuf> {
    let dir = parent_dir(path);
    match fs::metadata(&dir) {
        Ok(m) if m.is_dir() => Ok(dir),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is not a folder", dir.display()),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("the folder {} does not exist", dir.display()),
        )),
        Err(e) => Err(e),
    }
}

/// Checks that [`write_atomic`] may write `path`: nothing is there, or
/// (with `overwrite`) a regular file. A directory, a device, a FIFO or a
/// socket is never replaced, whatever `overwrite` says; a symbolic link is
/// refused too (the write would replace the link itself, not the file it
/// points to): name the file it points to instead. An existing regular
/// file without `overwrite` is an `AlreadyExists` error.
///
/// ```
/// use std::io::ErrorKind;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("t.slidedb");
/// assert!(slidedb::output::check_target(&path, false).is_ok());
/// std::fs::write(&path, b"old").unwrap();
/// assert_eq!(slidedb::output::check_target(&path, false).unwrap_err().kind(), ErrorKind::AlreadyExists);
/// assert!(slidedb::output::check_target(&path, true).is_ok());
/// assert!(slidedb::output::check_target(dir.path(), true).is_err()); // a directory
/// ```
pub fn check_target(path: &Path, overwrite: bool) -> io::Result<()> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let kind = meta.file_type();
    let refuse = |what: String| Err(io::Error::new(io::ErrorKind::InvalidInput, what));
    if kind.is_symlink() {
        let to = fs::read_link(path)
            .map(|t| format!(" (to {})", t.display()))
            .unwrap_or_default();
        return refuse(format!(
            "{} is a symbolic link{to}: name the file itself",
            path.display()
        ));
    }
    if !kind.is_file() {
        return refuse(format!(
            "{} is {}, not a regular file: name a file to write",
            path.display(),
            file_kind(&kind)
        ));
    }
    if !overwrite {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists", path.display()),
        ));
    }
    Ok(())
}

/// What a file that is not a regular file is, in words.
fn file_kind(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// The folder `path` is in: its parent, or `.` for a bare name.
pub(crate) fn parent_dir(path: &Path) -> PathBuf {
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
/// the final step refuses to replace a file that appeared meanwhile. With
/// it, only a regular file is replaced (see [`check_target`]: never a
/// directory, device, FIFO, socket or symbolic link). The
/// folder must exist (a missing one is a `NotFound` error naming it; it is
/// never created here). On any error the temporary file is removed.
///
/// A process killed by a signal (SIGKILL, or an unhandled SIGINT/SIGTERM)
/// while the temporary file exists, between its creation and the rename,
/// cannot remove it: it stays in the folder as `.slidedb-XXXXXX.tmp`,
/// hidden, never under `path`'s name, and holding a prefix of `bytes`.
/// Such files are left alone (a later writer cannot tell a stale one from
/// another writer's live one); delete them when no writer is running.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> io::Result<()> {
    let dir = existing_parent(path)?;
    let exists = || {
        io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} exists", path.display()),
        )
    };
    check_target(path, overwrite)?;
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

/// A file of the family could not be written: what was being done, to
/// which file, and what the system said (its source, shown after it by a
/// chain of errors, as `{:#}` of anyhow shows).
#[derive(Debug, thiserror::Error)]
#[error("cannot {what} {}", path.display())]
pub struct WriteError {
    /// What was being done (`"write"`, `"rename"`).
    pub what: &'static str,
    /// The file.
    pub path: PathBuf,
    /// The system's error.
    #[source]
    pub source: io::Error,
}

/// Held while a build creates a file (see
/// [`crate::build::WorkFiles::remove_scratch_before_exit`]).
pub(crate) static CREATING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `create` (which creates a file) unless a stop has begun, in which
/// case it waits for the process to exit.
pub(crate) fn create_file<T>(create: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let _creating = CREATING.lock().unwrap_or_else(|e| e.into_inner());
    create()
}

/// Writes a file of the family ([`crate::format`]) to `path`, synced: `head(crc)` before a
/// body that `body` streams, whose CRC-32 the head records (written
/// first with a CRC of 0, then again once the body is known). Returns
/// the file's length.
pub(crate) fn write_framed(
    path: &Path,
    head: impl Fn(u32) -> Vec<u8>,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<u64, WriteError> {
    let io = |source| WriteError {
        what: "write",
        path: path.to_path_buf(),
        source,
    };
    let mut f = create_file(|| File::create(path)).map_err(io)?;
    f.write_all(&head(0)).map_err(io)?;
    let mut writer = Crc32Writer::new(io::BufWriter::with_capacity(1 << 22, &mut f));
    body(&mut writer).map_err(io)?;
    let (crc, mut inner) = writer.finish();
    inner.flush().map_err(io)?;
    drop(inner);
    f.seek(SeekFrom::Start(0)).map_err(io)?;
    f.write_all(&head(crc)).map_err(io)?;
    f.sync_all().map_err(io)?;
    f.metadata().map(|m| m.len()).map_err(io)
}

/// A writer that keeps the CRC-32 of what passes through it.
struct Crc32Writer<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Crc32Writer<W> {
    fn new(inner: W) -> Crc32Writer<W> {
        Crc32Writer {
            inner,
            crc: crc32fast::Hasher::new(),
        }
    }

    fn finish(self) -> (u32, W) {
        (self.crc.finalize(), self.inner)
    }
}

impl<W: Write> Write for Crc32Writer<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
