//! The integration tests, in one harness so that `cargo test` links one
//! binary for them all (`tests/pdb_alloc.rs` stays apart: it installs its
//! own global allocator). One module per concern; `common` holds the
//! reference BFS, the published data in `tests/data/` and shared helpers.

#![allow(dead_code)]

mod common;

mod astar;
mod bfs;
// These run the built binaries, which need the `cli` feature (default).
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod cluster;
#[cfg(feature = "cli")]
mod defects;
mod dfs;
mod distributions;
#[cfg(feature = "cli")]
mod durability;
#[cfg(feature = "cli")]
mod exe;
mod fuzz_regressions;
#[cfg(feature = "cli")]
mod goals;
mod heuristics;
mod idastar;
mod iddfs;
mod pdb;
#[cfg(feature = "cli")]
mod queries;
#[cfg(feature = "cli")]
mod serve;
mod solve;
mod symmetry;
mod table_format;
mod tablebase;
#[cfg(feature = "cli")]
mod verify;
