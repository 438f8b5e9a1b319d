//! The builders: tables written to files, resumably, and the cluster's
//! build across processes. Above the tables ([`crate::table`], which never
//! imports from here) and the searches (the private `bfs`) they run.
//!
//! - `patterns`: pattern databases built to a file one group at a time,
//!   resumably ([`build_patterns_file`]), for groups too big to hold
//!   together (the 24-puzzle's 7-tile groups).
//! - `resumable`: the resumable file build ([`build_file`]): the two-bit search
//!   with checkpoints, segments, disk and memory checks.
//! - `cluster` (feature `cluster`): the distributed search over timely
//!   dataflow, split by role.
//! - `shards` (feature `cluster`): a cluster build's shards and manifest
//!   (their merge into one file is the read side's,
//!   [`Table::save`](crate::Table::save)).
//!
//! It is the door of a builder program (`slidedb-gen`): beside the builds
//! above it re-exports the pattern databases' build in memory ([`patterns()`]) and
//! [`Partition`], and the sharded table's [`MANIFEST_NAME`] and
//! [`ShardError`].

#[cfg(feature = "cluster")]
mod cluster;
mod patterns;
mod resumable;
#[cfg(feature = "cluster")]
mod shards;

pub use crate::table::merge_shards;
#[cfg(all(test, feature = "cluster"))]
pub(crate) use cluster::search_distributed;
#[cfg(feature = "cluster")]
pub use cluster::{
    Checkpoints, Cluster, ClusterEvent, ClusterLayer, ConnectError, Distributed, DistributedError,
    Part, ShardSum, owned_ranges, search_cluster,
};
pub use patterns::{
    GroupPlan, GroupSource, PatternEvent, PatternPlan, PatternReport, build_patterns_file,
    group_file, pattern_scratch_files, plan_patterns,
};
pub use resumable::{
    BuildError, BuildEvent, BuildOptions, BuildPlan, BuildReport, WorkFiles, build_file,
    check_disk_for_patterns, check_disk_for_table, plan_build, work_files,
};
#[cfg(feature = "cluster")]
pub use shards::write_shards;

// What a builder program needs beside the builds above, so that it drives
// them through this module alone: the pattern databases' build and
// partition, and the sharded table's manifest name and faults.
pub use crate::pdb::{EntryKind, Partition, PatternSpec, build as patterns};
pub use crate::table::{MANIFEST_NAME, ShardError};
