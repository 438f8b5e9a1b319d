//! A distance as `layer` and `random` read it: the library's reading
//! ([`slidedb::request::Distance`]), for clap.

/// Reads a distance: `31`, or `max`.
pub fn parse_distance(text: &str) -> Result<slidedb::request::Distance, String> {
    text.parse()
        .map_err(|e: slidedb::request::RequestError| e.to_string())
}
