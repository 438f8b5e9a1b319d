//! A distance as `layer`, `random` and the server's `random` read it.

/// A distance as a user writes it: a number, or `max` for the greatest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// This many moves.
    Moves(u32),
    /// The greatest distance of the table.
    Max,
}

impl Distance {
    /// The number of moves, `max` being `greatest`.
    pub fn resolve(self, greatest: u32) -> u32 {
        match self {
            Distance::Moves(d) => d,
            Distance::Max => greatest,
        }
    }
}

/// Reads a distance as the library does ([`slidedb::request::Distance`]):
/// `31`, or `max`.
pub fn parse_distance(text: &str) -> Result<slidedb::request::Distance, String> {
    text.parse()
        .map_err(|e: slidedb::request::RequestError| e.to_string())
}

/// Reads a distance: `31`, or `max` (the server's, until it reads them
/// through [`slidedb::request`]).
pub fn parse_server_distance(text: &str) -> Result<Distance, String> {
    if text.eq_ignore_ascii_case("max") {
        return Ok(Distance::Max);
    }
    text.trim()
        .parse::<u32>()
        .map(Distance::Moves)
        .map_err(|_| format!("{text:?} is not a distance: write a number of moves, or max"))
}
