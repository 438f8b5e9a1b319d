//! hyper's own refusals, with the JSON body every refusal has.
//!
//! A request hyper cannot parse never reaches the routes: hyper answers
//! it itself (400 for a malformed request, 414 for a URL over its 64 KiB
//! limit, 431 for headers over its buffer) with an empty body, then
//! closes the connection. [`JsonRefusals`] sits between hyper and the
//! socket and gives such an answer `{"error": "…"}`, as the routes'
//! refusals have. An answer from the routes always has a body (an error's
//! is JSON, see `error::json_if_bare`), so only hyper's own are changed.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose bodiless refusals from hyper get a JSON body.
pub struct JsonRefusals<S> {
    inner: S,
    /// A rewritten answer not yet all written, and how much of it is.
    pending: Vec<u8>,
    written: usize,
}

impl<S> JsonRefusals<S> {
    pub fn new(inner: S) -> JsonRefusals<S> {
        JsonRefusals {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// What each of hyper's refusals says.
fn message(status: &[u8]) -> Option<&'static str> {
    Some(match status {
        b"400" => "the request is not HTTP/1.1 this server can read",
        b"414" => {
            "the URL is longer than this server reads (64 KiB): send many boards in the body of a POST"
        }
        b"431" => "the request's headers are larger than this server reads",
        _ => return None,
    })
}

/// `head`, when it is one of hyper's bodiless refusals (a status line of
/// 400, 414 or 431, `content-length: 0`, and nothing after the head), with
/// a JSON body; else `None`.
fn with_json_body(head: &[u8]) -> Option<Vec<u8>> {
    let status = head.strip_prefix(b"HTTP/1.1 ")?.get(..3)?;
    let message = message(status)?;
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    if end + 4 != head.len() {
        return None;
    }
    let text = std::str::from_utf8(&head[..end]).ok()?;
    let mut lines: Vec<&str> = text.split("\r\n").collect();
    let at = lines
        .iter()
        .position(|l| l.eq_ignore_ascii_case("content-length: 0"))?;
    lines.remove(at);
    lines.retain(|l| !l.to_ascii_lowercase().starts_with("connection:"));
    let body = serde_json::json!({ "error": message }).to_string();
    let mut out = lines.join("\r\n");
    out.push_str(&format!(
        "\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    ));
    Some(out.into_bytes())
}

impl<S: AsyncWrite + Unpin> JsonRefusals<S> {
    /// Writes what is left of a rewritten answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }

    /// Takes `head` as written, sending its rewritten form instead.
    fn replace(&mut self, cx: &mut Context<'_>, rewritten: Vec<u8>) -> Poll<io::Result<()>> {
        self.pending = rewritten;
        self.written = 0;
        // What is not written now goes at the next write, flush or shutdown.
        match self.poll_pending(cx) {
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            _ => Poll::Ready(Ok(())),
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonRefusals<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        if let Some(rewritten) = with_json_body(buf) {
            ready!(this.replace(cx, rewritten))?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        // hyper queues a head as one slice of its own.
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && let Some(rewritten) = with_json_body(first)
        {
            ready!(this.replace(cx, rewritten))?;
            return Poll::Ready(Ok(first.len()));
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_bodiless_refusals_get_a_body() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(with_json_body(head).unwrap()).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(json["error"].as_str().unwrap().contains("URL"));
        // A route's answer, with a body or of another status, is left as is.
        assert!(
            with_json_body(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 2\r\n\r\n").is_none()
        );
        assert!(with_json_body(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(
            with_json_body(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}").is_none()
        );
    }
}
