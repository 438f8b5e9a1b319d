//! Where files live on disk: the data folder, file names, memory maps,
//! and the atomic write.

use std::fs::{self, File};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::format::FileError;

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

/// What a file name of the data folder says it holds: the goal its
/// [`default_file_name`] or [`pattern_file_name`] was made from, and the
/// group sizes of pattern databases (`None` for a full table). `None` for
/// any other name (side files, a user's files).
///
/// ```
/// use slidedb::{Board, Shape, store::{parse_file_name, pattern_file_name}};
/// let goal = Board::solved(Shape::new(4, 4).unwrap());
/// let name = pattern_file_name(&goal, "5-5-5");
/// assert_eq!(parse_file_name(&name), Some((goal, Some("5-5-5".to_string()))));
/// assert_eq!(parse_file_name("2x3-1-2-3-4-5-0.slidedb").map(|(_, s)| s), Some(None));
/// assert_eq!(parse_file_name("2x3-1-2-3-4-5-0.rare-layers.slidedb"), None);
/// assert_eq!(parse_file_name("notes.txt"), None);
/// ```
pub fn parse_file_name(name: &str) -> Option<(Board, Option<String>)> {
    let stem = name.strip_suffix(&format!(".{EXTENSION}"))?;
    let (stem, sizes) = match stem.split_once("-pdb-") {
        Some((stem, sizes)) => (stem, Some(sizes.to_string())),
        None => (stem, None),
    };
    let mut parts = stem.split('-');
    let shape: crate::board::Shape = parts.next()?.parse().ok()?;
    let tiles: Vec<u8> = parts.map(|t| t.parse().ok()).collect::<Option<_>>()?;
    let goal = Board::from_tiles(shape, &tiles).ok()?;
    // The name of that goal and sizes exactly: no other spelling.
    let again = match &sizes {
        Some(sizes) => pattern_file_name(&goal, sizes),
        None => default_file_name(&goal),
    };
    (again == name).then_some((goal, sizes))
}

/// The environment variable that names the data folder.
pub const DATA_ENV: &str = "SLIDEDB_DATA";

/// The default data folder, where tables are looked for and saved:
/// `$SLIDEDB_DATA` if it is set and not empty, else `slidedb` in the
/// user's data directory (`$XDG_DATA_HOME/slidedb`, that is
/// `~/.local/share/slidedb`, on Linux; `~/Library/Application
/// Support/slidedb` on macOS; `%APPDATA%\slidedb` on Windows). `None`
/// when neither can be found (no home directory).
///
/// ```
/// // SAFETY: no other thread of this doctest reads the environment.
/// unsafe { std::env::set_var("SLIDEDB_DATA", "/srv/tables") };
/// assert_eq!(slidedb::store::default_data_dir().unwrap(), std::path::Path::new("/srv/tables"));
/// ```
pub fn default_data_dir() -> Option<PathBuf> {
    match std::env::var_os(DATA_ENV) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => platform_data_dir(),
    }
}

/// The platform's default data folder: `slidedb` in the user's data
/// directory, whatever `$SLIDEDB_DATA` says.
fn platform_data_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("slidedb"))
}

/// Creates the data folder `dir` if it is missing, with its parents, and
/// says whether it did. One rule for every data folder, the platform's
/// default (a fresh account may have no `~/.local/share` yet) as one named
/// by the user: the caller says where it was created.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let data = dir.path().join("tables/slidedb");
/// assert_eq!(slidedb::store::create_data_dir(&data).unwrap(), true);
/// assert_eq!(slidedb::store::create_data_dir(&data).unwrap(), false);
/// let file = dir.path().join("a-file");
/// std::fs::write(&file, b"").unwrap();
/// assert!(slidedb::store::create_data_dir(&file).is_err());
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
/// assert_eq!(slidedb::store::create_out_dir(&out).unwrap(), true);
/// assert_eq!(slidedb::store::create_out_dir(&out).unwrap(), false);
/// let deeper = dir.path().join("no/such");
/// let e = slidedb::store::create_out_dir(&deeper).unwrap_err();
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

/// The bytes of a table or pattern databases file: memory-mapped from its
/// file, or built in memory. Either way they are read the same, so one
/// type serves both (`Table<Bytes>`, `PatternDb<Bytes>`).
#[derive(Debug)]
pub enum Bytes {
    /// A read-only map of a file (see [`map_file`]).
    Mapped(memmap2::Mmap),
    /// Bytes in memory, such as a table just built.
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// A file's identity as the system sees it: device, inode, size, and the
/// times of its last modification and last status change. Any write to
/// the file, or a new file renamed over its name, gives another identity
/// (the status-change time cannot be set back by a user program).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileIdentity {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i128,
    changed_ns: i128,
}

impl FileIdentity {
    /// The identity of the file `meta` describes.
    ///
    /// ```
    /// use slidedb::store::FileIdentity;
    /// let dir = tempfile::tempdir().unwrap();
    /// let path = dir.path().join("f");
    /// std::fs::write(&path, b"one").unwrap();
    /// let before = FileIdentity::of(&std::fs::metadata(&path).unwrap());
    /// std::fs::write(&path, b"two!").unwrap();
    /// assert_ne!(FileIdentity::of(&std::fs::metadata(&path).unwrap()), before);
    /// ```
    pub fn of(meta: &fs::Metadata) -> FileIdentity {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileIdentity {
                device: meta.dev(),
                inode: meta.ino(),
                size: meta.size(),
                modified_ns: meta.mtime() as i128 * 1_000_000_000 + meta.mtime_nsec() as i128,
                changed_ns: meta.ctime() as i128 * 1_000_000_000 + meta.ctime_nsec() as i128,
            }
        }
        #[cfg(not(unix))]
        {
            let nanos = |t: io::Result<std::time::SystemTime>| {
                t.ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos() as i128)
            };
            FileIdentity {
                device: 0,
                inode: 0,
                size: meta.len(),
                modified_ns: nanos(meta.modified()),
                changed_ns: nanos(meta.created()),
            }
        }
    }

    /// The line a stamp file holds for this identity.
    fn line(&self) -> String {
        format!(
            "slidedb verified 1: device {} inode {} size {} modified {} changed {}\n",
            self.device, self.inode, self.size, self.modified_ns, self.changed_ns
        )
    }
}

/// Where the rare layers of the table at `path` are kept
/// ([`crate::table::RareLayers`]): beside it, `NAME.rare-layers.slidedb`
/// (`NAME` without its `.slidedb`).
///
/// ```
/// use std::path::Path;
/// assert_eq!(
///     slidedb::store::rare_layers_path(Path::new("/d/3x4.slidedb")),
///     Path::new("/d/3x4.rare-layers.slidedb")
/// );
/// ```
pub fn rare_layers_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".slidedb").unwrap_or(&name);
    parent_dir(path).join(format!("{stem}.rare-layers.slidedb"))
}

/// Where the stamp of `path` lives: a hidden file beside it,
/// `.NAME.verified`.
///
/// ```
/// use std::path::Path;
/// assert_eq!(
///     slidedb::store::stamp_path(Path::new("/d/3x4.slidedb")),
///     Path::new("/d/.3x4.slidedb.verified")
/// );
/// ```
pub fn stamp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    parent_dir(path).join(format!(".{name}.verified"))
}

/// Whether the file of `identity` at `path` was fully checked since it
/// last changed: its stamp ([`stamp`]) names exactly this identity.
///
/// ```
/// use slidedb::store::{FileIdentity, is_stamped, stamp};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("t.slidedb");
/// std::fs::write(&path, b"checked bytes").unwrap();
/// let id = FileIdentity::of(&std::fs::metadata(&path).unwrap());
/// assert!(!is_stamped(&path, &id));
/// stamp(&path, &id).unwrap();
/// assert!(is_stamped(&path, &id));
/// ```
pub fn is_stamped(path: &Path, identity: &FileIdentity) -> bool {
    // A stamp is one short line: never read more.
    let mut line = String::new();
    fs::File::open(stamp_path(path))
        .and_then(|f| io::Read::read_to_string(&mut io::Read::take(f, 256), &mut line))
        .is_ok_and(|_| line == identity.line())
}

/// Records that the file of `identity` at `path` was fully checked, in a
/// stamp file beside it (written atomically). A later open that finds the
/// same identity may skip the check; any change to the file changes its
/// identity. Fails where the folder is not writable: the file is then
/// checked on every open.
pub fn stamp(path: &Path, identity: &FileIdentity) -> io::Result<()> {
    write_atomic(&stamp_path(path), identity.line().as_bytes(), true)
}

/// [`map_file`], and the identity of the file mapped (taken from the open
/// file, so it is the one whose bytes the map reads).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("x");
/// std::fs::write(&path, b"bytes").unwrap();
/// let (map, id) = slidedb::store::map_file_identified(&path).unwrap();
/// assert_eq!(&map[..], b"bytes");
/// assert_eq!(id, slidedb::store::FileIdentity::of(&std::fs::metadata(&path).unwrap()));
/// ```
pub fn map_file_identified(path: &Path) -> Result<(memmap2::Mmap, FileIdentity), FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let kind = fs::metadata(path).map_err(io)?.file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "is a directory"
        } else {
            "is not a regular file"
        };
        return Err(io(io::Error::new(io::ErrorKind::InvalidInput, what)));
    }
    let file = fs::File::open(path).map_err(io)?;
    let identity = FileIdentity::of(&file.metadata().map_err(io)?);
    // SAFETY: the map is read-only, and slidedb replaces its files only by
    // renaming a new file over them, so a map keeps the old file's bytes.
    // A file changed or truncated in place by another program is the
    // documented risk of `map_file`.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
    Ok((map, identity))
}

/// Memory-maps a regular file read-only. A FIFO, device or directory is
/// refused before it is opened (opening a FIFO would block forever).
///
/// The map shares the file's pages: slidedb replaces its files only by
/// renaming a new file over the old name ([`write_atomic`]), which leaves
/// an existing map on the old, unchanged bytes. A file changed in place by
/// another program while it is mapped changes what the map reads (answers
/// from such bytes can be wrong; `verify` finds it), and a file truncated
/// in place makes reads past its new end fault (the process gets SIGBUS):
/// that is the risk every memory-mapped reader takes.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("x");
/// std::fs::write(&path, b"bytes").unwrap();
/// assert_eq!(&slidedb::store::map_file(&path).unwrap()[..], b"bytes");
/// assert!(slidedb::store::map_file(dir.path()).is_err()); // a directory
/// ```
pub fn map_file(path: &Path) -> Result<memmap2::Mmap, FileError> {
    map_file_identified(path).map(|(map, _)| map)
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
/// assert!(slidedb::store::check_target(&path, false).is_ok());
/// std::fs::write(&path, b"old").unwrap();
/// assert_eq!(slidedb::store::check_target(&path, false).unwrap_err().kind(), ErrorKind::AlreadyExists);
/// assert!(slidedb::store::check_target(&path, true).is_ok());
/// assert!(slidedb::store::check_target(dir.path(), true).is_err()); // a directory
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
pub fn create_file<T>(create: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let _creating = CREATING.lock().unwrap_or_else(|e| e.into_inner());
    create()
}

/// Writes a file of the family ([`crate::format`]) to `path`, synced: `head(crc)` before a
/// body that `body` streams, whose CRC-32 the head records (written
/// first with a CRC of 0, then again once the body is known). Returns
/// the file's length.
pub fn write_framed(
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
