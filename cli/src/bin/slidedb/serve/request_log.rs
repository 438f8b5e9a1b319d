//! The request log (`--log`): one line on stderr per request, once its
//! answer is sent (a streamed batch's last line included), or the client
//! went away:
//!
//! ```text
//! slidedb: GET /api/v1/probe?board=724506831 200 0.041 ms
//! ```
//!
//! the method, the path and query (each cut at [`MAX_SHOWN`] bytes, so
//! that a batch of boards in a URL does not fill the log), the status,
//! and the time from the request's head read to its answer's end.
//! Requests too malformed to reach the routes (hyper's own 400, 414 and
//! 431, see `refusals`) are not logged.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{StatusCode, Uri};
use axum::middleware::Next;
use axum::response::Response;
use clap::ValueEnum;
use hyper::body::{Body as HttpBody, Frame, SizeHint};

/// Which requests get a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum LogLevel {
    /// No line per request.
    #[default]
    Off,
    /// The requests answered with a status of 400 or more: a client's
    /// mistakes (4xx) as well as the server's failures (5xx).
    Errors,
    /// Every request.
    All,
}

impl LogLevel {
    /// Whether a request answered `status` gets a line.
    fn logs(self, status: StatusCode) -> bool {
        match self {
            LogLevel::Off => false,
            LogLevel::Errors => status.as_u16() >= 400,
            LogLevel::All => true,
        }
    }
}

/// The most bytes of a request's method, path, or query the log shows.
const MAX_SHOWN: usize = 200;

/// `text` cut at [`MAX_SHOWN`] bytes (then `…`), control characters as `?`.
fn shown(text: &str) -> String {
    let cut = text.floor_char_boundary(MAX_SHOWN);
    let mut out: String = text[..cut]
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if cut < text.len() {
        out.push('…');
    }
    out
}

/// The path, and the query after a `?` if there is one, each cut.
fn target(uri: &Uri) -> String {
    let mut out = shown(uri.path());
    if let Some(query) = uri.query() {
        out.push('?');
        out.push_str(&shown(query));
    }
    out
}

/// What a request's line says but its time.
struct Line {
    method: String,
    target: String,
    status: StatusCode,
    start: Instant,
}

impl Line {
    fn write(self) {
        let ms = self.start.elapsed().as_secs_f64() * 1000.0;
        say!(
            "slidedb: {} {} {} {ms:.3} ms",
            self.method,
            self.target,
            self.status.as_u16()
        );
    }
}

/// The middleware: times the request, and writes its line once its
/// answer's body is done with, if `level` logs its status.
pub async fn log_requests(State(level): State<LogLevel>, request: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = shown(request.method().as_str());
    let target = target(request.uri());
    let response = next.run(request).await;
    let status = response.status();
    if !level.logs(status) {
        return response;
    }
    let line = Line {
        method,
        target,
        status,
        start,
    };
    let (parts, body) = response.into_parts();
    let body = Body::new(Logged {
        inner: body,
        line: Some(line),
    });
    Response::from_parts(parts, body)
}

/// An answer's body that writes its request's line when dropped: when
/// hyper is done with it, sent to the end or its client gone.
struct Logged {
    inner: Body,
    line: Option<Line>,
}

impl Drop for Logged {
    fn drop(&mut self) {
        if let Some(line) = self.line.take() {
            line.write();
        }
    }
}

impl HttpBody for Logged {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_query_is_cut_and_a_short_one_is_whole() {
        let short: Uri = "/api/v1/probe?board=724506831".parse().unwrap();
        assert_eq!(target(&short), "/api/v1/probe?board=724506831");
        let long: Uri = format!("/api/v1/solve?board={}", "1%20".repeat(5000))
            .parse()
            .unwrap();
        let shown = target(&long);
        assert!(shown.starts_with("/api/v1/solve?board=1%201%20"), "{shown}");
        assert!(shown.ends_with('…'), "{shown}");
        assert!(shown.len() <= 2 * MAX_SHOWN + 8, "{} bytes", shown.len());
        assert_eq!(target(&"/healthz".parse().unwrap()), "/healthz");
    }

    #[test]
    fn errors_are_4xx_and_5xx() {
        let logged = |level: LogLevel| {
            [200, 304, 400, 404, 413, 500, 503]
                .map(|s| level.logs(StatusCode::from_u16(s).unwrap()))
        };
        assert_eq!(logged(LogLevel::Off), [false; 7]);
        assert_eq!(
            logged(LogLevel::Errors),
            [false, false, true, true, true, true, true]
        );
        assert_eq!(logged(LogLevel::All), [true; 7]);
    }
}
