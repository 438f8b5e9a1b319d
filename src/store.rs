//! Where files live on disk: the data folder, file names, memory maps,
//! and the stamps of files checked. How a file is written is
//! [`crate::output`]'s.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::board::{Board, Metric};
use crate::format::FileError;
use crate::output::{parent_dir, write_atomic};

/// The file extension of table files.
pub(crate) const EXTENSION: &str = "slidedb";

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

/// The file name the data folder keeps `goal`'s full table in `metric`
/// under: [`default_file_name`] in the single-tile metric, and with
/// `-multi` before the extension in the multi-tile metric.
///
/// ```
/// use slidedb::{Board, Metric, Shape, table_file_name};
/// let goal = Board::solved(Shape::new(2, 3).unwrap());
/// assert_eq!(table_file_name(&goal, Metric::Single), "2x3-1-2-3-4-5-0.slidedb");
/// assert_eq!(table_file_name(&goal, Metric::Multi), "2x3-1-2-3-4-5-0-multi.slidedb");
/// ```
pub fn table_file_name(goal: &Board, metric: Metric) -> String {
    match metric {
        Metric::Single => default_file_name(goal),
        Metric::Multi => format!("{}-multi.{EXTENSION}", stem(goal)),
    }
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
/// use slidedb::{Board, Shape, pattern_file_name};
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
pub(crate) fn pattern_file_prefix(goal: &Board) -> String {
    format!("{}-pdb-", stem(goal))
}

/// What a file name of the data folder says it holds: the goal its
/// [`table_file_name`] or [`pattern_file_name`] was made from, the group
/// sizes of pattern databases (`None` for a full table), and the metric.
/// `None` for any other name (side files, a user's files).
pub(crate) fn parse_file_name(name: &str) -> Option<(Board, Option<String>, Metric)> {
    let stem = name.strip_suffix(&format!(".{EXTENSION}"))?;
    let (stem, sizes) = match stem.split_once("-pdb-") {
        Some((stem, sizes)) => (stem, Some(sizes.to_string())),
        None => (stem, None),
    };
    let (stem, metric) = match stem.strip_suffix("-multi") {
        Some(stem) if sizes.is_none() => (stem, Metric::Multi),
        _ => (stem, Metric::Single),
    };
    let mut parts = stem.split('-');
    let shape: crate::board::Shape = parts.next()?.parse().ok()?;
    let tiles: Vec<u8> = parts.map(|t| t.parse().ok()).collect::<Option<_>>()?;
    let goal = Board::from_tiles(shape, &tiles).ok()?;
    // The name of that goal and sizes exactly: no other spelling.
    let again = match &sizes {
        Some(sizes) => pattern_file_name(&goal, sizes),
        None => table_file_name(&goal, metric),
    };
    (again == name).then_some((goal, sizes, metric))
}

/// The environment variable that names the data folder.
pub(crate) const DATA_ENV: &str = "SLIDEDB_DATA";

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
/// assert_eq!(slidedb::default_data_dir().unwrap(), std::path::Path::new("/srv/tables"));
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

/// The bytes of a table or pattern databases file: memory-mapped from its
/// file, or built in memory. Either way they are read the same, so one
/// type serves both (`Table<Bytes>`, `PatternDb<Bytes>`).
#[derive(Debug)]
pub enum Bytes {
    /// A read-only map: of a file, or of a copy of one in anonymous
    /// memory (see
    /// [`patterns_in_huge_pages`](crate::DatabaseBuilder::patterns_in_huge_pages)).
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
pub(crate) struct FileIdentity {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i128,
    changed_ns: i128,
}

impl FileIdentity {
    /// The identity of the file `meta` describes.
    pub(crate) fn of(meta: &fs::Metadata) -> FileIdentity {
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
pub(crate) fn rare_layers_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".slidedb").unwrap_or(&name);
    parent_dir(path).join(format!("{stem}.rare-layers.slidedb"))
}

/// Where the stamp of `path` lives: a hidden file beside it,
/// `.NAME.verified`.
pub(crate) fn stamp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    parent_dir(path).join(format!(".{name}.verified"))
}

/// Whether the file of `identity` at `path` was fully checked since it
/// last changed: its stamp ([`stamp`]) names exactly this identity.
pub(crate) fn is_stamped(path: &Path, identity: &FileIdentity) -> bool {
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
pub(crate) fn stamp(path: &Path, identity: &FileIdentity) -> io::Result<()> {
    write_atomic(&stamp_path(path), identity.line().as_bytes(), true)
}

/// [`map_file`], and the identity of the file mapped (taken from the open
/// file, so it is the one whose bytes the map reads).
pub(crate) fn map_file_identified(path: &Path) -> Result<(memmap2::Mmap, FileIdentity), FileError> {
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
pub(crate) fn map_file(path: &Path) -> Result<memmap2::Mmap, FileError> {
    map_file_identified(path).map(|(map, _)| map)
}

/// A copy of `bytes` in anonymous memory, asked to be backed by the
/// system's huge pages (2 MB on x86-64) where it has them (on Linux with
/// transparent huge pages `always` or `madvise`; elsewhere, or when none
/// are free, in ordinary pages): a search that reads at random across
/// gigabytes misses the address cache less. The copy is read-only, like
/// a map of the file.
pub(crate) fn copy_to_huge_pages(bytes: &[u8]) -> io::Result<memmap2::Mmap> {
    if bytes.is_empty() {
        return memmap2::MmapMut::map_anon(0)?.make_read_only();
    }
    let mut copy = memmap2::MmapMut::map_anon(bytes.len())?;
    // Asked before the first write, so that each page is huge when first
    // touched; refused on a system without them, which is no error.
    #[cfg(target_os = "linux")]
    let _ = copy.advise(memmap2::Advice::HugePage);
    copy.copy_from_slice(bytes);
    copy.make_read_only()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    #[test]
    fn a_copy_to_huge_pages_holds_the_same_bytes() {
        let bytes: Vec<u8> = (0..5_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        assert_eq!(&copy_to_huge_pages(&bytes).unwrap()[..], &bytes[..]);
        assert!(copy_to_huge_pages(&[]).unwrap().is_empty());
    }

    #[test]
    fn pattern_file_prefix_is_the_name_before_the_sizes() {
        let goal = Board::solved(Shape::new(2, 3).unwrap());
        assert_eq!(pattern_file_prefix(&goal), "2x3-1-2-3-4-5-0-pdb-");
    }

    #[test]
    fn parse_file_name_reads_only_the_names_made() {
        let goal = Board::solved(Shape::new(4, 4).unwrap());
        let name = pattern_file_name(&goal, "5-5-5");
        assert_eq!(
            parse_file_name(&name),
            Some((goal, Some("5-5-5".to_string()), Metric::Single))
        );
        assert_eq!(
            parse_file_name("2x3-1-2-3-4-5-0.slidedb").map(|(_, s, _)| s),
            Some(None)
        );
        assert_eq!(
            parse_file_name("2x3-1-2-3-4-5-0-multi.slidedb").map(|(_, _, m)| m),
            Some(Metric::Multi)
        );
        assert_eq!(parse_file_name("2x3-1-2-3-4-5-0.rare-layers.slidedb"), None);
        assert_eq!(parse_file_name("notes.txt"), None);
    }

    #[test]
    fn a_write_changes_the_identity() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"one").unwrap();
        let before = FileIdentity::of(&fs::metadata(&path).unwrap());
        fs::write(&path, b"two!").unwrap();
        assert_ne!(FileIdentity::of(&fs::metadata(&path).unwrap()), before);
    }

    #[test]
    fn side_files_sit_beside_the_table() {
        assert_eq!(
            rare_layers_path(Path::new("/d/3x4.slidedb")),
            Path::new("/d/3x4.rare-layers.slidedb")
        );
        assert_eq!(
            stamp_path(Path::new("/d/3x4.slidedb")),
            Path::new("/d/.3x4.slidedb.verified")
        );
    }

    #[test]
    fn a_stamp_names_the_identity_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.slidedb");
        fs::write(&path, b"checked bytes").unwrap();
        let id = FileIdentity::of(&fs::metadata(&path).unwrap());
        assert!(!is_stamped(&path, &id));
        stamp(&path, &id).unwrap();
        assert!(is_stamped(&path, &id));
    }

    #[test]
    fn map_file_maps_regular_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        fs::write(&path, b"bytes").unwrap();
        let (map, id) = map_file_identified(&path).unwrap();
        assert_eq!(&map[..], b"bytes");
        assert_eq!(id, FileIdentity::of(&fs::metadata(&path).unwrap()));
        assert_eq!(&map_file(&path).unwrap()[..], b"bytes");
        assert!(map_file(dir.path()).is_err()); // a directory
    }
}
