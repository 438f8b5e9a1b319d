//! The bounds every request meets: bodies, lines, batches, draws and time.

use std::time::Duration;

/// The largest request body (a batch of boards): 1 MiB.
pub const MAX_BODY: usize = 1 << 20;
/// The most boards in one batch.
pub const MAX_BATCH: usize = 10_000;
/// The longest board, or goal, in a query.
pub const MAX_LINE: usize = 1024;
// The longest line of a batch, and the echo of a longer one, are every
// front end's: `slidedb::request::{MAX_LINE, PREVIEW}`.
/// The most distinct operator messages the log gets (each once).
pub const MAX_LOGGED: usize = 1000;
/// The most boards one `random` request draws.
pub const MAX_RANDOM: u32 = 1000;
/// The longest any request may take, searches and listings included
/// (`--max-search` stays below it).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);
/// Lines a streamed batch answers per chunk.
pub const CHUNK_LINES: usize = 256;
