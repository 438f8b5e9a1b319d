//! Pattern databases built to a file one group at a time, resumably.
//!
//! [`crate::pdb::build`] holds every group in memory, which suits groups
//! of up to 8 tiles on 16 cells. A 7-tile group of the 24-puzzle has
//! 2,422,728,000 entries and its search holds 7.27 GB, so this build
//! searches one group at a time and writes each, as soon as it is done,
//! to a work file beside the output (`NAME.group1.work`, … : a pattern
//! databases file of that one group, `FORMAT.md` kind 2). A stopped build
//! run again keeps the group files it finds whole and goes on with the
//! others. A group that a symmetry of the board keeping the goal's blank in
//! place maps onto an earlier group (such as the mirrored pair of the
//! 24-puzzle's 7-7-7-3) is not searched: its entries are the earlier
//! group's, read through the symmetry. Last, the group files are streamed
//! into the output, which has exactly the bytes [`crate::pdb::build`]
//! makes for the same partition, and removed.
//!
//! The peak memory is the largest group's search (or a derivation's two
//! groups), the peak disk the group files and the output together.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::board::{Board, Metric};
use crate::goals::Goals;
use crate::pdb::file::{self, Metadata};
use crate::pdb::{
    EntryKind, Partition, PatternDb, PatternError, Progress, group_distances, mirrored_distances,
    search_bytes,
};
use crate::rank::placement_count;
use crate::symmetry::{BuiltFor, GoalClass, GoalSymmetry};
use crate::system::{available_memory, free_disk};

use super::resumable::{
    BuildError, BuildOptions, full_disk, generator, io_error, sync_folder, write_then_rename,
};

/// How a group's entries are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GroupSource {
    /// By its own search.
    Search,
    /// Read through a symmetry of the board from those of an earlier
    /// group (numbered from 0), which the symmetry maps it onto.
    Mirror {
        /// The earlier group.
        of: usize,
    },
}

/// One group of a [`PatternPlan`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GroupPlan {
    /// Its tiles, named as in the goal.
    pub tiles: Vec<u8>,
    /// Its entries: one a placement of its tiles.
    pub placements: u64,
    /// How its entries are found.
    pub source: GroupSource,
    /// Its work file beside the output.
    pub file: PathBuf,
    /// Whether a whole work file of it is there from a stopped build (it
    /// is checked in full before it is kept).
    pub found: bool,
}

/// What [`build_patterns_file`] will do, worked out before it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PatternPlan {
    /// The groups, in the partition's order.
    pub groups: Vec<GroupPlan>,
    /// The most memory it holds: the largest group's search.
    pub memory: u64,
    /// The output's length.
    pub bytes: u64,
}

/// What [`build_patterns_file`] shows as it goes.
#[derive(Debug)]
#[non_exhaustive]
pub enum PatternEvent<'a> {
    /// The plan, before any work.
    Planned(&'a PatternPlan),
    /// A group's work file from a stopped build was checked and kept.
    Kept {
        /// The group, numbered from 0.
        group: usize,
    },
    /// A group's work file was found damaged or of another build, and is
    /// made again.
    Discarded {
        /// The group.
        group: usize,
        /// What is wrong with it.
        why: String,
    },
    /// One depth of a group's search.
    Depth(Progress),
    /// A group's entries were derived from an earlier group's.
    Mirrored {
        /// The group.
        group: usize,
        /// The earlier group.
        of: usize,
    },
    /// A group is done and its work file written.
    Saved {
        /// The group.
        group: usize,
        /// Its largest entry.
        largest: usize,
        /// How long its search or derivation and its writing took.
        took: Duration,
    },
    /// Every group is done; the output is being written.
    Writing {
        /// Its length.
        bytes: u64,
    },
}

/// What a finished [`build_patterns_file`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PatternReport {
    /// `layers[g][d]`: the placements of group `g` whose entry is `d`.
    pub layers: Vec<Vec<u64>>,
    /// The output's length.
    pub bytes: u64,
    /// The groups kept from a stopped build.
    pub kept: Vec<usize>,
}

/// The work file of group `group` (numbered from 0) of a build into `out`:
/// `NAME.group1.work` for the first.
///
/// ```
/// use std::path::Path;
/// let file = slidedb::build::group_file(Path::new("d/x-pdb-7-7-7-3.slidedb"), 0);
/// assert_eq!(file, Path::new("d/x-pdb-7-7-7-3.slidedb.group1.work"));
/// ```
pub fn group_file(out: &Path, group: usize) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(format!(".group{}.work", group + 1));
    PathBuf::from(name)
}

/// Where a file is written before it takes its name.
fn partial(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The files a stop leaves useless to a later run: the `.partial` files
/// of a build into `out` of `groups` groups (the finished group files are
/// kept, to go on from).
pub fn pattern_scratch_files(out: &Path, groups: usize) -> Vec<PathBuf> {
    (0..groups)
        .map(|g| partial(&group_file(out, g)))
        .chain([partial(out)])
        .collect()
}

/// How a group's entries are read from an earlier group's: the earlier
/// group, and the symmetry of the goal that maps this group onto it.
type Mirror = (usize, GoalSymmetry);

/// The groups of `partition` renamed into the indexed goal of `goal`'s
/// class, and for each, an earlier group a symmetry maps it onto (with
/// the renaming of tiles and the map of cells).
struct Layout {
    class: GoalClass,
    indexed: Vec<Vec<u8>>,
    /// `mirror[g]`: the earlier group it is read from, if any.
    mirror: Vec<Option<Mirror>>,
}

impl Layout {
    fn new(goal: &Board, partition: &Partition) -> Result<Layout, BuildError> {
        if partition.shape() != goal.shape() {
            return Err(PatternError::Shape {
                partition: partition.shape(),
                goal: goal.shape(),
            }
            .into());
        }
        let class = GoalClass::of(goal);
        let canonical = *class.canonical();
        let indexed = partition
            .renamed(canonical.shape(), |t| class.canonical_tile(t))?
            .groups()
            .to_vec();
        let turns: Vec<GoalSymmetry> = GoalSymmetry::all(&canonical)
            .filter(|turn| !turn.is_identity())
            .collect();
        let mirror = indexed
            .iter()
            .enumerate()
            .map(|(g, tiles)| {
                turns.iter().find_map(|turn| {
                    let mut image: Vec<u8> =
                        tiles.iter().map(|&t| turn.rename[t as usize]).collect();
                    image.sort_unstable();
                    let of = indexed[..g].iter().position(|h| *h == image)?;
                    Some((of, *turn))
                })
            })
            .collect();
        Ok(Layout {
            class,
            indexed,
            mirror,
        })
    }
}

/// Works out what building `partition`'s databases toward `goal` into
/// `out` will use, and checks it against the memory limit
/// ([`BuildOptions::memory`], or what the system says is available) and
/// the free disk.
///
/// ```
/// use std::path::Path;
/// use slidedb::{Board, Shape, build::{BuildOptions, GroupSource, Partition, plan_patterns}};
/// let goal: Board = (0..25).map(|t| t.to_string()).collect::<Vec<_>>().join(" ").parse().unwrap();
/// let sevens = Partition::standard(&goal, "7-7-7-3").unwrap();
/// let options = BuildOptions::default().with_memory(Some(8 << 30));
/// let plan = plan_patterns(&goal, &sevens, Path::new("none/24.slidedb"), &options).unwrap();
/// assert_eq!(plan.memory, 7_268_184_000); // one 7-tile group's search
/// assert_eq!(plan.groups[2].source, GroupSource::Mirror { of: 1 });
/// let small = BuildOptions::default().with_memory(Some(4 << 30));
/// assert!(plan_patterns(&goal, &sevens, Path::new("none/24.slidedb"), &small).is_err());
/// ```
pub fn plan_patterns(
    goal: &Board,
    partition: &Partition,
    out: &Path,
    options: &BuildOptions,
) -> Result<PatternPlan, BuildError> {
    let layout = Layout::new(goal, partition)?;
    plan(goal, partition, out, options, &layout)
}

fn plan(
    goal: &Board,
    partition: &Partition,
    out: &Path,
    options: &BuildOptions,
    layout: &Layout,
) -> Result<PatternPlan, BuildError> {
    let canonical = layout.class.canonical();
    let n = canonical.shape().cells();
    let mut groups = Vec::new();
    let (mut memory, mut largest_tiles) = (0u64, 0);
    for (g, tiles) in layout.indexed.iter().enumerate() {
        let placements = placement_count(n, tiles.len());
        let (source, needs) = match &layout.mirror[g] {
            // The earlier group's entries and this one's.
            Some((of, ..)) => (GroupSource::Mirror { of: *of }, 2 * placements),
            None => (GroupSource::Search, search_bytes(canonical, tiles)),
        };
        if needs > memory {
            (memory, largest_tiles) = (needs, tiles.len());
        }
        let file = group_file(out, g);
        groups.push(GroupPlan {
            tiles: partition.groups()[g].clone(),
            placements,
            source,
            found: file.exists(),
            file,
        });
    }
    let (limit, what) = match options.memory {
        Some(limit) => (limit, "the limit given"),
        None => (
            available_memory().unwrap_or(u64::MAX),
            "the memory available",
        ),
    };
    if memory > limit {
        return Err(BuildError::PatternMemory {
            shape: goal.shape(),
            sizes: partition.sizes(),
            tiles: largest_tiles,
            needed: memory,
            limit,
            what,
        });
    }
    let body: u64 = groups.iter().map(|g| g.placements).sum();
    let head = file::head(&metadata(goal, &layout.indexed, Vec::new()), body, 0).len() as u64;
    let bytes = head + body;
    // At the peak, every group file and the output; those found count as
    // written already (a damaged one is written again in its own space).
    let found: u64 = groups
        .iter()
        .filter(|g| g.found)
        .filter_map(|g| fs::metadata(&g.file).ok())
        .map(|m| m.len())
        .sum();
    let peak = bytes + body + head * groups.len() as u64;
    let folder = crate::output::parent_dir(out);
    if let Some(free) = free_disk(&folder)
        && peak.saturating_sub(found) > free
    {
        return Err(BuildError::Disk {
            folder,
            holds: "the groups' work files and the databases file",
            needed: peak - found,
            peak,
            free,
        });
    }
    Ok(PatternPlan {
        groups,
        memory,
        bytes,
    })
}

/// The metadata of a file of `groups` (named as in the indexed goal)
/// toward `goal`.
fn metadata(goal: &Board, groups: &[Vec<u8>], layers: Vec<Vec<u64>>) -> Metadata {
    Metadata {
        generator: generator(),
        goals: Goals::new(&GoalClass::of(goal)),
        groups: groups.to_vec(),
        layers,
        metric: crate::goals::metric_byte(Metric::Single),
    }
}

/// Each entry's count: `counts[d]` entries are `d`.
fn histogram(entries: &[u8]) -> Vec<u64> {
    let mut counts = [0u64; 256];
    for &d in entries {
        counts[d as usize] += 1;
    }
    let top = counts.iter().rposition(|&c| c != 0).unwrap_or(0);
    counts[..=top].to_vec()
}

/// Builds the pattern databases of `partition` toward `goal` into `out`,
/// one group at a time, each group's entries saved to its work file
/// ([`group_file`]) as soon as they are found: the same bytes as
/// [`crate::pdb::build`], in the memory of one group's search, and going
/// on from the groups a stopped run finished. `on_event` sees the plan,
/// each group's progress and the writing.
///
/// ```
/// use slidedb::{Board, Shape, build::{BuildOptions, Partition, build_patterns_file}, pdb};
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("3x3.slidedb");
/// let goal = Board::solved(Shape::EIGHT);
/// let partition = Partition::standard(&goal, "4-4").unwrap();
/// let report = build_patterns_file(&goal, &partition, &out, &BuildOptions::default(), |_| {}).unwrap();
/// let bytes = std::fs::read(&out).unwrap();
/// assert_eq!(bytes.len() as u64, report.bytes);
/// assert_eq!(bytes, pdb::build(&goal, &partition, |_| {}).unwrap().as_bytes());
/// ```
pub fn build_patterns_file(
    goal: &Board,
    partition: &Partition,
    out: &Path,
    options: &BuildOptions,
    mut on_event: impl FnMut(PatternEvent),
) -> Result<PatternReport, BuildError> {
    let layout = Layout::new(goal, partition)?;
    let plan = plan(goal, partition, out, options, &layout)?;
    on_event(PatternEvent::Planned(&plan));
    let canonical = *layout.class.canonical();
    let mut layers = Vec::new();
    let mut kept = Vec::new();
    for (g, group) in plan.groups.iter().enumerate() {
        let tiles = &layout.indexed[g];
        if group.found {
            match check_group(&group.file, &canonical, tiles) {
                Ok(counts) => {
                    on_event(PatternEvent::Kept { group: g });
                    layers.push(counts);
                    kept.push(g);
                    continue;
                }
                Err(why) => on_event(PatternEvent::Discarded { group: g, why }),
            }
        }
        let started = Instant::now();
        let entries = match &layout.mirror[g] {
            None => group_distances(&canonical, tiles, &mut |depth, placements| {
                on_event(PatternEvent::Depth(Progress {
                    group: g,
                    tiles: tiles.len(),
                    depth,
                    placements,
                }))
            }),
            Some((of, turn)) => {
                let from = &plan.groups[*of].file;
                let source = PatternDb::open_path(from)
                    .map_err(|e| io_error("read", from, std::io::Error::other(e)))?;
                on_event(PatternEvent::Mirrored { group: g, of: *of });
                mirrored_distances(
                    &canonical,
                    tiles,
                    &layout.indexed[*of],
                    source.entries(0),
                    |t| turn.rename[t as usize],
                    |c| turn.cell[c as usize],
                )
            }
        };
        let counts = histogram(&entries);
        let meta = metadata(goal, std::slice::from_ref(tiles), vec![counts.clone()]);
        write_file(&group.file, &meta, &[&entries])?;
        on_event(PatternEvent::Saved {
            group: g,
            largest: counts.len() - 1,
            took: started.elapsed(),
        });
        layers.push(counts);
    }
    // Every group is whole on disk: stream them into the output.
    on_event(PatternEvent::Writing { bytes: plan.bytes });
    let sources = plan
        .groups
        .iter()
        .map(|g| PatternDb::open_path(&g.file).map_err(|e| (g.file.clone(), e)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|(path, e)| io_error("read", &path, std::io::Error::other(e)))?;
    let bodies: Vec<&[u8]> = sources.iter().map(|s| s.entries(0)).collect();
    let meta = metadata(goal, &layout.indexed, layers.clone());
    let bytes = write_file(out, &meta, &bodies)?;
    drop(sources);
    for group in &plan.groups {
        let _ = fs::remove_file(&group.file);
    }
    sync_folder(out);
    Ok(PatternReport {
        layers,
        bytes,
        kept,
    })
}

/// Checks a group's work file in full: of the indexed goal, of exactly
/// `tiles`, single-tile, its checksum and layer counts right. Its layer
/// counts, or what is wrong.
fn check_group(path: &Path, canonical: &Board, tiles: &[u8]) -> Result<Vec<u64>, String> {
    let db = PatternDb::open_path(path).map_err(|e| e.to_string())?;
    if db.indexed_goal() != canonical {
        return Err(format!("it is toward {}", db.indexed_goal()));
    }
    if db.indexed_partition().groups() != [tiles.to_vec()] {
        return Err("it holds other tiles".into());
    }
    if db.metric() != Metric::Single {
        return Err("it counts another metric".into());
    }
    if db.entry_kind() != EntryKind::Plain {
        return Err("it holds blank-aware entries".into());
    }
    db.verify().map_err(|e| e.to_string())?;
    Ok(db.layers(0).to_vec())
}

/// Writes a pattern databases file of `bodies` (one after another) to
/// `path`, by way of `path.partial`, synced; its length.
fn write_file(path: &Path, meta: &Metadata, bodies: &[&[u8]]) -> Result<u64, BuildError> {
    let body_len: u64 = bodies.iter().map(|b| b.len() as u64).sum();
    write_then_rename(
        path,
        &partial(path),
        |crc| file::head(meta, body_len, crc),
        |out| {
            for body in bodies {
                out.write_all(body)?;
            }
            Ok(())
        },
    )
    .map_err(|e| full_disk(e, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    fn goal(rows: usize, cols: usize) -> Board {
        Board::solved(Shape::new(rows, cols).unwrap())
    }

    /// The file build writes the bytes of the build in memory, for
    /// partitions with and without mirrored groups, and for a goal that is
    /// not its class's canonical one.
    #[test]
    fn writes_the_bytes_of_the_build_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let fifteen = goal(4, 4);
        for (goal, spec) in [
            (goal(3, 3), "4-4"),
            (goal(3, 3), "1,2,3/4,7/5,6,8"),
            // 2,3,4 and 5,9,13 are each other's mirror.
            (fifteen, "2,3,4/5,9,13/1,6,11"),
            ("0 1 2 3 4 5 6 7 8".parse().unwrap(), "1,2/3,6/4,5,7,8"),
            (goal(2, 4), "4-3"),
        ] {
            let partition = Partition::parse(&goal, spec).unwrap();
            let out = dir.path().join("out.slidedb");
            let mut mirrored = Vec::new();
            build_patterns_file(&goal, &partition, &out, &BuildOptions::default(), |e| {
                if let PatternEvent::Mirrored { group, of } = e {
                    mirrored.push((group, of));
                }
            })
            .unwrap();
            let want = crate::pdb::build(&goal, &partition, |_| {}).unwrap();
            assert!(fs::read(&out).unwrap() == want.as_bytes(), "{goal} {spec}");
            if spec.starts_with("2,3,4") {
                assert_eq!(mirrored, [(1, 0)]);
            }
            // Nothing but the output stays.
            assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
            fs::remove_file(&out).unwrap();
        }
    }

    /// A build stopped after its first group goes on from its work file,
    /// to the same bytes; a damaged work file is made again.
    #[test]
    fn a_stopped_build_goes_on_to_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let goal = goal(4, 4);
        let partition = Partition::parse(&goal, "1,2,3/4,8,12/5,6,7").unwrap();
        let out = dir.path().join("out.slidedb");
        let whole = crate::pdb::build(&goal, &partition, |_| {}).unwrap();
        // A stop while the second group is searched: the process ends.
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            build_patterns_file(&goal, &partition, &out, &BuildOptions::default(), |e| {
                if let PatternEvent::Depth(p) = e {
                    assert!(p.group < 1, "stopped");
                }
            })
        }));
        assert!(stopped.is_err());
        assert!(!out.exists());
        assert!(group_file(&out, 0).exists());
        assert!(!group_file(&out, 1).exists());
        let mut kept = Vec::new();
        let report = build_patterns_file(&goal, &partition, &out, &BuildOptions::default(), |e| {
            if let PatternEvent::Kept { group } = e {
                kept.push(group);
            }
        })
        .unwrap();
        assert_eq!((kept, report.kept), (vec![0], vec![0]));
        assert!(fs::read(&out).unwrap() == whole.as_bytes());

        // Again, with the first group's work file damaged: it is searched
        // again, and the output is the same.
        fs::remove_file(&out).unwrap();
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            build_patterns_file(&goal, &partition, &out, &BuildOptions::default(), |e| {
                if let PatternEvent::Depth(p) = e {
                    assert!(p.group < 1, "stopped");
                }
            })
        }));
        let file = group_file(&out, 0);
        let mut bytes = fs::read(&file).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        fs::write(&file, bytes).unwrap();
        let mut discarded = Vec::new();
        build_patterns_file(&goal, &partition, &out, &BuildOptions::default(), |e| {
            if let PatternEvent::Discarded { group, why } = e {
                discarded.push((group, why));
            }
        })
        .unwrap();
        assert_eq!(discarded.len(), 1, "{discarded:?}");
        assert!(discarded[0].1.contains("checksum"), "{discarded:?}");
        assert!(fs::read(&out).unwrap() == whole.as_bytes());
    }

    /// The memory check names the group's needs and the limit.
    #[test]
    fn refuses_a_memory_limit_below_one_group() {
        let goal = goal(4, 4);
        let partition = Partition::standard(&goal, "8-7").unwrap();
        let options = BuildOptions::default().with_memory(Some(1 << 20));
        let e = plan_patterns(&goal, &partition, Path::new("x.slidedb"), &options).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("needs 1556755200 bytes"), "{text}");
        assert!(text.contains("a group of 8 tiles"), "{text}");
        assert!(text.contains("(1048576 bytes)"), "{text}");
    }
}
