//! The library's integration tests, in one harness so that `cargo test`
//! links one binary for them all (`tests/pdb_alloc.rs` stays apart: it
//! installs its own global allocator). One module per concern; `common`
//! holds the reference BFS, the published data in `tests/data/` and shared
//! helpers. The programs' tests are in `cli/tests`.

#[path = "../support/shared.rs"]
mod shared;

mod common;

mod astar;
mod bfs;
mod damaged;
mod dfs;
mod distributions;
mod engine;
mod fuzz_regressions;
mod heuristics;
mod idastar;
mod iddfs;
mod layers;
mod messages;
mod multi_heuristic;
mod multi_search;
mod multi_tile;
mod pdb;
mod request;
mod shapes;
mod solve;
mod symmetry;
mod table_format;
mod tablebase;
