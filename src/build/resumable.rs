//! Building a full table straight to a file, resumably: the two-bit
//! search ([`twobit`](crate::bfs::twobit)) with a plan of its memory and disk,
//! checkpoints, and a body streamed to disk. This is how tables past 12
//! cells are built (2×7: 43.6 G boards, a 10.9 GB file), and any smaller
//! one can be built the same way.
//!
//! # Memory
//!
//! Resident for the whole build, per board: 2 bits of distance and 1 bit
//! of frontier (see [`BuildPlan::memory`]). For 2×7 that is 10.9 GB +
//! 5.4 GB = 16.3 GB; the build refuses to start when its memory limit
//! ([`BuildOptions::memory`], else the memory the system says is
//! available) is smaller.
//!
//! # Work files, beside the output `NAME`
//!
//! - `NAME.checkpoint`: the last checkpoint (file kind 4, `FORMAT.md`): the
//!   layer counts so far, every distance, and the deepest layer's frontier
//!   bitsets. Written at the end of a layer when
//!   [`BuildOptions::checkpoint_every`] has passed since the last, to
//!   `NAME.checkpoint.partial` first, synced, then renamed over the old
//!   one: a stop at any moment (a kill, a power loss, a full disk) leaves
//!   the last whole checkpoint in place. A build with the same goal and
//!   output goes on from it.
//! - `NAME.partial`: the table while its body is written; renamed to
//!   `NAME` when whole and synced.
//!
//! Both are removed when the table is done. The finished file is the same
//! bytes however many times the build stopped: an entry is written once,
//! by the layer that first reaches it, and a checkpoint holds everything
//! the next layer reads.

use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::board::{Board, Metric, Shape};
use crate::format::{self, BODY_ALIGN, HEADER_LEN, Kind, MAX_METADATA_LEN};
use crate::goals::Goals;
use crate::pdb::PatternSpec;
use crate::rank::Indexer;
use crate::symmetry::GoalClass;

use crate::bfs::twobit::{Placement, SEGMENT_BITS_PER_BOARD, TwoBit, resident_bytes, stream_bytes};
use crate::bfs::{GenerateError, Layer, MAX_HARDEST};
use crate::output::{CREATING, write_framed};
use crate::system::{available_memory, free_disk};
use crate::table::{MAX_TABLE_CELLS, Table, file, metadata};

/// How [`build_file`] builds.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildOptions {
    /// The most memory the search may keep resident, in bytes [default:
    /// what the system says is available when the build starts].
    pub memory: Option<u64>,
    /// Checkpoint at the end of the first layer this long after the last
    /// checkpoint (or the start); `Some(Duration::ZERO)` checkpoints every
    /// layer, `None` never [default: 5 minutes].
    pub checkpoint_every: Option<Duration>,
    /// The metric the table counts moves in [default: single-tile]. A
    /// multi-tile build keeps its distances and frontier resident.
    pub metric: Metric,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            memory: None,
            checkpoint_every: Some(Duration::from_secs(300)),
            metric: Metric::Single,
        }
    }
}

impl BuildOptions {
    /// The default options with a memory limit.
    ///
    /// ```
    /// let options = slidedb::build::BuildOptions::default().with_memory(Some(1 << 30));
    /// assert_eq!(options.memory, Some(1 << 30));
    /// ```
    pub fn with_memory(mut self, bytes: Option<u64>) -> BuildOptions {
        self.memory = bytes;
        self
    }

    /// The options with another checkpoint interval.
    ///
    /// ```
    /// use std::time::Duration;
    /// let options = slidedb::build::BuildOptions::default().with_checkpoint_every(None);
    /// assert_eq!(options.checkpoint_every, None);
    /// ```
    pub fn with_checkpoint_every(mut self, every: Option<Duration>) -> BuildOptions {
        self.checkpoint_every = every;
        self
    }

    /// The options with another metric.
    ///
    /// ```
    /// use slidedb::{Metric, build::BuildOptions};
    /// let options = BuildOptions::default().with_metric(Metric::Multi);
    /// assert_eq!(options.metric, Metric::Multi);
    /// ```
    pub fn with_metric(mut self, metric: Metric) -> BuildOptions {
        self.metric = metric;
        self
    }
}

/// What a build will use, worked out before it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildPlan {
    /// The board size.
    pub shape: Shape,
    /// Boards in the table.
    pub states: u64,
    /// Bytes the search keeps resident: [`distances`](BuildPlan::distances)
    /// plus [`frontier`](BuildPlan::frontier) when they fit the limit;
    /// else a segment's share of them.
    pub memory: u64,
    /// The distances (2 bits a board).
    pub distances: u64,
    /// The frontier bitsets (1 bit a board).
    pub frontier: u64,
    /// `None` when the distances and the frontier are resident; else the
    /// tile orders of one blank cell a segment covers (the rest waits in
    /// the work files `NAME.distances.work` and `NAME.frontier.work`).
    pub segment: Option<u64>,
    placement: Placement,
    /// The limit the memory was checked against, and where it came from
    /// (`"the memory limit"` or `"the memory available"`); `None` when
    /// there was none to check (the system did not say).
    pub memory_limit: Option<(u64, &'static str)>,
    /// The finished file's length.
    pub file_len: u64,
    /// The most disk the work files and the table take at once.
    pub disk_peak: u64,
    /// The disk still to be taken (the peak less an existing checkpoint).
    pub disk_needed: u64,
    /// Free disk in the output's folder, when the system says.
    pub disk_free: Option<u64>,
    /// Where checkpoints go.
    pub checkpoint: PathBuf,
    /// The layer an existing checkpoint goes on from.
    pub resume_from: Option<u32>,
}

/// What [`build_file`] shows as it goes.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildEvent<'a> {
    /// The plan, before any work.
    Planned(&'a BuildPlan),
    /// A checkpoint was read: the build goes on after layer `depth`.
    Resumed {
        /// The deepest layer the checkpoint holds.
        depth: u32,
        /// Boards reached so far.
        total: u64,
        /// How long reading it took.
        took: Duration,
    },
    /// A layer is done.
    Layer(&'a Layer),
    /// A checkpoint was written.
    Checkpointed {
        /// The deepest layer it holds.
        depth: u32,
        /// Its length.
        bytes: u64,
        /// How long writing it took.
        took: Duration,
    },
    /// The search is over; the table is being written.
    Writing {
        /// The file's length.
        bytes: u64,
    },
}

/// What a finished [`build_file`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildReport {
    /// The layer counts.
    pub layers: Vec<u64>,
    /// The file's length.
    pub bytes: u64,
    /// The layer the build went on from, if it resumed.
    pub resumed_from: Option<u32>,
    /// Checkpoints written.
    pub checkpoints: u32,
}

/// Why [`build_file`] stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The search needs more memory than it may have.
    #[error(
        "building the {shape} table needs {smallest} bytes at the least (in segments; {needed} to keep its {distances} bytes of distances and {frontier} of frontier resident), more than {what} ({limit} bytes); raise the limit or free memory"
    )]
    Memory {
        /// The board size.
        shape: Shape,
        /// The bytes to keep everything resident.
        needed: u64,
        /// The least a segmented build needs.
        smallest: u64,
        /// Of which distances.
        distances: u64,
        /// Of which frontier.
        frontier: u64,
        /// The limit.
        limit: u64,
        /// Where the limit came from.
        what: &'static str,
    },
    /// A multi-tile build needs more memory than it may have: its search
    /// has no segmented form, and keeps everything resident.
    #[error(
        "building the {shape} table in the multi-tile metric keeps its {needed} bytes of distances and frontier resident (it has no form in segments), more than {what} ({limit} bytes); raise the limit or free memory"
    )]
    MultiTileMemory {
        /// The board size.
        shape: Shape,
        /// The bytes it keeps resident.
        needed: u64,
        /// The limit.
        limit: u64,
        /// Where the limit came from.
        what: &'static str,
    },
    /// A pattern-database build needs more memory than it may have: its
    /// largest group's search holds everything resident.
    #[error(
        "building the pattern databases of {sizes} on {shape} needs {needed} bytes (the search of a group of {tiles} tiles), more than {what} ({limit} bytes); raise the limit or free memory, or choose smaller groups"
    )]
    PatternMemory {
        /// The board size.
        shape: Shape,
        /// The partition's group sizes, such as `7-7-7-3`.
        sizes: String,
        /// The tiles of the group that needs the most.
        tiles: usize,
        /// The bytes it needs.
        needed: u64,
        /// The limit.
        limit: u64,
        /// Where the limit came from.
        what: &'static str,
    },
    /// The partition does not fit the goal.
    #[error(transparent)]
    Pattern(#[from] crate::pdb::PatternError),
    /// Not enough free disk.
    #[error(
        "the build needs {needed} bytes more disk in {folder} ({peak} at its peak: {holds}), and {free} are free; free some space or write the output elsewhere"
    )]
    Disk {
        /// The output's folder.
        folder: PathBuf,
        /// What the peak holds (`"the table"`, `"the table and two
        /// checkpoints"`, …).
        holds: &'static str,
        /// The bytes still needed.
        needed: u64,
        /// The peak.
        peak: u64,
        /// The bytes free.
        free: u64,
    },
    /// The disk filled up while writing.
    #[error("the disk is full: cannot write {path}; free some space and build again: {resume}")]
    DiskFull {
        /// The file being written.
        path: PathBuf,
        /// Where the next build goes on from.
        resume: String,
    },
    /// The checkpoint beside the output is not one this build can go on
    /// from.
    #[error("{path} is not a checkpoint this build can go on from: {why}; remove it to start over")]
    Checkpoint {
        /// The checkpoint.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A file could not be read or written.
    #[error("cannot {what} {path}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: io::Error,
    },
    /// The search could not run.
    #[error(transparent)]
    Generate(#[from] GenerateError),
}

impl From<crate::output::WriteError> for BuildError {
    fn from(e: crate::output::WriteError) -> BuildError {
        BuildError::Io {
            what: e.what,
            path: e.path,
            source: e.source,
        }
    }
}

/// Entry encoding of a checkpoint's body: the distances as `residue ^ 3`
/// (0: not reached), 2 bits an entry in little-endian 64-bit words, then
/// the frontier bitsets of the deepest layer's blank cells, in cell order.
pub(crate) const ENCODING_CHECKPOINT: u16 = 5;

/// A checkpoint's metadata (bincode 2, standard configuration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct CheckpointMetadata {
    /// The program that wrote it: only the same one goes on from it.
    generator: String,
    /// The goal of the table being built.
    goals: Goals,
    /// The layer counts so far.
    layers: Vec<u64>,
    /// The metric of the search ([`crate::goals::metric_byte`]).
    metric: u8,
}

/// The work files of a build into `out`, beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorkFiles {
    /// `NAME.checkpoint`: the last checkpoint.
    pub checkpoint: PathBuf,
    /// `NAME.partial`: the table while its body is written.
    pub partial: PathBuf,
    /// `NAME.distances.work`: a segmented build's distances.
    pub distances: PathBuf,
    /// `NAME.frontier.work`: a segmented build's frontier.
    pub frontier: PathBuf,
}

/// The work files of a build into `out`.
///
/// ```
/// use std::path::Path;
/// let files = slidedb::build::work_files(Path::new("d/2x7.slidedb"));
/// assert_eq!(files.checkpoint, Path::new("d/2x7.slidedb.checkpoint"));
/// assert_eq!(files.partial, Path::new("d/2x7.slidedb.partial"));
/// assert_eq!(files.distances, Path::new("d/2x7.slidedb.distances.work"));
/// ```
pub fn work_files(out: &Path) -> WorkFiles {
    let with = |suffix: &str| {
        let mut name = out.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    WorkFiles {
        checkpoint: with(".checkpoint"),
        partial: with(".partial"),
        distances: with(".distances.work"),
        frontier: with(".frontier.work"),
    }
}

/// Works out what building the table of `goal` into `out` will use, and
/// checks it against the memory limit and the free disk.
///
/// ```
/// use slidedb::{Board, Shape, build::{BuildOptions, plan_build}};
/// let dir = tempfile::tempdir().unwrap();
/// let goal = Board::solved(Shape::new(2, 7).unwrap());
/// let out = dir.path().join("2x7.slidedb");
/// let options = BuildOptions::default().with_memory(Some(32 << 30));
/// let plan = plan_build(&goal, &out, &options);
/// # let plan = match plan { Ok(p) => p, Err(slidedb::build::BuildError::Disk { .. }) => return, Err(e) => panic!("{e}") };
/// assert_eq!(plan.states, 43_589_145_600);
/// assert_eq!(plan.distances, 10_897_286_400);
/// assert_eq!(plan.segment, None); // 16.3 GB fit in 32 GiB: all resident
/// # let options = BuildOptions::default().with_checkpoint_every(None);
/// let small = plan_build(&goal, &out, &options.clone().with_memory(Some(1 << 30)));
/// # let Ok(small) = small else { return };
/// assert_eq!(small.segment, Some(1_717_567_488)); // 1 GiB: in segments
/// assert!(plan_build(&goal, &out, &options.with_memory(Some(1000))).is_err());
/// ```
pub fn plan_build(
    goal: &Board,
    out: &Path,
    options: &BuildOptions,
) -> Result<BuildPlan, BuildError> {
    let shape = goal.shape();
    fits_a_table(shape)?;
    let class = GoalClass::of(goal);
    let indexer = Indexer::new(class.canonical());
    let (distances, frontier) = resident_bytes(shape.cells(), indexer.per_blank());
    let resident = distances + frontier;
    let memory_limit = match options.memory {
        Some(limit) => Some((limit, "the memory limit")),
        None => available_memory().map(|m| (m, "the memory available")),
    };
    let files = work_files(out);
    // Resident if it fits; else segments of one blank cell's tile orders,
    // as many as the limit holds, with the rest in work files.
    let per_blank = indexer.per_blank().next_multiple_of(64);
    let stream = stream_bytes(indexer.per_blank());
    let (placement, memory) = match memory_limit {
        Some((limit, what)) if resident > limit && options.metric == Metric::Multi => {
            return Err(BuildError::MultiTileMemory {
                shape,
                needed: resident,
                limit,
                what,
            });
        }
        Some((limit, what)) if resident > limit => {
            let boards = (limit.saturating_sub(stream) * 8 / SEGMENT_BITS_PER_BOARD).min(per_blank)
                / 64
                * 64;
            if boards == 0 {
                return Err(BuildError::Memory {
                    shape,
                    needed: resident,
                    smallest: stream + 64 * SEGMENT_BITS_PER_BOARD / 8,
                    distances,
                    frontier,
                    limit,
                    what,
                });
            }
            let placement = Placement::Segmented {
                distances: files.distances.clone(),
                frontier: files.frontier.clone(),
                segment: boards,
            };
            (placement, stream + boards * SEGMENT_BITS_PER_BOARD / 8)
        }
        _ => (Placement::Resident, resident),
    };
    let checkpoint = files.checkpoint;
    let file_len = file_len(&indexer);
    // The largest checkpoint: the colour with more cells.
    let largest = (0..2)
        .map(|d| TwoBit::checkpoint_len(&indexer, class.canonical(), d, options.metric) + 4096)
        .max()
        .unwrap_or(0);
    let work = match placement {
        Placement::Resident => 0,
        Placement::Segmented { .. } => distances + frontier,
    };
    let (disk_peak, existing, holds) = match (options.checkpoint_every, work) {
        // Two checkpoints while a new one is written; one and the table
        // while the table is.
        (Some(_), 0) => (
            (2 * largest).max(largest + file_len),
            fs::metadata(&checkpoint).map_or(0, |m| m.len()),
            "the table and two checkpoints",
        ),
        (Some(_), _) => (
            work + (2 * largest).max(largest + file_len),
            fs::metadata(&checkpoint).map_or(0, |m| m.len()),
            "the work files, the table and two checkpoints",
        ),
        (None, 0) => (file_len, 0, "the table"),
        (None, _) => (work + file_len, 0, "the work files and the table"),
    };
    let disk_needed = disk_peak.saturating_sub(existing);
    let folder = folder_of(out);
    let disk_free = check_disk(&folder, disk_needed, disk_peak, holds)?;
    let resume_from = match options.checkpoint_every {
        Some(_) => read_checkpoint_head(&checkpoint, &class, options.metric)?
            .map(|(m, _)| m.layers.len() as u32 - 1),
        None => None,
    };
    let segments = match &placement {
        Placement::Resident => None,
        Placement::Segmented { segment, .. } => Some(*segment),
    };
    Ok(BuildPlan {
        shape,
        states: shape.table_states(),
        memory,
        distances,
        frontier,
        segment: segments,
        placement,
        memory_limit,
        file_len,
        disk_peak,
        disk_needed,
        disk_free,
        checkpoint,
        resume_from,
    })
}

/// Checks that `needed` bytes are free in `folder` (of a peak of `peak`
/// bytes holding `holds`), returning the free bytes where the system says.
fn check_disk(
    folder: &Path,
    needed: u64,
    peak: u64,
    holds: &'static str,
) -> Result<Option<u64>, BuildError> {
    let free = free_disk(folder);
    match free {
        Some(free) if needed > free => Err(BuildError::Disk {
            folder: folder.to_path_buf(),
            holds,
            needed,
            peak,
            free,
        }),
        _ => Ok(free),
    }
}

/// Checks, before any search, that the folder of `out` has room for the
/// full table of `goal` (written whole, as
/// [`write_atomic`](crate::write_atomic) writes the table that
/// [`generate`](crate::table::generate()) returns): a full disk is found in
/// microseconds, not after the search.
///
/// ```
/// use slidedb::{Board, Shape, generate, build::check_disk_for_table};
/// let dir = tempfile::tempdir().unwrap();
/// let goal = Board::solved(Shape::EIGHT);
/// // At least the table's length (a bound on its head, and its body).
/// let bytes = check_disk_for_table(&goal, &dir.path().join("3x3.slidedb")).unwrap();
/// let table = generate(&goal, |_| {}).unwrap();
/// assert!(bytes >= table.as_bytes().len() as u64 && bytes < 2 * table.as_bytes().len() as u64);
/// ```
pub fn check_disk_for_table(goal: &Board, out: &Path) -> Result<u64, BuildError> {
    let shape = goal.shape();
    fits_a_table(shape)?;
    let indexer = Indexer::new(GoalClass::of(goal).canonical());
    let len = file_len(&indexer);
    check_disk(&folder_of(out), len, len, "the table")?;
    Ok(len)
}

/// Checks, before any search, that the folder of `out` has room for the
/// pattern databases of `spec` built in memory and written whole (their
/// entries, [`PatternSpec::entry_bytes`], and a header of at most a
/// mebibyte): a full disk is found in
/// microseconds, not after the build. Returns the bytes checked for.
///
/// ```
/// use slidedb::{Board, Shape, build::check_disk_for_patterns, pdb::PatternSpec};
/// let dir = tempfile::tempdir().unwrap();
/// let goal = Board::solved(Shape::EIGHT);
/// let spec = PatternSpec::parse(&goal, "4-4-blank").unwrap();
/// let bytes = check_disk_for_patterns(&spec, &dir.path().join("p.slidedb")).unwrap();
/// let built = spec.build(&goal, |_| {}).unwrap();
/// assert!(bytes >= built.as_bytes().len() as u64);
/// ```
pub fn check_disk_for_patterns(spec: &PatternSpec, out: &Path) -> Result<u64, BuildError> {
    let len = spec.entry_bytes() + HEADER_LEN as u64 + MAX_METADATA_LEN + BODY_ALIGN as u64;
    check_disk(&folder_of(out), len, len, "the pattern databases")?;
    Ok(len)
}

/// Refuses a board too big for a full table.
fn fits_a_table(shape: Shape) -> Result<(), BuildError> {
    if shape.cells() > MAX_TABLE_CELLS {
        return Err(GenerateError::TooLarge {
            shape,
            states: shape.table_states(),
        }
        .into());
    }
    Ok(())
}

/// Removes, on drop, the files a stopped or finished build cannot use
/// again: the distances' and the frontier's work files, and the table's
/// `.partial`. A checkpoint is never among them.
struct Scratch<'a>(&'a WorkFiles);

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        self.0.remove_scratch();
    }
}

impl WorkFiles {
    /// Removes the files that no later build can use (best effort): the
    /// work files `NAME.distances.work` and `NAME.frontier.work` (a build
    /// that goes on from a checkpoint makes them anew), the table's
    /// `NAME.partial` and a checkpoint's `NAME.checkpoint.partial`. The
    /// checkpoint itself stays. [`build_file`] calls it whenever it ends;
    /// a program that is stopped by a signal calls it as it exits.
    /// Returns the files it removed.
    pub(crate) fn remove_scratch(&self) -> Vec<PathBuf> {
        self.remove_scratch_files()
    }

    /// Removes the scratch files (the distances, not the checkpoint) for a program about
    /// to exit (on a signal, say) while a build may still run on other
    /// threads: from this call on, no build in this process creates a
    /// file (one that tries waits for the exit), so none appears behind
    /// the removal. Call it only right before the process exits.
    pub fn remove_scratch_before_exit(&self) -> Vec<PathBuf> {
        let creating = CREATING.lock().unwrap_or_else(|e| e.into_inner());
        let removed = self.remove_scratch_files();
        std::mem::forget(creating);
        removed
    }

    fn remove_scratch_files(&self) -> Vec<PathBuf> {
        [
            &self.distances,
            &self.frontier,
            &self.partial,
            &partial_checkpoint(&self.checkpoint),
        ]
        .into_iter()
        .filter(|path| fs::remove_file(path).is_ok())
        .cloned()
        .collect()
    }
}

/// Builds the full table of `goal` into the file `out` by the two-bit
/// search, going on from the checkpoint beside `out` if there is one
/// (its checkpoints and work files are described in `FORMAT.md`, kind 4): the same bytes as
/// [`generate`](crate::table::generate()) writes. `on_event` sees the plan, each
/// layer and each checkpoint. Runs on the current rayon pool. `out` is
/// replaced if it exists.
///
/// ```
/// use slidedb::{Board, Shape, generate, build::{BuildOptions, build_file}};
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("2x4.slidedb");
/// let goal = Board::solved(Shape::new(2, 4).unwrap());
/// let report = build_file(&goal, &out, &BuildOptions::default(), |_| {}).unwrap();
/// assert_eq!(report.layers.len(), 37);
/// assert_eq!(std::fs::read(&out).unwrap(), generate(&goal, |_| {}).unwrap().as_bytes());
/// ```
pub fn build_file(
    goal: &Board,
    out: &Path,
    options: &BuildOptions,
    mut on_event: impl FnMut(BuildEvent),
) -> Result<BuildReport, BuildError> {
    let plan = plan_build(goal, out, options)?;
    on_event(BuildEvent::Planned(&plan));
    let class = GoalClass::of(goal);
    let canonical = *class.canonical();
    let indexer = Indexer::new(&canonical);
    let files = work_files(out);
    // Whatever way this ends, no work file stays: those of an earlier run
    // (a stopped one, or one in segments when this one is resident) and
    // this run's own.
    let _scratch = Scratch(&files);
    let WorkFiles {
        checkpoint,
        partial,
        distances,
        ..
    } = &files;
    let work_error = |e| io_error("write", distances, e);
    let mut search = match plan.resume_from {
        Some(_) => {
            let started = Instant::now();
            let search = load_checkpoint(
                checkpoint,
                &class,
                &indexer,
                &plan.placement,
                options.metric,
            )?;
            on_event(BuildEvent::Resumed {
                depth: search.depth(),
                total: search.layers().iter().sum(),
                took: started.elapsed(),
            });
            search
        }
        None => {
            let mut search =
                TwoBit::placed(&indexer, &canonical, &plan.placement)?.map_err(work_error)?;
            search.set_metric(options.metric);
            on_event(BuildEvent::Layer(&search.last_layer()));
            search
        }
    };
    let resumed_from = plan.resume_from;
    let mut last_checkpoint = Instant::now();
    let mut checkpoints = 0;
    let mut saved = resumed_from;
    while search
        .expand()
        .map_err(|e| full_disk(work_error(e), saved))?
    {
        on_event(BuildEvent::Layer(&search.last_layer()));
        if let Some(every) = options.checkpoint_every
            && last_checkpoint.elapsed() >= every
        {
            let started = Instant::now();
            let bytes = write_checkpoint(&search, &class, options.metric, checkpoint, saved)?;
            saved = Some(search.depth());
            checkpoints += 1;
            on_event(BuildEvent::Checkpointed {
                depth: search.depth(),
                bytes,
                took: started.elapsed(),
            });
            last_checkpoint = Instant::now();
        }
    }
    let hardest = search.hardest().map_err(work_error)?;
    let metadata = metadata(&class, options.metric, search.layers().to_vec(), &hardest);
    let head = file::head(&metadata, search.body_len(), 0);
    let bytes = head.len() as u64 + search.body_len();
    on_event(BuildEvent::Writing { bytes });
    if let Err(e) = write_table(&search, &metadata, partial) {
        let _ = fs::remove_file(partial);
        return Err(full_disk(e, saved));
    }
    // The table is whole and synced: the checkpoint goes before the table
    // takes its name, so that no stop leaves a finished table beside a
    // checkpoint (the same command would then refuse the existing table;
    // a stop between the two starts the next run over). A run killed while
    // writing a checkpoint leaves its `.partial`.
    // The work files go first of all (this run's and any earlier run's):
    // a kill after the table took its name leaves none behind for a
    // command that would then refuse the existing table.
    search.remove_work_files();
    let _ = fs::remove_file(&files.distances);
    let _ = fs::remove_file(&files.frontier);
    let _ = fs::remove_file(checkpoint);
    let _ = fs::remove_file(partial_checkpoint(checkpoint));
    if let Err(e) = fs::rename(partial, out) {
        let _ = fs::remove_file(partial);
        return Err(io_error("rename", partial, e));
    }
    sync_folder(out);
    // The cheap checks of any open, on what was written.
    let written = Table::open_path(out).map_err(|e| BuildError::Io {
        what: "read back",
        path: out.to_path_buf(),
        source: io::Error::other(e),
    })?;
    Ok(BuildReport {
        layers: written.layers().to_vec(),
        bytes,
        resumed_from,
        checkpoints,
    })
}

/// The finished file's length, at most, for a search of `indexer`.
fn file_len(indexer: &Indexer) -> u64 {
    // The head's metadata at its largest: the layer counts (at most 10
    // bytes each, at most 256 layers past any real radius) and the hardest
    // boards; rounded up to the body's alignment.
    let cells = indexer.shape().cells() as u64;
    let body = indexer.len().div_ceil(4);
    let head = (HEADER_LEN as u64 + 1024 + 256 * 10 + MAX_HARDEST as u64 * (cells + 1))
        .next_multiple_of(BODY_ALIGN as u64);
    head + body
}

/// A write error as the build reports it: a full disk says where the next
/// build goes on from.
pub(crate) fn full_disk(e: BuildError, saved: Option<u32>) -> BuildError {
    match e {
        BuildError::Io { path, source, .. } if source.kind() == io::ErrorKind::StorageFull => {
            BuildError::DiskFull {
                path,
                resume: match saved {
                    Some(depth) => format!("it goes on from the checkpoint of layer {depth}"),
                    None => "there is no checkpoint yet, so it starts over".to_string(),
                },
            }
        }
        e => e,
    }
}

/// Where a checkpoint is written before it is renamed to `checkpoint`.
fn partial_checkpoint(checkpoint: &Path) -> PathBuf {
    let mut partial = checkpoint.as_os_str().to_owned();
    partial.push(".partial");
    PathBuf::from(partial)
}

pub(crate) fn io_error(what: &'static str, path: &Path, source: io::Error) -> BuildError {
    BuildError::Io {
        what,
        path: path.to_path_buf(),
        source,
    }
}

/// Writes the table to `partial`, synced.
fn write_table(
    search: &TwoBit,
    metadata: &file::Metadata,
    partial: &Path,
) -> Result<(), BuildError> {
    let body_len = search.body_len();
    write_framed(
        partial,
        |crc| file::head(metadata, body_len, crc),
        |mut out| search.write_body(&mut out),
    )
    .map(drop)
    .map_err(BuildError::from)
}

/// Writes a checkpoint of `search` over `path` (by way of a `.partial`
/// file, synced, then renamed); its length. `saved` is the layer of the
/// checkpoint there now, for the message of a full disk.
fn write_checkpoint(
    search: &TwoBit,
    class: &GoalClass,
    metric: Metric,
    path: &Path,
    saved: Option<u32>,
) -> Result<u64, BuildError> {
    let partial = partial_checkpoint(path);
    let metadata = CheckpointMetadata {
        generator: generator(),
        goals: Goals::new(class),
        layers: search.layers().to_vec(),
        metric: crate::goals::metric_byte(metric),
    };
    let body_len =
        TwoBit::checkpoint_len(search.indexer(), class.canonical(), search.depth(), metric);
    let head = |crc| {
        format::head(
            Kind::BuildCheckpoint,
            ENCODING_CHECKPOINT,
            &metadata,
            body_len,
            crc,
        )
    };
    write_then_rename(path, &partial, head, |mut out| {
        search.write_checkpoint_body(&mut out)
    })
    .map_err(|e| full_disk(e, saved))
}

/// Writes a file of the family to `partial` ([`write_framed`]), then
/// renames it to `path` and syncs the folder; on a failure removes
/// `partial`. The file's length.
pub(crate) fn write_then_rename(
    path: &Path,
    partial: &Path,
    head: impl Fn(u32) -> Vec<u8>,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<u64, BuildError> {
    let written = write_framed(partial, head, body)
        .map_err(BuildError::from)
        .and_then(|len| {
            fs::rename(partial, path).map_err(|e| io_error("rename", partial, e))?;
            sync_folder(path);
            Ok(len)
        });
    if written.is_err() {
        let _ = fs::remove_file(partial);
    }
    written
}

/// A checkpoint's metadata, its body's offset and its body's CRC-32.
type CheckpointHead = (CheckpointMetadata, (u64, u32));

/// The checkpoint's head, if there is a checkpoint: checked to be of this
/// build; with the body's offset and CRC.
fn read_checkpoint_head(
    path: &Path,
    class: &GoalClass,
    metric: Metric,
) -> Result<Option<CheckpointHead>, BuildError> {
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error("open", path, e)),
    };
    let bad = |why: String| BuildError::Checkpoint {
        path: path.to_path_buf(),
        why,
    };
    let len = f.metadata().map_err(|e| io_error("read", path, e))?.len();
    let mut prefix = Vec::new();
    (&mut f)
        .take(HEADER_LEN as u64 + MAX_METADATA_LEN + BODY_ALIGN as u64)
        .read_to_end(&mut prefix)
        .map_err(|e| io_error("read", path, e))?;
    let frame = format::read_head::<CheckpointMetadata>(
        &prefix,
        len,
        Kind::BuildCheckpoint,
        ENCODING_CHECKPOINT,
    )
    .map_err(|e| bad(e.to_string()))?;
    let m = frame.metadata;
    if m.goals != Goals::new(class) {
        let theirs = m.goals.class().map_or_else(
            |_| "another goal".to_string(),
            |c| format!("the {} goal {}", c.goal().shape(), c.goal()),
        );
        return Err(bad(format!("it is of a build toward {theirs}")));
    }
    if m.metric != crate::goals::metric_byte(metric) {
        let theirs = crate::goals::metric_of(m.metric)
            .map_or_else(|_| "another".to_string(), |t| t.adjective().to_string());
        return Err(bad(format!(
            "it is of a build in the {theirs} metric, and this one is {}",
            metric.adjective()
        )));
    }
    if m.generator != generator() {
        return Err(bad(format!(
            "{} wrote it, and this is {}",
            m.generator,
            generator()
        )));
    }
    let sum: u64 = m.layers.iter().sum();
    if m.layers.first() != Some(&1)
        || m.layers.contains(&0)
        || sum > class.goal().shape().table_states()
    {
        return Err(bad("its layer counts are not a search's".to_string()));
    }
    let indexer = Indexer::new(class.canonical());
    let expected = TwoBit::checkpoint_len(
        &indexer,
        class.canonical(),
        m.layers.len() as u32 - 1,
        metric,
    );
    if (frame.body.len() as u64) != expected {
        return Err(bad(format!(
            "its body is {} bytes, and this layer's checkpoint has {expected}",
            frame.body.len()
        )));
    }
    Ok(Some((m, (frame.body.start as u64, frame.body_crc))))
}

/// Reads the checkpoint at `path` into a search placed as `placement`
/// says, checking its CRC.
fn load_checkpoint<'a>(
    path: &Path,
    class: &GoalClass,
    indexer: &'a Indexer,
    placement: &Placement,
    metric: Metric,
) -> Result<TwoBit<'a>, BuildError> {
    let Some((m, (offset, stored))) = read_checkpoint_head(path, class, metric)? else {
        return Err(io_error(
            "open",
            path,
            io::Error::from(io::ErrorKind::NotFound),
        ));
    };
    let mut f = File::open(path).map_err(|e| io_error("open", path, e))?;
    f.seek(SeekFrom::Start(offset))
        .map_err(|e| io_error("read", path, e))?;
    let mut body = Crc32Reader {
        inner: io::BufReader::with_capacity(1 << 22, f),
        crc: crc32fast::Hasher::new(),
    };
    let search = TwoBit::restore(
        indexer,
        class.canonical(),
        placement,
        metric,
        m.layers,
        &mut body,
    )?
    .map_err(|e| io_error("read", path, e))?;
    let computed = body.crc.finalize();
    if computed != stored {
        search.remove_work_files();
        return Err(BuildError::Checkpoint {
            path: path.to_path_buf(),
            why: format!(
                "its body's CRC-32 is {computed:#010x}, and its header says {stored:#010x} (damaged)"
            ),
        });
    }
    Ok(search)
}

/// A reader that keeps the CRC-32 of what passes through it.
struct Crc32Reader<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Read for Crc32Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

pub(crate) fn generator() -> String {
    concat!("slidedb ", env!("CARGO_PKG_VERSION")).to_string()
}

/// The folder `path` is in.
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Makes a rename in `path`'s folder durable (best effort).
pub(crate) fn sync_folder(path: &Path) {
    if let Ok(d) = File::open(folder_of(path)) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remove_scratch_keeps_the_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let files = work_files(&dir.path().join("t.slidedb"));
        fs::write(&files.distances, b"x").unwrap();
        fs::write(&files.checkpoint, b"y").unwrap();
        assert_eq!(
            files.remove_scratch(),
            std::slice::from_ref(&files.distances)
        );
        assert!(files.checkpoint.exists());
    }
}
