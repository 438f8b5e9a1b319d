//! What the two programs of slidedb, `slidedb` and `slidedb-gen`, share:
//! the console (stderr lines that never panic, stdout whose write errors
//! are named, clap's help written with its errors checked) and the
//! completion scripts and manual pages generated from their definitions,
//! sizes in bytes as both read and write them, and how progress is shown;
//! the commands that build a damaged file again.
//!
//! The library is the product: every answer comes from the `slidedb`
//! crate; this package holds only arguments, rendering and exit codes.

#![warn(missing_docs)]

#[macro_use]
pub mod console;
pub mod manual;
pub mod progress;
pub mod rebuild;
pub mod units;
