//! The integration tests, in one harness so that `cargo test` links one
//! binary for them all (`tests/pdb_alloc.rs` stays apart: it installs its
//! own global allocator). One module per concern; `common` holds the
//! reference BFS, the published data in `tests/data/` and shared helpers.

#![allow(dead_code)]

mod common;

mod astar;
mod bfs;
mod cli;
mod dfs;
mod distributions;
mod durability;
mod fuzz_regressions;
mod idastar;
mod iddfs;
mod pdb;
mod solve;
mod symmetry;
mod table_format;
mod verify;
