//! `slidedb serve` through a real server on a loopback port.
//!
//! Each test starts its own server (`--listen 127.0.0.1:0`, a fresh data
//! folder) and talks to it with the small HTTP/1.1 client below, over
//! `std::net::TcpStream`: one request a connection (`Connection: close`),
//! every read and write under a deadline so that nothing hangs. Answers
//! are compared with the command line's `--json` lines for the same
//! question.

use crate::exe::{self, SLIDEDB, board_with_a_long_number, run_gen};

use serde_json::Value;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// The longest any one request of these tests may take.
const REQUEST_DEADLINE: Duration = Duration::from_secs(30);
/// The longest a server may take to say it listens.
const START_DEADLINE: Duration = Duration::from_secs(30);

/// Korf's goal (blank top left) and his first instance, 57 moves away:
/// far too hard for IDA* with Manhattan distance within a second.
const KORF_GOAL: &str = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
const KORF_2: &str = "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6";
const KORF_3: &str = "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15";

/// The two 3x3 boards 31 moves from the usual goal.
const ANTIPODES: [&str; 2] = ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"];

// ---- The server ----

/// A running `slidedb serve`, killed on drop if still running.
struct Server {
    child: Child,
    addr: SocketAddr,
    /// Everything it wrote on stderr so far.
    log: Arc<Mutex<String>>,
    data: tempfile::TempDir,
    _cwd: tempfile::TempDir,
}

impl Server {
    /// Starts `slidedb serve --listen 127.0.0.1:0 --data FRESH extra…` and
    /// waits (up to [`START_DEADLINE`]) for its "serving on" line.
    fn start(extra: &[&str]) -> Server {
        Server::start_on("127.0.0.1:0", extra)
    }

    /// Like [`Server::start`], listening on `listen`; the address is the
    /// first one the server says it serves on.
    fn start_on(listen: &str, extra: &[&str]) -> Server {
        let data = exe::tempdir();
        let cwd = exe::tempdir();
        let mut child = Command::new(SLIDEDB)
            .args(["serve", "--listen", listen, "--data"])
            .arg(data.path())
            .args(extra)
            .env("SLIDEDB_DATA", data.path())
            .current_dir(cwd.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {SLIDEDB} serve: {e}"));
        let deadline = Instant::now() + START_DEADLINE;
        let stderr = child.stderr.take().expect("piped stderr");
        let log = Arc::new(Mutex::new(String::new()));
        let (ready, listening) = mpsc::channel::<String>();
        let sink = log.clone();
        // Reads stderr to its end (so that the pipe never fills), and
        // passes on the "serving on" line.
        thread::spawn(move || {
            let mut ready = Some(ready);
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                sink.lock().unwrap().push_str(&format!("{line}\n"));
                if line.contains("serving on http://")
                    && let Some(ready) = ready.take()
                {
                    let _ = ready.send(line);
                }
            }
        });
        let remaining = deadline.saturating_duration_since(Instant::now());
        let line = match listening.recv_timeout(remaining) {
            Ok(line) => line,
            Err(e) => {
                let _ = child.kill();
                let status = child.wait();
                // Let the reader catch the last lines.
                thread::sleep(Duration::from_millis(100));
                panic!(
                    "slidedb serve {extra:?} never said it was serving ({e:?}; status {status:?}); stderr:\n{}",
                    log.lock().unwrap()
                );
            }
        };
        let addr = line
            .split("serving on http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server {
            child,
            addr,
            log,
            data,
            _cwd: cwd,
        }
    }

    fn data(&self) -> &Path {
        self.data.path()
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    fn get(&self, target: &str) -> Response {
        request(self.addr, "GET", target, &[], None, REQUEST_DEADLINE)
    }

    /// Like [`get`](Server::get), within `limit`: for an answer that
    /// first builds something in memory.
    fn get_within(&self, target: &str, limit: Duration) -> Response {
        request(self.addr, "GET", target, &[], None, limit)
    }

    fn post(&self, target: &str, body: &[u8]) -> Response {
        request(self.addr, "POST", target, &[], Some(body), REQUEST_DEADLINE)
    }

    /// Sends SIGTERM.
    fn terminate(&self) {
        self.signal("TERM");
    }

    /// Sends the signal `name` (`TERM`, `HUP`).
    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -{name} failed: {status}");
    }

    /// Waits up to `limit` for the process to exit.
    fn wait_exit(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if Instant::now() >= deadline {
                panic!(
                    "the server did not exit within {limit:?}; stderr:\n{}",
                    self.log()
                );
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops the server with SIGTERM: it exits 0 within a few seconds,
    /// having never panicked.
    fn stop(mut self) {
        self.terminate();
        let status = self.wait_exit(Duration::from_secs(10));
        thread::sleep(Duration::from_millis(50));
        let log = self.log();
        assert_eq!(status.code(), Some(0), "exit status; stderr:\n{log}");
        assert!(!log.contains("panicked"), "the server panicked:\n{log}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

// ---- A small HTTP/1.1 client ----

#[derive(Debug)]
struct Response {
    status: u16,
    /// Names in lower case.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> &str {
        std::str::from_utf8(&self.body).expect("the body is UTF-8")
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {:?}", self.status, self.text()))
    }

    /// One JSON value a line.
    fn ndjson(&self) -> Vec<Value> {
        let text = self.text();
        assert!(
            text.is_empty() || text.ends_with('\n'),
            "NDJSON ends with a newline: {text:?}"
        );
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:?}")))
            .collect()
    }

    /// Asserts a JSON error with this status, and returns its message.
    fn error(&self, status: u16) -> String {
        assert_eq!(self.status, status, "status; body {:?}", self.text());
        let kind = self.header("content-type").unwrap_or("");
        assert!(
            kind.starts_with("application/json"),
            "an error is JSON, not {kind:?}: {:?}",
            self.text()
        );
        let json = self.json();
        let message = json["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error string in {json}"));
        assert!(!message.is_empty());
        message.to_string()
    }
}

/// The value as a query string value: every byte but the unreserved ones
/// percent-encoded (a space as %20).
fn encode(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `path?name=value&…`, the values encoded.
fn url(path: &str, query: &[(&str, &str)]) -> String {
    let pairs: Vec<String> = query
        .iter()
        .map(|(n, v)| format!("{n}={}", encode(v)))
        .collect();
    if pairs.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", pairs.join("&"))
    }
}

/// Reads from `stream` until it ends, fails, or `deadline` passes (then
/// `timed_out`): the bytes and the error that stopped it, if any.
fn read_until_closed(
    stream: &mut TcpStream,
    deadline: Instant,
) -> (Vec<u8>, Option<std::io::Error>, bool) {
    let mut got = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return (got, None, true);
        }
        stream
            .set_read_timeout(Some(remaining))
            .expect("set a read timeout");
        match stream.read(&mut buf) {
            Ok(0) => return (got, None, false),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return (got, None, true);
            }
            Err(e) => return (got, Some(e), false),
        }
    }
}

/// Sends one request (`Connection: close`) and reads the whole answer
/// within `limit`. The body is written from another thread while the
/// answer is read, so that an early answer (413) is seen.
fn request(
    addr: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
    limit: Duration,
) -> Response {
    let deadline = Instant::now() + limit;
    let mut stream = TcpStream::connect_timeout(&addr, limit)
        .unwrap_or_else(|e| panic!("cannot connect to {addr}: {e}"));
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.unwrap_or_default());
    let mut writing = stream.try_clone().expect("clone the stream");
    writing
        .set_write_timeout(Some(limit))
        .expect("set a write timeout");
    // The server may answer (and close) before it has read everything.
    let writer = thread::spawn(move || writing.write_all(&bytes));
    let (got, error, timed_out) = read_until_closed(&mut stream, deadline);
    let _ = stream.shutdown(Shutdown::Both);
    let _ = writer.join().expect("the writer thread");
    match parse_response(&got) {
        Ok(response) => response,
        Err(why) => panic!(
            "{method} {target}: no complete answer ({why}; timed out: {timed_out}, error: {error:?}) within {limit:?}; got {:?}",
            String::from_utf8_lossy(&got[..got.len().min(2000)])
        ),
    }
}

/// Parses a whole HTTP/1.1 answer: status line, headers, and a body by
/// `Transfer-Encoding: chunked`, `Content-Length`, or to the end.
fn parse_response(raw: &[u8]) -> Result<Response, String> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no end of headers")?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| "headers are not UTF-8")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().ok_or("no status line")?;
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or("");
    if !version.starts_with("HTTP/1.") {
        return Err(format!("bad status line {status_line:?}"));
    }
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line {status_line:?}"))?;
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("bad header {line:?}"))?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let rest = &raw[end + 4..];
    let find = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let body =
        if find("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked")) {
            dechunk(rest)?
        } else if let Some(length) = find("content-length") {
            let length: usize = length.parse().map_err(|_| "bad content-length")?;
            if rest.len() < length {
                return Err(format!("{} of {length} body bytes", rest.len()));
            }
            rest[..length].to_vec()
        } else {
            rest.to_vec()
        };
    Ok(Response {
        status,
        headers,
        body,
    })
}

/// The body of a chunked answer, which must be complete (the last chunk
/// of size 0 included).
fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let eol = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunk size line is cut")?;
        let line = std::str::from_utf8(&rest[..eol]).map_err(|_| "bad chunk size")?;
        let size = line.split(';').next().unwrap_or("").trim();
        let size =
            usize::from_str_radix(size, 16).map_err(|_| format!("bad chunk size {line:?}"))?;
        rest = &rest[eol + 2..];
        if size == 0 {
            return Ok(body); // trailers, if any, are ignored
        }
        if rest.len() < size + 2 {
            return Err("a chunk is cut".into());
        }
        body.extend_from_slice(&rest[..size]);
        if &rest[size..size + 2] != b"\r\n" {
            return Err("a chunk does not end with CRLF".into());
        }
        rest = &rest[size + 2..];
    }
}

// ---- The command line, for reference ----

/// `slidedb ARGS` on `data`: its stdout as JSON lines. Fails unless it
/// exits with one of `codes`.
fn cli_json(data: &Path, args: &[&str], stdin: Option<&[u8]>, codes: &[i32]) -> Vec<Value> {
    let (code, out, err) = exe::run(args, stdin, data);
    assert!(
        codes.contains(&code),
        "slidedb {args:?} exited {code}: {err}"
    );
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:?}")))
        .collect()
}

/// The one JSON line of `slidedb ARGS`.
fn cli_one(data: &Path, args: &[&str]) -> Value {
    let mut lines = cli_json(data, args, None, &[0]);
    assert_eq!(lines.len(), 1, "slidedb {args:?}: {lines:?}");
    lines.remove(0)
}

/// Asserts a successful JSON answer and returns it.
fn ok_json(response: &Response) -> Value {
    assert_eq!(response.status, 200, "body {:?}", response.text());
    let kind = response.header("content-type").unwrap_or("");
    assert!(
        kind.starts_with("application/json"),
        "content type {kind:?}"
    );
    response.json()
}

/// Asserts a successful NDJSON answer and returns its lines.
fn ok_ndjson(response: &Response) -> Vec<Value> {
    assert_eq!(response.status, 200, "body {:?}", response.text());
    let kind = response.header("content-type").unwrap_or("");
    assert!(
        kind.starts_with("application/x-ndjson"),
        "content type {kind:?}"
    );
    response.ndjson()
}

// ---- 1b. The multi-tile metric, against the command line ----

/// `?metric=multi` answers as `--metric multi` does on the command line
/// (the record names its metric, and a solution its slides); a bad metric
/// is 400, a board the metric is not answered for here (3x5) is a 4xx
/// saying so, and a 4x4 board is searched.
#[test]
fn the_multi_tile_metric_is_asked_by_a_parameter_and_answers_as_the_command_line() {
    let server = Server::start(&[]);
    let data = server.data().to_path_buf();
    let seed = "2 3 4 1 5 x 7 6 8";
    let multi = [("board", seed), ("metric", "multi")];
    let solved = ok_json(&server.get(&url("/api/v1/solve", &multi)));
    assert_eq!(
        solved,
        cli_one(&data, &["solve", "--json", "--metric", "multi", seed])
    );
    assert_eq!(solved["metric"], "multi");
    assert_eq!(solved["distance"], 14);
    let slides = solved["slides"].as_array().expect("slides");
    assert_eq!(slides.len(), 14);
    let joined: String = slides.iter().map(|s| s.as_str().unwrap()).collect();
    assert_eq!(joined, solved["moves"].as_str().unwrap());
    let probed = ok_json(&server.get(&url("/api/v1/probe", &multi)));
    assert_eq!(
        probed,
        cli_one(&data, &["probe", "--json", "--metric", "multi", seed])
    );
    assert_eq!(probed["metric"], "multi");
    // A probe in multi offers slides of several cells.
    assert!(
        probed["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["move"].as_str().unwrap().len() > 1),
        "{probed}"
    );
    let counted = ok_json(&server.get(&url("/api/v1/count", &multi)));
    assert_eq!(
        counted,
        cli_one(&data, &["count", "--json", "--metric", "multi", seed])
    );
    let stats = ok_json(&server.get("/api/v1/stats?size=3x3&metric=multi"));
    assert_eq!(
        stats,
        cli_one(
            &data,
            &["stats", "--json", "--size", "3x3", "--metric", "multi"]
        )
    );
    assert_eq!(stats["max_distance"], 24);
    // The default, and single by name, are the single-tile answer.
    let single = ok_json(&server.get(&url("/api/v1/solve", &[("board", seed)])));
    assert_eq!(single["distance"], 19);
    let named = ok_json(&server.get(&url(
        "/api/v1/solve",
        &[("board", seed), ("metric", "single")],
    )));
    assert_eq!(named, single);
    // A batch in multi: each line as `solve --metric multi` answers it.
    let body = b"2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 0\n";
    let lines = ok_ndjson(&server.post("/api/v1/solve?metric=multi", body));
    assert_eq!(
        lines,
        cli_json(
            &data,
            &["solve", "--json", "--metric", "multi"],
            Some(body),
            &[0]
        )
    );
    // Refusals.
    let bad = server.get(&url(
        "/api/v1/solve",
        &[("board", seed), ("metric", "diagonal")],
    ));
    let message = bad.error(400);
    assert!(message.contains("bad metric \"diagonal\""), "{message}");
    let big = "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14";
    let refused = server.get(&url(
        "/api/v1/solve",
        &[("board", big), ("size", "3x5"), ("metric", "multi")],
    ));
    let message = refused.error(400);
    assert!(message.contains("multi-tile metric"), "{message}");
    // 4x4 is searched (under a table each process builds once, 15 s on
    // an idle machine, minutes on a busy one): the server's probe is the
    // command line's.
    let four = "12 1 10 2 7 11 4 14 5 0 9 15 8 13 6 3";
    let probed = ok_json(&server.get_within(
        &url("/api/v1/probe", &[("board", four), ("metric", "multi")]),
        Duration::from_secs(600),
    ));
    assert_eq!(
        probed,
        cli_one(&data, &["probe", "--json", "--metric", "multi", four])
    );
    assert_eq!(probed["metric"], "multi");
    let moves = probed["moves"].as_array().unwrap();
    // Up to (4 - 1) + (4 - 1) slides from a board, one closer among them.
    assert_eq!(moves.len(), 6, "{probed}");
    assert!(
        moves
            .iter()
            .any(|m| m["optimal"] == true
                && m["distance"] == probed["distance"].as_u64().unwrap() - 1),
        "{probed}"
    );
    let message = server.get("/api/v1/sizes?metric=sideways").error(400);
    assert!(message.contains("bad metric"), "{message}");
}

// ---- 1. Every GET endpoint, against the command line ----

#[test]
fn get_answers_equal_the_command_lines_json() {
    let server = Server::start(&[]);
    let data = server.data().to_path_buf();

    // solve, probe, count of the README's board.
    let seed = "2 3 4 1 5 x 7 6 8";
    let solved = ok_json(&server.get(&url("/api/v1/solve", &[("board", seed)])));
    assert_eq!(solved, cli_one(&data, &["solve", "--json", seed]));
    assert_eq!(solved["distance"], 19);
    assert_eq!(solved["moves"], "ullddrurdllurdruldr");
    assert_eq!(solved["goal"], "1 2 3 4 5 6 7 8 0");
    let probed = ok_json(&server.get(&url("/api/v1/probe", &[("board", seed)])));
    assert_eq!(probed, cli_one(&data, &["probe", "--json", seed]));
    assert_eq!(probed["distance"], 19);
    let counted = ok_json(&server.get(&url("/api/v1/count", &[("board", seed)])));
    assert_eq!(counted, cli_one(&data, &["count", "--json", seed]));

    // Toward another goal (another table's class), compact board syntax.
    let (board, goal) = ("724506831", "012345678");
    let solved = ok_json(&server.get(&url("/api/v1/solve", &[("board", board), ("goal", goal)])));
    assert_eq!(
        solved,
        cli_one(&data, &["solve", "--json", "--goal", goal, board])
    );
    assert_eq!(solved["distance"], 26);
    let moves = solved["moves"].as_str().expect("moves");
    assert_eq!(moves.len(), 26);
    assert_eq!(exe::apply(&exe::cells(board), 3, moves), exe::cells(goal));
    let probed = ok_json(&server.get(&url(
        "/api/v1/probe",
        &[("board", board), ("goal", goal), ("size", "3x3")],
    )));
    assert_eq!(
        probed,
        cli_one(&data, &["probe", "--json", "--goal", goal, board])
    );

    // count: the 40 optimal solutions of an antipode.
    let antipode = "8 6 7 2 5 4 3 0 1";
    let counted = ok_json(&server.get(&url("/api/v1/count", &[("board", antipode)])));
    assert_eq!(counted, cli_one(&data, &["count", "--json", antipode]));
    assert_eq!(
        (counted["distance"].clone(), counted["count"].clone()),
        (31.into(), 40.into())
    );

    // stats: the 3x3 layers.
    let stats = ok_json(&server.get("/api/v1/stats?size=3x3"));
    assert_eq!(stats, cli_one(&data, &["stats", "--json", "--size", "3x3"]));
    let layers: Vec<u64> = stats["layers"]
        .as_array()
        .expect("layers")
        .iter()
        .map(|v| v.as_u64().expect("a count"))
        .collect();
    assert_eq!(layers.len(), 32);
    assert_eq!(layers[..4], [1, 2, 4, 8]);
    assert_eq!(layers.iter().sum::<u64>(), 181_440);
    let hardest: HashSet<&str> = stats["hardest"]
        .as_array()
        .expect("hardest")
        .iter()
        .map(|v| v.as_str().expect("a board"))
        .collect();
    assert_eq!(hardest, HashSet::from(ANTIPODES));

    // random: deterministic by seed, the command line's draw.
    let target = url(
        "/api/v1/random",
        &[
            ("size", "3x3"),
            ("distance", "20"),
            ("seed", "7"),
            ("count", "5"),
        ],
    );
    let drawn = ok_ndjson(&server.get(&target));
    assert_eq!(drawn.len(), 5);
    assert_eq!(
        drawn,
        ok_ndjson(&server.get(&target)),
        "same seed, same boards"
    );
    let cli = cli_json(
        &data,
        &[
            "random",
            "--json",
            "--size",
            "3x3",
            "--distance",
            "20",
            "--seed",
            "7",
            "--count",
            "5",
        ],
        None,
        &[0],
    );
    assert_eq!(drawn, cli);
    assert!(drawn.iter().all(|d| d["distance"] == 20), "{drawn:?}");
    let other = ok_ndjson(&server.get(&url(
        "/api/v1/random",
        &[
            ("size", "3x3"),
            ("distance", "20"),
            ("seed", "8"),
            ("count", "5"),
        ],
    )));
    assert_ne!(drawn, other, "another seed, other boards");
    // A range, and among all boards.
    let ranged = ok_ndjson(&server.get("/api/v1/random?min=5&max=7&seed=3&count=4"));
    assert_eq!(
        ranged,
        cli_json(
            &data,
            &[
                "random", "--json", "--min", "5", "--max", "7", "--seed", "3", "--count", "4"
            ],
            None,
            &[0]
        )
    );
    let any = ok_ndjson(&server.get("/api/v1/random?seed=11&count=3"));
    assert_eq!(
        any,
        cli_json(
            &data,
            &["random", "--json", "--seed", "11", "--count", "3"],
            None,
            &[0]
        )
    );
    // The farthest distance holds only the two antipodes.
    let far = ok_ndjson(&server.get("/api/v1/random?distance=31&count=20&seed=5"));
    assert_eq!(far.len(), 20);
    for line in &far {
        assert_eq!(line["distance"], 31, "{line}");
        let board = line["board"].as_str().expect("a board");
        assert!(ANTIPODES.contains(&board), "{board} is not 31 moves away");
    }

    // sizes, openapi.json, healthz.
    let sizes = ok_json(&server.get("/api/v1/sizes"));
    let sizes = sizes.as_array().expect("a list of sizes");
    assert!(
        sizes.contains(
            &serde_json::json!({"size": "3x3", "exact": "table", "goal": "1 2 3 4 5 6 7 8 0"})
        ),
        "{sizes:?}"
    );
    let openapi = ok_json(&server.get("/api/v1/openapi.json"));
    assert!(openapi.get("openapi").is_some(), "{openapi}");
    assert!(openapi["paths"].get("/api/v1/solve").is_some());
    let health = server.get("/healthz");
    assert_eq!(health.status, 200);
    assert_eq!(health.text().trim(), "ok");

    // The page and its assets.
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap_or("")
            .starts_with("text/html"),
        "{:?}",
        page.headers
    );
    assert!(page.text().contains("<title>"));
    let policy = page
        .header("content-security-policy")
        .unwrap_or_else(|| panic!("no Content-Security-Policy: {:?}", page.headers));
    assert!(policy.contains("default-src"), "{policy}");
    for (path, kind) in [("/app.js", "javascript"), ("/style.css", "text/css")] {
        let asset = server.get(path);
        assert_eq!(asset.status, 200, "{path}");
        let got = asset.header("content-type").unwrap_or("");
        assert!(got.contains(kind), "{path}: content type {got:?}");
        assert!(!asset.body.is_empty(), "{path} is empty");
    }
    server.stop();
}

// ---- 2. POST batches ----

#[test]
fn post_batches_answer_each_line_in_order_like_the_command_line() {
    let server = Server::start(&[]);
    let data = server.data().to_path_buf();
    // Valid, not a board, blank, unsolvable, compact rows, another size,
    // too few cells, a CRLF line end.
    let body = "2 3 4 1 5 x 7 6 8\nnot a board\n\n1 2 3 4 5 6 8 7 0\n123/456/78x\n1 2 3 0\n1 2 3\n7 2 4 5 0 6 8 3 1\r\n";
    let inputs = body.lines().count();
    for command in ["solve", "probe"] {
        let answer = ok_ndjson(&server.post(&format!("/api/v1/{command}"), body.as_bytes()));
        let cli = cli_json(&data, &[command, "--json"], Some(body.as_bytes()), &[0, 2]);
        assert_eq!(answer.len(), inputs, "{command}: one line out per line in");
        assert_eq!(answer, cli, "{command}");
        assert_eq!(answer[0]["distance"], 19);
        assert_eq!(answer[1]["line"], 2);
        assert_eq!(answer[1]["input"], "not a board");
        assert!(answer[1]["error"].is_string());
        assert_eq!(answer[2]["line"], 3);
        assert_eq!(answer[3]["solvable"], false);
        assert_eq!(answer[5]["goal"], "1 2 3 0");
        assert_eq!(answer[6]["line"], 7);
    }
    // ?goal= applies to every line.
    let goal = "012345678";
    let body = "724506831\n2 3 4 1 5 x 7 6 8\n1 2 3 0\n";
    let answer = ok_ndjson(&server.post(&url("/api/v1/solve", &[("goal", goal)]), body.as_bytes()));
    let cli = cli_json(
        &data,
        &["solve", "--json", "--goal", goal],
        Some(body.as_bytes()),
        &[0, 2],
    );
    assert_eq!(answer, cli);
    assert_eq!(answer[0]["distance"], 26);
    assert!(
        answer[2]["error"].is_string(),
        "a 2x2 board toward a 3x3 goal"
    );
    server.stop();
}

#[test]
fn post_batch_of_ten_thousand_boards_is_answered_in_full() {
    let server = Server::start(&[]);
    let data = server.data().to_path_buf();
    let (code, boards, err) = exe::run(&["random", "--count", "10000", "--seed", "1"], None, &data);
    assert_eq!(code, 0, "{err}");
    assert_eq!(boards.lines().count(), 10_000);
    let started = Instant::now();
    let response = server.post("/api/v1/solve", boards.as_bytes());
    let answer = ok_ndjson(&response);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(answer.len(), 10_000);
    let cli = cli_json(&data, &["solve", "--json"], Some(boards.as_bytes()), &[0]);
    for (i, (got, want)) in answer.iter().zip(&cli).enumerate() {
        assert_eq!(got, want, "line {}", i + 1);
    }
    for (line, record) in boards.lines().zip(&answer) {
        assert_eq!(record["board"], line, "in order");
    }
    // The same batch probed: every line in order too.
    let probed = ok_ndjson(&server.post("/api/v1/probe", boards.as_bytes()));
    assert_eq!(probed.len(), 10_000);
    for (p, s) in probed.iter().zip(&answer) {
        assert_eq!((&p["board"], &p["distance"]), (&s["board"], &s["distance"]));
    }

    // One line more is refused whole.
    let over = format!("{boards}1 2 3 4 5 6 7 8 0\n");
    assert_eq!(over.lines().count(), 10_001);
    let message = server.post("/api/v1/solve", over.as_bytes()).error(413);
    assert!(
        message.contains("10001") && message.contains("10000"),
        "{message}"
    );
    assert_eq!(server.get("/healthz").status, 200);
    server.stop();
}

#[test]
fn post_body_over_a_mebibyte_is_413_json() {
    let server = Server::start(&[]);
    // 9,000 lines (under the line limit) of 120 bytes: 1.08 MB.
    let line = format!("{:<119}\n", "1 2 3 4 5 6 7 8 0");
    let body = line.repeat(9000);
    assert!(body.len() > 1 << 20 && body.lines().count() < 10_000);
    let response = server.post("/api/v1/solve", body.as_bytes());
    let message = response.error(413);
    assert!(!message.is_empty());
    assert_eq!(server.get("/healthz").status, 200);
    server.stop();
}

// ---- 3. Bad input ----

/// A number of any length is a tile out of range, named as typed (cut
/// with an ellipsis past 40 characters): the command line's words, in a
/// query and in a batch's line.
#[test]
fn long_numbers_are_out_of_range_as_typed() {
    let server = Server::start(&[]);
    for digits in [20, 26, 100] {
        let (board, want) = board_with_a_long_number(digits);
        let answer = server.get(&url("/api/v1/solve", &[("board", &board)]));
        let body = String::from_utf8_lossy(&answer.body).into_owned();
        assert_eq!(answer.status, 400, "{body}");
        assert!(
            body.contains(&want) && !body.contains("not a tile"),
            "{body}"
        );
        let answer = server.post("/api/v1/solve", board.as_bytes());
        let body = String::from_utf8_lossy(&answer.body).into_owned();
        assert!(body.contains(&want), "{body}");
    }
}

#[test]
fn bad_input_is_a_json_4xx_naming_the_problem() {
    let server = Server::start(&[]);
    let nine = "1 2 3 4 5 6 7 8 0";
    let long = "1 ".repeat(600);
    // (target, status, words the error must hold)
    let cases: Vec<(String, u16, Vec<&str>)> = vec![
        (
            url("/api/v1/solve", &[("board", "1 2 3")]),
            400,
            vec!["3 cells"],
        ),
        (
            url("/api/v1/probe", &[("board", "1 2 3")]),
            400,
            vec!["3 cells"],
        ),
        (
            url("/api/v1/count", &[("board", "1 2 3")]),
            400,
            vec!["3 cells"],
        ),
        (
            url("/api/v1/solve", &[("board", "1 2 3 4 5 6 7 8 8")]),
            400,
            vec!["no blank"],
        ),
        (
            url("/api/v1/solve", &[("board", &long)]),
            400,
            vec!["longer than"],
        ),
        (
            url("/api/v1/solve", &[("board", nine), ("size", "9x9")]),
            400,
            vec!["size", "9x9"],
        ),
        (
            url("/api/v1/solve", &[("board", nine), ("size", "abc")]),
            400,
            vec!["size", "abc"],
        ),
        (
            url("/api/v1/stats", &[("size", "abc")]),
            400,
            vec!["size", "abc"],
        ),
        // A 2x2 goal for a 3x3 board.
        (
            url("/api/v1/solve", &[("board", nine), ("goal", "1 2 3 0")]),
            400,
            vec!["9 cells", "2x2"],
        ),
        (
            url("/api/v1/probe", &[("board", nine), ("goal", "1 2 3 0")]),
            400,
            vec!["9 cells", "2x2"],
        ),
        (
            url(
                "/api/v1/solve",
                &[("board", nine), ("size", "3x3"), ("goal", "1 2 3 0")],
            ),
            400,
            vec!["goal"],
        ),
        (
            url("/api/v1/solve", &[("board", nine), ("foo", "1")]),
            400,
            vec!["unknown parameter", "foo"],
        ),
        (
            url("/api/v1/random", &[("bar", "1")]),
            400,
            vec!["unknown parameter", "bar"],
        ),
        ("/api/v1/solve".into(), 400, vec!["missing", "board"]),
        (
            url("/api/v1/count", &[("size", "3x3")]),
            400,
            vec!["missing", "board"],
        ),
        (
            "/api/v1/random?count=1001".into(),
            400,
            vec!["count", "1000"],
        ),
        ("/api/v1/random?count=0".into(), 400, vec!["count", "1000"]),
        ("/api/v1/random?count=ten".into(), 400, vec!["count"]),
        ("/api/v1/random?distance=40".into(), 400, vec!["40", "31"]),
        (
            "/api/v1/random?distance=5&min=3".into(),
            400,
            vec!["not both"],
        ),
        (
            url(
                "/api/v1/count",
                &[("board", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")],
            ),
            404,
            vec!["count needs a full table", "4x4"],
        ),
        (
            "/api/v1/stats?size=4x4".into(),
            404,
            vec!["needs a full table", "4x4"],
        ),
        ("/api/v1/nope".into(), 404, vec!["no such"]),
        ("/nope".into(), 404, vec!["no such"]),
    ];
    for (target, status, words) in &cases {
        let message = server.get(target).error(*status);
        for word in words {
            assert!(
                message.contains(word),
                "GET {target}: {word:?} not in {message:?}"
            );
        }
    }
    // A batch with a bad goal.
    let message = server
        .post(&url("/api/v1/probe", &[("goal", "1 1 1")]), nine.as_bytes())
        .error(400);
    assert!(message.contains("goal"), "{message}");
    // The server goes on serving.
    let health = server.get("/healthz");
    assert_eq!((health.status, health.text().trim()), (200, "ok"));
    let solved = ok_json(&server.get(&url("/api/v1/solve", &[("board", "1 2 3 4 5 6 7 0 8")])));
    assert_eq!(solved["moves"], "r");
    server.stop();
}

/// Words of serde's and Rust's own parsers: no refusal holds them.
const PARSER_WORDS: [&str; 9] = [
    "deserialize",
    "invalid digit",
    "missing field",
    "unknown field",
    "duplicate field",
    "target type",
    "cannot parse integer",
    "expected one of",
    "`",
];

/// Every parameter of every endpoint, missing, malformed, out of range,
/// given twice or unknown, is refused with 400 and one sentence naming
/// the parameter (and, for a number, its range), in the command line's
/// words, never a parser's.
#[test]
fn every_parameter_of_every_endpoint_is_refused_in_plain_words() {
    let server = Server::start(&[]);
    let nine = "1 2 3 4 5 6 7 8 0";
    let long = "1 ".repeat(600);
    // (method, target, words the error must hold)
    let mut cases: Vec<(&str, String, Vec<String>)> = Vec::new();
    let words = |w: &[&str]| w.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    let bad_sizes = ["abc", "9x9", "0x3", "-1x3", "99999999999999999999x3", ""];
    let bad_goals = ["1 1 1", "x", "", long.as_str()];
    // GET solve, probe and count: board, goal, size.
    for route in ["/api/v1/solve", "/api/v1/probe", "/api/v1/count"] {
        cases.push((
            "GET",
            url(route, &[("size", "3x3")]),
            words(&["board", "missing"]),
        ));
        for board in ["bad", "1 2 3", "1 2 3 4 5 6 7 8 8", "", long.as_str()] {
            cases.push(("GET", url(route, &[("board", board)]), words(&["board"])));
        }
        cases.push((
            "GET",
            format!("{route}?board=123456780&board=123456708"),
            words(&["board", "more than once"]),
        ));
        for goal in bad_goals {
            cases.push((
                "GET",
                url(route, &[("board", nine), ("goal", goal)]),
                words(&["goal"]),
            ));
        }
        for size in bad_sizes {
            cases.push((
                "GET",
                url(route, &[("board", nine), ("size", size)]),
                words(&["size"]),
            ));
        }
        cases.push((
            "GET",
            url(route, &[("board", nine), ("unknown", "1")]),
            words(&[
                "unknown parameter",
                "unknown",
                "board, goal, size and metric",
            ]),
        ));
    }
    // GET random: goal, size, distance, min, max, seed, count.
    let random = "/api/v1/random";
    for count in [
        "-1",
        "0",
        "1001",
        "18446744073709551616",
        "99999999999999999999999",
    ] {
        cases.push((
            "GET",
            url(random, &[("count", count)]),
            words(&["count", "out of range", "from 1 to 1000"]),
        ));
    }
    for count in ["ten", "", "1.5", "1e3", " 5"] {
        cases.push((
            "GET",
            url(random, &[("count", count)]),
            words(&["count", "from 1 to 1000"]),
        ));
    }
    for seed in ["18446744073709551616", "-1", "99999999999999999999999"] {
        cases.push((
            "GET",
            url(random, &[("seed", seed)]),
            words(&["seed", "out of range", "from 0 to 18446744073709551615"]),
        ));
    }
    for seed in ["x", "", "0x10"] {
        cases.push((
            "GET",
            url(random, &[("seed", seed)]),
            words(&["seed", "whole number"]),
        ));
    }
    for name in ["distance", "min", "max"] {
        for value in ["x", "-1", ""] {
            cases.push((
                "GET",
                url(random, &[(name, value)]),
                words(&[name, "number of moves, or max"]),
            ));
        }
    }
    for goal in bad_goals {
        cases.push(("GET", url(random, &[("goal", goal)]), words(&["goal"])));
    }
    for size in bad_sizes {
        cases.push(("GET", url(random, &[("size", size)]), words(&["size"])));
    }
    cases.push((
        "GET",
        format!("{random}?seed=1&seed=2"),
        words(&["seed", "more than once"]),
    ));
    cases.push((
        "GET",
        url(random, &[("board", nine)]),
        words(&["unknown parameter", "board", "count"]),
    ));
    // GET stats: goal, size.
    for goal in bad_goals {
        cases.push((
            "GET",
            url("/api/v1/stats", &[("goal", goal)]),
            words(&["goal"]),
        ));
    }
    for size in bad_sizes {
        cases.push((
            "GET",
            url("/api/v1/stats", &[("size", size)]),
            words(&["size"]),
        ));
    }
    cases.push((
        "GET",
        url("/api/v1/stats", &[("board", nine)]),
        words(&["unknown parameter", "board", "goal, size and metric"]),
    ));
    // GET sizes takes only the metric; openapi.json none.
    cases.push((
        "GET",
        url("/api/v1/sizes", &[("size", "3x3")]),
        words(&["unknown parameter", "size", "takes metric"]),
    ));
    cases.push((
        "GET",
        url("/api/v1/openapi.json", &[("size", "3x3")]),
        words(&["unknown parameter", "size", "no parameters"]),
    ));
    // Every route that answers a distance: a bad metric.
    for route in [
        "/api/v1/solve?board=1+2+3+4+5+6+7+8+0&",
        "/api/v1/probe?board=1+2+3+4+5+6+7+8+0&",
        "/api/v1/count?board=1+2+3+4+5+6+7+8+0&",
        "/api/v1/random?",
        "/api/v1/stats?",
        "/api/v1/sizes?",
    ] {
        cases.push((
            "GET",
            format!("{route}metric=diagonal"),
            words(&["bad metric", "diagonal", "single", "multi"]),
        ));
    }
    for route in ["/api/v1/solve", "/api/v1/probe"] {
        cases.push((
            "POST",
            format!("{route}?metric=2"),
            words(&["bad metric", "single", "multi"]),
        ));
    }
    // POST solve and probe: goal, size (the boards are the body).
    for route in ["/api/v1/solve", "/api/v1/probe"] {
        for goal in bad_goals {
            cases.push(("POST", url(route, &[("goal", goal)]), words(&["goal"])));
        }
        for size in bad_sizes {
            cases.push(("POST", url(route, &[("size", size)]), words(&["size"])));
        }
        cases.push((
            "POST",
            url(route, &[("board", nine)]),
            words(&["unknown parameter", "board", "goal, size and metric"]),
        ));
        cases.push((
            "POST",
            format!("{route}?size=3x3&size=3x3"),
            words(&["size", "more than once"]),
        ));
    }
    for (method, target, words) in &cases {
        let body = (*method == "POST").then_some(nine.as_bytes());
        let response = request(server.addr, method, target, &[], body, REQUEST_DEADLINE);
        let message = response.error(400);
        for word in words {
            assert!(
                message.contains(word.as_str()),
                "{method} {target}: {word:?} not in {message:?}"
            );
        }
        for parser in PARSER_WORDS {
            assert!(
                !message.contains(parser),
                "{method} {target}: a parser's words ({parser:?}) in {message:?}"
            );
        }
        assert!(
            !message.contains("--"),
            "{method} {target}: an option named in {message:?}"
        );
        assert!(message.len() < 400, "{method} {target}: {message:?}");
    }
    // The largest seed is a seed, and the largest count a count.
    let drawn = ok_ndjson(&server.get(&url(
        random,
        &[("seed", "18446744073709551615"), ("count", "1000")],
    )));
    assert_eq!(drawn.len(), 1000);
    server.stop();
}

// ---- 4. The time budget ----

#[test]
fn searches_past_the_budget_are_503_while_lookups_stay_fast() {
    let server = Server::start(&["--max-search", "100ms", "--search-threads", "1"]);
    let addr = server.addr;
    // A 4x4 board one move away is still answered (IDA* with Manhattan).
    let easy = ok_json(&server.get(&url(
        "/api/v1/solve",
        &[
            ("size", "4x4"),
            ("board", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"),
        ],
    )));
    assert_eq!(easy["moves"], "r");
    // Three hard searches at once, on one search thread.
    let searches: Vec<_> = [KORF_1, KORF_2, KORF_3]
        .into_iter()
        .map(|board| {
            let target = url(
                "/api/v1/solve",
                &[("size", "4x4"), ("goal", KORF_GOAL), ("board", board)],
            );
            thread::spawn(move || {
                let started = Instant::now();
                let response = request(addr, "GET", &target, &[], None, REQUEST_DEADLINE);
                (response, started.elapsed())
            })
        })
        .collect();
    // Meanwhile, table lookups answer at once.
    let mut lookups = 0;
    while lookups < 10 || searches.iter().any(|s| !s.is_finished()) {
        let started = Instant::now();
        let probed = ok_json(&server.get(&url("/api/v1/probe", &[("board", "2 3 4 1 5 x 7 6 8")])));
        let took = started.elapsed();
        assert!(took < Duration::from_secs(1), "a 3x3 probe took {took:?}");
        assert_eq!(probed["distance"], 19);
        lookups += 1;
        assert!(lookups < 10_000, "the searches never ended");
    }
    for search in searches {
        let (response, took) = search.join().expect("a search thread");
        let message = response.error(503);
        // What the client can act on; the option is the operator's.
        assert!(
            message.contains("longer than this server allows") || message.contains("stayed busy"),
            "{message}"
        );
        // With no pattern databases, trying again cannot help: the
        // answer says why (and names no file or command).
        if message.contains("longer than this server allows") {
            assert!(
                message.contains("no pattern databases for 4x4 goal 0 1 2 3")
                    && message.contains("may be too hard for it"),
                "{message}"
            );
            assert!(!message.contains("try again"), "{message}");
        }
        assert!(!message.contains("--"), "{message}");
        assert!(!message.contains("slidedb-gen"), "{message}");
        assert!(
            !message.contains(server.data().to_str().unwrap()),
            "{message}"
        );
        assert!(took < Duration::from_secs(5), "the 503 took {took:?}");
    }
    // In a batch, a search past the budget is that line's error, and the
    // budget is the batch's together: 20 hard boards take one budget
    // (100 ms), not twenty (2 s); the lines after the first are not tried.
    let body = format!("{KORF_1}\n{KORF_2}\n").repeat(10);
    let started = Instant::now();
    let answer = ok_ndjson(&server.post(
        &url("/api/v1/solve", &[("goal", KORF_GOAL)]),
        body.as_bytes(),
    ));
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(answer.len(), 20);
    for (i, line) in answer.iter().enumerate() {
        assert_eq!(line["line"], i + 1);
        let error = line["error"].as_str().unwrap_or_else(|| panic!("{line}"));
        if i == 0 {
            assert!(error.contains("longer than this server allows"), "{error}");
            assert!(error.contains("no pattern databases for 4x4"), "{error}");
            assert!(!error.contains("try again"), "{error}");
        } else {
            assert!(error.starts_with("not tried"), "line {}: {error}", i + 1);
        }
    }
    server.stop();
}

// ---- 5. Slow clients ----

/// Waits until the server closes `stream` (a read gives 0 or fails):
/// the time it took, and what it sent before.
fn wait_closed(stream: &mut TcpStream, limit: Duration) -> (Duration, Vec<u8>) {
    let started = Instant::now();
    let (got, _error, timed_out) = read_until_closed(stream, started + limit);
    assert!(
        !timed_out,
        "the server kept a slow connection open for over {limit:?}; it sent {:?}",
        String::from_utf8_lossy(&got)
    );
    (started.elapsed(), got)
}

#[test]
fn slow_clients_are_cut_off_and_others_still_served() {
    let server = Server::start(&["--client-timeout", "500ms"]);
    let partials: [&[u8]; 3] = [
        b"",
        b"GET /hea",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ",
    ];
    let opened = Instant::now();
    let mut streams: Vec<TcpStream> = partials
        .iter()
        .map(|partial| {
            let mut stream = TcpStream::connect(server.addr).expect("connect");
            stream.write_all(partial).expect("send a part");
            stream
        })
        .collect();
    // Others are served meanwhile.
    for _ in 0..5 {
        let started = Instant::now();
        let health = server.get("/healthz");
        assert_eq!((health.status, health.text().trim()), (200, "ok"));
        assert!(started.elapsed() < Duration::from_secs(1));
    }
    for (stream, partial) in streams.iter_mut().zip(partials) {
        let (_, got) = wait_closed(stream, Duration::from_secs(5));
        let took = opened.elapsed();
        assert!(
            took >= Duration::from_millis(400),
            "{:?} closed after {took:?}, before the client timeout",
            String::from_utf8_lossy(partial)
        );
        assert!(
            got.is_empty() || parse_response(&got).is_ok_and(|r| r.status == 408),
            "sent {:?}, got {:?}",
            String::from_utf8_lossy(partial),
            String::from_utf8_lossy(&got)
        );
    }
    assert_eq!(server.get("/healthz").status, 200);
    server.stop();
}

#[test]
fn slow_request_body_is_408_or_closed() {
    let server = Server::start(&["--client-timeout", "500ms"]);
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    stream
        .write_all(
            b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n1 2 3 4 5 6 7 8 0\n",
        )
        .expect("send a part");
    // Served meanwhile.
    let started = Instant::now();
    assert_eq!(server.get("/healthz").status, 200);
    assert!(started.elapsed() < Duration::from_secs(1));
    let (took, got) = wait_closed(&mut stream, Duration::from_secs(5));
    assert!(took < Duration::from_secs(5));
    if !got.is_empty() {
        let response = parse_response(&got)
            .unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&got)));
        let message = response.error(408);
        // The server's limit in numbers; its option is the operator's.
        assert!(message.contains("500 ms"), "{message}");
        assert!(!message.contains("--"), "{message}");
    }
    assert_eq!(server.get("/healthz").status, 200);
    server.stop();
}

/// A body sent a byte at a time, each byte well within the client
/// timeout of the last, is still cut off once the whole body has taken
/// longer than the timeout: 408, long before the last byte.
#[test]
fn a_body_sent_a_byte_at_a_time_is_408_at_the_timeout() {
    let server = Server::start(&["--client-timeout", "1000ms"]);
    let body = b"2 3 4 1 5 x 7 6 8\n8 6 7 2 5 4 3 0 1\n";
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    let head = format!(
        "POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("send the head");
    let started = Instant::now();
    let mut writing = stream.try_clone().expect("clone the stream");
    // A byte every 200 ms: the whole body would take 7 s.
    let drip = thread::spawn(move || {
        for byte in body {
            if writing.write_all(&[*byte]).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(200));
        }
    });
    let (got, _, timed_out) = read_until_closed(&mut stream, started + Duration::from_secs(15));
    let took = started.elapsed();
    assert!(!timed_out, "no answer within 15 s");
    let response =
        parse_response(&got).unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&got)));
    let message = response.error(408);
    assert!(message.contains("1000 ms"), "{message}");
    assert!(
        took < Duration::from_secs(4),
        "the 408 came after {took:?}, as the body dripped"
    );
    let _ = stream.shutdown(Shutdown::Both);
    drip.join().expect("the drip thread");
    assert_eq!(server.get("/healthz").status, 200);
    server.stop();
}

/// A slow-loris flood: hundreds of connections sending their headers a
/// byte at a time. Ordinary probes still answer, each within a second,
/// while the flood lasts, and the server cuts every slow connection off
/// once its client timeout passes. Loopback only; the flood stops by
/// itself (at 10 s at the latest), and so do the probes.
#[test]
fn a_slow_loris_flood_does_not_starve_probes() {
    const SLOW: usize = 300;
    const TIMEOUT_MS: u64 = 2000;
    /// A byte from each slow connection every this long.
    const DRIP: Duration = Duration::from_millis(20);
    let server = Server::start(&["--client-timeout", &format!("{TIMEOUT_MS}ms")]);
    let addr = server.addr;
    let probe = url("/api/v1/probe", &[("board", "2 3 4 1 5 x 7 6 8")]);
    // The table is opened (built) before the flood.
    assert_eq!(ok_json(&server.get(&probe))["distance"], 19);
    // Headers that never end within the timeout at a byte a DRIP.
    let head = format!(
        "GET /api/v1/probe?board=123456780 HTTP/1.1\r\nHost: x\r\nX-Slow: {}\r\n\r\n",
        "s".repeat(200)
    )
    .into_bytes();
    let head_length = head.len();
    let (opened, ready) = mpsc::channel::<()>();
    let flood = thread::spawn(move || {
        let started = Instant::now();
        let mut slow: Vec<(TcpStream, usize, Option<Duration>)> = (0..SLOW)
            .map(|_| {
                let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
                    .expect("connect a slow client");
                stream.set_nonblocking(true).expect("nonblocking");
                (stream, 0, None)
            })
            .collect();
        let _ = opened.send(());
        let mut buf = [0u8; 1024];
        while started.elapsed() < Duration::from_secs(10)
            && slow.iter().any(|(_, _, cut)| cut.is_none())
        {
            for (stream, sent, cut) in slow.iter_mut().filter(|s| s.2.is_none()) {
                // Cut off: the server closed it, or answered (408).
                let closed = match stream.read(&mut buf) {
                    Ok(_) => true,
                    Err(e) => e.kind() != ErrorKind::WouldBlock,
                };
                let failed = !closed
                    && *sent < head.len()
                    && match stream.write(&head[*sent..*sent + 1]) {
                        Ok(n) => {
                            *sent += n;
                            false
                        }
                        Err(e) => e.kind() != ErrorKind::WouldBlock,
                    };
                if closed || failed {
                    *cut = Some(started.elapsed());
                }
            }
            thread::sleep(DRIP);
        }
        slow.into_iter()
            .map(|(_, sent, cut)| (sent, cut))
            .collect::<Vec<_>>()
    });
    ready
        .recv_timeout(Duration::from_secs(30))
        .expect("the slow clients connected");
    // Probes while the flood lasts (its first second and a half at least,
    // before any slow client can be cut off), each within a second.
    let flood_began = Instant::now();
    let mut probes = 0;
    while probes < 10 || flood_began.elapsed() < Duration::from_millis(1500) {
        let started = Instant::now();
        let response = request(addr, "GET", &probe, &[], None, Duration::from_secs(5));
        let took = started.elapsed();
        assert_eq!(ok_json(&response)["distance"], 19);
        assert!(
            took < Duration::from_secs(1),
            "a probe took {took:?} during a flood of {SLOW} slow clients"
        );
        probes += 1;
        assert!(probes < 10_000, "probes never stopped");
        thread::sleep(Duration::from_millis(20));
    }
    // The flood ends once the server cut every slow client off.
    let cut = flood.join().expect("the flood thread");
    let slowest = cut.iter().filter_map(|(_, c)| *c).max();
    for (i, (sent, when)) in cut.iter().enumerate() {
        let when = when.unwrap_or_else(|| {
            panic!("slow client {i} ({sent} bytes sent) was never cut off within 10 s")
        });
        assert!(
            *sent < head_length,
            "slow client {i} sent its whole head before it was cut off"
        );
        assert!(
            when >= Duration::from_millis(TIMEOUT_MS - 100),
            "slow client {i} cut off after {when:?}, before the timeout"
        );
    }
    assert!(
        slowest.is_some_and(|s| s < Duration::from_secs(10)),
        "{slowest:?}"
    );
    assert_eq!(ok_json(&server.get(&probe))["distance"], 19);
    server.stop();
}

// ---- 6. Concurrency ----

#[test]
fn concurrent_requests_get_their_own_answers() {
    const THREADS: usize = 8;
    const EACH: usize = 50;
    let server = Server::start(&[]);
    let data = server.data().to_path_buf();
    let count = (THREADS * EACH).to_string();
    let (code, boards, err) = exe::run(&["random", "--count", &count, "--seed", "42"], None, &data);
    assert_eq!(code, 0, "{err}");
    let boards: Vec<String> = boards.lines().map(str::to_string).collect();
    assert_eq!(boards.len(), THREADS * EACH);
    let input = format!("{}\n", boards.join("\n"));
    let solves = cli_json(&data, &["solve", "--json"], Some(input.as_bytes()), &[0]);
    let probes = cli_json(&data, &["probe", "--json"], Some(input.as_bytes()), &[0]);
    assert_eq!((solves.len(), probes.len()), (boards.len(), boards.len()));
    let reference = Arc::new((boards, solves, probes));
    let addr = server.addr;
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let reference = reference.clone();
            thread::spawn(move || {
                let (boards, solves, probes) = &*reference;
                for k in 0..EACH {
                    let i = t * EACH + k;
                    let probe = i.is_multiple_of(2);
                    let path = if probe {
                        "/api/v1/probe"
                    } else {
                        "/api/v1/solve"
                    };
                    let target = url(path, &[("board", &boards[i])]);
                    let response = request(addr, "GET", &target, &[], None, REQUEST_DEADLINE);
                    let got = ok_json(&response);
                    let want = if probe { &probes[i] } else { &solves[i] };
                    assert_eq!(&got, want, "thread {t}, request {k}: {target}");
                    if !probe {
                        let moves = got["moves"].as_str().expect("moves");
                        assert_eq!(
                            exe::apply(&exe::cells(&boards[i]), 3, moves),
                            exe::cells("1 2 3 4 5 6 7 8 0")
                        );
                        assert_eq!(got["distance"], probes[i]["distance"]);
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("a client thread failed");
    }
    server.stop();
}

// ---- 7. Graceful shutdown ----

/// SIGTERM closes the listener and lets the request in flight finish. The
/// request in flight is one whose body is still being sent when the
/// signal lands: the server has answered `100 Continue` (its handler
/// waits for the body), and the rest is sent only once new connections
/// are refused, so the server cannot have finished it before the signal,
/// however fast or loaded the machine.
#[test]
fn sigterm_lets_the_request_in_flight_finish_then_exits_0() {
    a_stop_signal_lets_the_request_in_flight_finish("TERM");
}

/// SIGHUP (the terminal closing) stops the server as SIGTERM does: the
/// request in flight finishes, the server exits 0, and nothing is left
/// behind (no listener, no temporary file in the data folder).
#[test]
fn sighup_stops_the_server_as_sigterm_does() {
    a_stop_signal_lets_the_request_in_flight_finish("HUP");
}

/// The signal `name` closes the listener and lets the request in flight
/// finish (see above); the server then exits 0, having written the table
/// its request built whole, and no temporary file.
fn a_stop_signal_lets_the_request_in_flight_finish(name: &str) {
    let mut server = Server::start(&[]);
    let addr = server.addr;
    // An idle keep-alive connection must not hold the server up.
    let mut idle = TcpStream::connect(addr).expect("connect");
    let body = "2 3 4 1 5 x 7 6 8\n8 6 7 2 5 4 3 0 1\n";
    let (first, rest) = body.split_at(20);
    let mut slow = TcpStream::connect(addr).expect("connect");
    slow.set_read_timeout(Some(REQUEST_DEADLINE))
        .expect("set a read timeout");
    let head = format!(
        "POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    slow.write_all(head.as_bytes()).expect("send the head");
    // The handler has begun and waits for the body.
    let mut interim = Vec::new();
    let mut byte = [0u8; 1];
    while !interim.ends_with(b"\r\n\r\n") {
        let n = slow.read(&mut byte).expect("read 100 Continue");
        assert_eq!(n, 1, "closed after {:?}", String::from_utf8_lossy(&interim));
        interim.push(byte[0]);
    }
    assert!(
        interim.starts_with(b"HTTP/1.1 100"),
        "{:?}",
        String::from_utf8_lossy(&interim)
    );
    slow.write_all(first.as_bytes())
        .expect("send part of the body");
    server.signal(name);
    // New connections are refused while the request is still in flight
    // (the deadline only keeps a broken server from hanging the test).
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_ok() {
        assert!(
            Instant::now() < deadline,
            "still accepting connections 20 s after SIGTERM"
        );
        thread::sleep(Duration::from_millis(20));
    }
    // The rest of the body: the request is answered in full.
    if let Err(e) = slow.write_all(rest.as_bytes()) {
        thread::sleep(Duration::from_millis(200));
        panic!(
            "cannot send the rest of the body ({e}); the server: {:?}, its stderr:\n{}",
            server.child.try_wait(),
            server.log()
        );
    }
    let (got, error, timed_out) = read_until_closed(&mut slow, Instant::now() + REQUEST_DEADLINE);
    let response = parse_response(&got).unwrap_or_else(|e| {
        panic!(
            "no complete answer ({e}; timed out: {timed_out}, error: {error:?}); got {:?}; the server's stderr:\n{}",
            String::from_utf8_lossy(&got),
            server.log()
        )
    });
    let answer = ok_ndjson(&response);
    assert_eq!(answer.len(), 2, "{answer:?}");
    assert_eq!(answer[0]["moves"], "ullddrurdllurdruldr");
    assert_eq!(answer[1]["distance"], 31);
    let status = server.wait_exit(Duration::from_secs(20));
    assert_eq!(status.code(), Some(0), "stderr:\n{}", server.log());
    let (_, got) = wait_closed(&mut idle, Duration::from_secs(5));
    assert!(got.is_empty(), "{:?}", String::from_utf8_lossy(&got));
    assert!(TcpStream::connect(addr).is_err(), "connected after exit");
    thread::sleep(Duration::from_millis(50));
    let log = server.log();
    assert!(log.contains(&format!("SIG{name}: stopping")), "{log}");
    assert!(!log.contains("panicked"), "{log}");
    // The 3x3 table the request built, whole, and nothing half written.
    let mut files: Vec<String> = std::fs::read_dir(server.data())
        .expect("read the data folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    assert!(
        files.iter().all(|f| !f.ends_with(".tmp")),
        "left behind: {files:?}"
    );
    assert!(
        files.iter().any(|f| f.starts_with("3x3")),
        "no 3x3 table in {files:?}"
    );
}

/// A line of a size the folder has no table for is that line's error; the
/// other lines are answered (as `solve` does on the command line).
#[test]
fn a_batch_line_without_a_table_is_its_own_error() {
    let server = Server::start(&[]);
    let body = "2 3 4 1 5 x 7 6 8\n1 2 3 4/5 6 7 8/9 10 0 11\n";
    let answer = ok_ndjson(&server.post("/api/v1/probe", body.as_bytes()));
    assert_eq!(answer.len(), 2, "{answer:?}");
    assert_eq!(answer[0]["distance"], 19);
    assert_eq!(answer[1]["line"], 2);
    let error = answer[1]["error"].as_str().unwrap();
    assert!(error.contains("3x4"), "{error}");
    // A wrong method is a JSON error too.
    let r = request(
        server.addr,
        "DELETE",
        "/api/v1/solve",
        &[],
        None,
        Duration::from_secs(10),
    );
    assert_eq!(r.status, 405, "{}", r.text());
    assert!(r.text().contains("\"error\""), "{}", r.text());
    server.stop();
}

/// Pattern databases built while the server runs are used without a
/// restart: a 3x4 board with neither table nor databases is an error until
/// `slidedb-gen` writes the databases into the server's data folder.
#[test]
fn databases_built_after_the_server_started_are_used() {
    let server = Server::start(&[]);
    let target = url("/api/v1/solve", &[("board", "1 2 3 4/5 6 7 8/9 10 0 11")]);
    let before = server.get(&target);
    assert!(before.status >= 400, "{}", before.text());
    assert!(before.text().contains("3x4"), "{}", before.text());
    let (code, _, stderr) = run_gen(&["--size", "3x4", "--pdb", "6-5"], server.data());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answered_once_found(&server, &target)["moves"], "r");
    server.stop();
}

/// The answer to `target` once the server finds the databases just written
/// to its folder: at once where the folder's modification time is fine,
/// within seconds where it is coarse (10 s at most).
fn answered_once_found(server: &Server, target: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let after = server.get(target);
        if after.status == 200 {
            return after.json();
        }
        assert!(Instant::now() < deadline, "{}", after.text());
        thread::sleep(Duration::from_millis(100));
    }
}

/// The server takes the goal and size with each request: `--goal` and
/// `--size` given to `serve` are refused, not ignored.
#[test]
fn serve_refuses_goal_and_size() {
    let data = exe::tempdir();
    for args in [["--goal", "0 1 2 3 4 5 6 7 8"], ["--size", "2x3"]] {
        let mut all = vec!["serve", "--listen", "127.0.0.1:0"];
        all.extend(args);
        let (code, _, err) = exe::run(&all, None, data.path());
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("with each request"), "{err}");
    }
}

// ---- 8. The edges of a request (issue 23) ----

/// A batch line is read as the command line reads a line of stdin: a line
/// that is not UTF-8, one with a NUL byte and one over 64 KiB are each
/// that line's error (the over-long one echoed shortened, as `solve`
/// echoes it), and the other lines are answered; the answer is the
/// command line's, line for line.
#[test]
fn a_batch_reads_each_line_as_the_command_line_does() {
    let server = Server::start(&[]);
    let data = server.data().to_path_buf();
    let mut body: Vec<u8> = b"2 3 4 1 5 x 7 6 8\n1 2 3 \xff\xfe 4 5 6 7 8 0\n".to_vec();
    let long = "1 ".repeat(35_000); // 70 KB
    body.extend_from_slice(long.as_bytes());
    body.extend_from_slice(b"\n1 2 3 4 5 6 7 \x00 8\n8 6 7 2 5 4 3 0 1\r\n");
    for command in ["solve", "probe"] {
        let answer = ok_ndjson(&server.post(&format!("/api/v1/{command}"), &body));
        let cli = cli_json(&data, &[command, "--json"], Some(&body), &[2]);
        assert_eq!(answer, cli, "{command}");
        assert_eq!(answer.len(), 5);
        assert_eq!(answer[0]["distance"], 19);
        assert!(answer[1]["error"].as_str().unwrap().contains("UTF-8"));
        let echoed = answer[2]["input"].as_str().unwrap();
        assert!(echoed.len() < 100, "a {} byte echo", echoed.len());
        assert!(answer[2]["error"].as_str().unwrap().contains("longer than"));
        assert!(answer[3]["error"].as_str().unwrap().contains("NUL"));
        assert_eq!(answer[4]["distance"], 31);
    }
    server.stop();
}

/// The searches of a batch share the request's budget: the line searched
/// when it runs out took too long, and the search lines after it say they
/// were not tried, so that a client knows to send them again.
#[test]
fn a_batch_says_which_lines_its_spent_budget_left_untried() {
    let server = Server::start(&["--max-search", "300ms", "--search-threads", "1"]);
    // One move from Korf's goal, then three boards far too hard for IDA*
    // with Manhattan distance within 300 ms.
    let easy = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let body = format!("{easy}\n{KORF_1}\n{KORF_2}\n{KORF_3}\n");
    let answer = ok_ndjson(&server.post(
        &url("/api/v1/solve", &[("goal", KORF_GOAL)]),
        body.as_bytes(),
    ));
    assert_eq!(answer.len(), 4, "{answer:?}");
    assert_eq!(answer[0]["moves"], "l");
    let error = |i: usize| {
        answer[i]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{}", answer[i]))
    };
    assert!(
        error(1).contains("took longer than this server allows"),
        "{}",
        error(1)
    );
    for i in [2, 3] {
        assert_eq!(answer[i]["line"], i + 1);
        assert!(
            error(i).starts_with("not tried"),
            "line {}: {}",
            i + 1,
            error(i)
        );
        assert!(error(i).contains("300 ms"), "{}", error(i));
    }
    server.stop();
}

/// A batch that waits for a search thread behind others keeps what it
/// can answer: with one search thread and a budget of 1 s, a search and a
/// batch hold the thread in turn, and a second batch, begun after them,
/// gets 200 with its table lookups answered and each 4x4 line answered,
/// past the budget, or "not tried"; never a 503 that loses its answered
/// lines.
#[test]
fn a_batch_waiting_for_a_search_thread_keeps_its_answered_lines() {
    let server = Server::start(&["--max-search", "1000ms", "--search-threads", "1"]);
    let addr = server.addr;
    let easy = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    let hard = "15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0";
    // The 3x3 table and the 4x4 engine are ready before the clock starts.
    let warm = ok_ndjson(&server.post(
        "/api/v1/solve",
        format!("{easy}\n2 3 4 1 5 x 7 6 8\n").as_bytes(),
    ));
    assert_eq!(
        (warm[0]["moves"].as_str(), warm[1]["distance"].as_u64()),
        (Some("r"), Some(19))
    );
    let korf = url(
        "/api/v1/solve",
        &[("size", "4x4"), ("goal", KORF_GOAL), ("board", KORF_1)],
    );
    let first = thread::spawn(move || request(addr, "GET", &korf, &[], None, REQUEST_DEADLINE));
    thread::sleep(Duration::from_millis(200));
    let second = thread::spawn(move || {
        let target = url("/api/v1/solve", &[("goal", KORF_GOAL)]);
        let body = format!("{KORF_1}\n");
        request(
            addr,
            "POST",
            &target,
            &[],
            Some(body.as_bytes()),
            REQUEST_DEADLINE,
        )
    });
    thread::sleep(Duration::from_millis(200));
    let body = format!("2 3 4 1 5 x 7 6 8\n{easy}\n{hard}\n8 6 7 2 5 4 3 0 1\n{easy}\n");
    let started = Instant::now();
    let answer = ok_ndjson(&server.post("/api/v1/solve", body.as_bytes()));
    let took = started.elapsed();
    assert_eq!(answer.len(), 5, "{answer:?}");
    assert_eq!(answer[0]["distance"], 19, "{}", answer[0]);
    assert_eq!(answer[3]["distance"], 31, "{}", answer[3]);
    let mut given_up = false;
    for i in [1, 2, 4] {
        let line = &answer[i];
        match line["error"].as_str() {
            None => {
                assert!(
                    !given_up,
                    "line {} answered after a line given up: {answer:?}",
                    i + 1
                );
                assert_eq!(line["moves"], "r", "line {}: {line}", i + 1);
            }
            Some(error) => {
                assert_eq!(line["line"], i + 1);
                assert!(
                    error.starts_with("not tried")
                        || (!given_up && error.contains("longer than this server allows")),
                    "line {}: {error}",
                    i + 1
                );
                given_up = true;
            }
        }
    }
    assert!(
        answer[2]["error"].is_string(),
        "the hard board was answered: {}",
        answer[2]
    );
    // Within its budget (1 s from its start) and a margin for a loaded
    // machine.
    assert!(took < Duration::from_secs(5), "the batch took {took:?}");
    first.join().expect("the first search").error(503);
    let second = ok_ndjson(&second.join().expect("the second batch"));
    assert!(second[0]["error"].is_string(), "{second:?}");
    server.stop();
}

/// A body declared larger than the limit is refused at once with 413,
/// before any of it is sent (not a wait for the body ending in 408).
#[test]
fn a_body_declared_over_the_limit_is_413_at_once() {
    let server = Server::start(&["--client-timeout", "3000ms"]);
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    stream
        .write_all(b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\nConnection: close\r\n\r\n")
        .expect("send the head");
    let (got, error, timed_out) = read_until_closed(&mut stream, Instant::now() + REQUEST_DEADLINE);
    let response = parse_response(&got).unwrap_or_else(|e| {
        panic!(
            "{e} (timed out: {timed_out}, error: {error:?}): {:?}",
            String::from_utf8_lossy(&got)
        )
    });
    let message = response.error(413);
    assert!(message.contains("larger than"), "{message}");
    assert_eq!(server.get("/healthz").status, 200);
    server.stop();
}

/// A URL over hyper's limit is refused with 414 and the JSON body every
/// refusal has; so is a request that is not HTTP.
#[test]
fn a_url_over_the_limit_is_414_json() {
    let server = Server::start(&[]);
    let target = format!("/api/v1/solve?board={}", "1".repeat(70_000));
    let message = server.get(&target).error(414);
    assert!(message.contains("URL"), "{message}");
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    stream.write_all(b"NOT HTTP\r\n\r\n").expect("send");
    let (got, _, _) = read_until_closed(&mut stream, Instant::now() + REQUEST_DEADLINE);
    let response =
        parse_response(&got).unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&got)));
    response.error(400);
    assert_eq!(server.get("/healthz").status, 200);
    server.stop();
}

/// A client is told what it can act on: no table for this size on this
/// server; the file and the command that builds it are the operator's,
/// and go to the server's log.
#[test]
fn error_bodies_name_no_file_or_command_and_the_log_does() {
    let server = Server::start(&[]);
    let folder = exe::path_str(server.data()).to_string();
    let board = "1 2 3 4/5 6 7 8/9 10 0 11";
    let message = server
        .get(&url("/api/v1/solve", &[("board", board)]))
        .error(404);
    assert!(message.contains("no table for 3x4"), "{message}");
    let batch = ok_ndjson(&server.post("/api/v1/probe", format!("{board}\n").as_bytes()));
    let line = batch[0]["error"]
        .as_str()
        .expect("an error line")
        .to_string();
    // A damaged table: 500, and nothing of the file either.
    std::fs::write(server.data().join("2x2-1-2-3-0.slidedb"), b"not a table").unwrap();
    let damaged = server.get(&url("/api/v1/solve", &[("board", "1 2 0 3")]));
    let damage = damaged.error(500);
    for told in [&message, &line, &damage] {
        for secret in [folder.as_str(), "slidedb-gen", ".slidedb", "--data"] {
            assert!(
                !told.contains(secret),
                "{secret:?} told to a client: {told}"
            );
        }
    }
    thread::sleep(Duration::from_millis(100));
    let log = server.log();
    assert!(log.contains("slidedb-gen --size 3x4"), "{log}");
    assert!(log.contains(&folder), "{log}");
    assert!(log.contains("2x2-1-2-3-0.slidedb"), "{log}");
    server.stop();
}

/// `serve --table FILE` answers toward the file's goal by default, and
/// says so: `/api/v1/sizes` gives each size's default goal (the page shows
/// it); a goal it cannot serve is refused without naming the file.
#[test]
fn serve_with_a_table_file_says_its_default_goal() {
    let dir = exe::tempdir();
    let file = dir.path().join("korf.slidedb");
    let file = exe::path_str(&file).to_string();
    let (code, _, err) = exe::run_gen(&["--goal", "0 1 2 3 4 5 6 7 8", "--out", &file], dir.path());
    assert_eq!(code, 0, "{err}");
    let server = Server::start(&["--table", &file]);
    let sizes = ok_json(&server.get("/api/v1/sizes"));
    // The table's size from it; no other table or databases (the named
    // table is the only one); 15 and 16 cells by IDA* without databases.
    let sizes = sizes.as_array().expect("a list of sizes");
    assert_eq!(
        sizes
            .iter()
            .filter(|s| s["exact"] != "search")
            .collect::<Vec<_>>(),
        [&serde_json::json!({"size": "3x3", "exact": "table", "goal": "0 1 2 3 4 5 6 7 8"})]
    );
    let searched: Vec<&str> = sizes
        .iter()
        .filter_map(|s| s["size"].as_str())
        .filter(|s| *s != "3x3")
        .collect();
    assert_eq!(searched, ["3x5", "5x3", "2x8", "8x2", "4x4"]);
    let solved = ok_json(&server.get(&url("/api/v1/solve", &[("board", "724506831")])));
    assert_eq!(
        (solved["goal"].as_str(), solved["distance"].as_u64()),
        (Some("0 1 2 3 4 5 6 7 8"), Some(26))
    );
    let message = server
        .get(&url(
            "/api/v1/solve",
            &[
                ("board", "1 2 3 4 5 6 7 0 8"),
                ("goal", "1 2 3 4 0 5 6 7 8"),
            ],
        ))
        .error(404);
    assert!(
        message.contains("no table for 3x3 goal 1 2 3 4 0 5 6 7 8"),
        "{message}"
    );
    assert!(
        !message.contains(&file) && !message.contains("korf"),
        "{message}"
    );
    server.stop();
}

/// `--listen` takes a host name, and serves every address it resolves to
/// (here at least 127.0.0.1).
#[test]
fn listen_takes_a_host_name() {
    let server = Server::start_on("localhost:0", &[]);
    assert!(server.addr.ip().is_loopback(), "{}", server.addr);
    let health = server.get("/healthz");
    assert_eq!((health.status, health.text().trim()), (200, "ok"));
    let line = server.log();
    assert!(line.contains("serving on http://"), "{line}");
    server.stop();
    // A name without a port says how to write it.
    let data = exe::tempdir();
    let (code, _, err) = exe::run(&["serve", "--listen", "localhost"], None, data.path());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("HOST:PORT"), "{err}");
}

/// An address already taken is one error, said once: exit 2.
#[test]
fn an_address_in_use_is_one_error_said_once() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = taken.local_addr().expect("addr").to_string();
    let data = exe::tempdir();
    let (code, out, err) = exe::run(&["serve", "--listen", &addr], None, data.path());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("slidedb: error: cannot listen on {addr}: ")),
        "{err}"
    );
    assert_eq!(err.matches("in use").count(), 1, "{err}");
}

// ---- 9. The request log (issue 24) ----

/// Waits (up to 10 s) for the server's stderr to have a line holding
/// `needle`, and returns that line.
fn wait_log_line(server: &Server, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let log = server.log();
        if let Some(line) = log.lines().find(|l| l.contains(needle)) {
            return line.to_string();
        }
        if Instant::now() >= deadline {
            panic!("no line with {needle:?} in the log:\n{log}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// A request's line: `slidedb: METHOD TARGET STATUS TIME ms`.
fn log_fields(line: &str) -> (String, String, u16) {
    let fields: Vec<&str> = line.split(' ').collect();
    assert_eq!(fields.len(), 6, "{line:?}");
    assert_eq!((fields[0], fields[5]), ("slidedb:", "ms"), "{line:?}");
    let ms: f64 = fields[4]
        .parse()
        .unwrap_or_else(|_| panic!("no time in {line:?}"));
    assert!((0.0..60_000.0).contains(&ms), "{line:?}");
    let status = fields[3]
        .parse()
        .unwrap_or_else(|_| panic!("no status in {line:?}"));
    (fields[1].to_string(), fields[2].to_string(), status)
}

/// `--log all` writes a line on stderr per request (method, path, status,
/// time taken; a long query cut short), a batch's once it is answered;
/// `--log errors` only those answered 400 or more; by default, none.
#[test]
fn the_request_log_writes_a_line_per_request_at_its_level() {
    let server = Server::start(&["--log", "all"]);
    assert_eq!(server.get("/healthz").status, 200);
    let line = wait_log_line(&server, " /healthz ");
    assert_eq!(
        log_fields(&line),
        ("GET".into(), "/healthz".into(), 200),
        "{line}"
    );
    let probe = url("/api/v1/probe", &[("board", "724506831")]);
    ok_json(&server.get(&probe));
    let line = wait_log_line(&server, " /api/v1/probe?");
    assert_eq!(log_fields(&line), ("GET".into(), probe, 200), "{line}");
    ok_ndjson(&server.post("/api/v1/solve", b"2 3 4 1 5 x 7 6 8\n"));
    let line = wait_log_line(&server, "POST /api/v1/solve ");
    assert_eq!(log_fields(&line).2, 200, "{line}");
    // A long query is cut: the log does not echo a client's boards whole.
    let long = format!("/api/v1/solve?board={}", "1".repeat(5000));
    server.get(&long).error(400);
    let line = wait_log_line(&server, " /api/v1/solve?board=111");
    let (method, target, status) = log_fields(&line);
    assert_eq!((method.as_str(), status), ("GET", 400), "{line}");
    assert!(target.len() < 300, "a {} byte target: {line}", target.len());
    server.get("/nowhere").error(404);
    let line = wait_log_line(&server, " /nowhere ");
    assert_eq!(log_fields(&line).2, 404, "{line}");
    server.stop();

    // Errors only: the 404 is logged, the 200 before it is not.
    let server = Server::start(&["--log", "errors"]);
    assert_eq!(server.get("/healthz").status, 200);
    server.get("/nowhere").error(404);
    let line = wait_log_line(&server, " /nowhere ");
    assert_eq!(
        log_fields(&line),
        ("GET".into(), "/nowhere".into(), 404),
        "{line}"
    );
    let log = server.log();
    assert!(!log.contains("/healthz"), "{log}");
    server.stop();

    // By default: no line per request, error or not.
    let server = Server::start(&[]);
    assert_eq!(server.get("/healthz").status, 200);
    server.get("/nowhere").error(404);
    ok_json(&server.get(&url("/api/v1/probe", &[("board", "724506831")])));
    thread::sleep(Duration::from_millis(300));
    let log = server.log();
    for path in ["/healthz", "/nowhere", "/api/v1/probe"] {
        assert!(!log.contains(path), "{path} logged by default:\n{log}");
    }
    server.stop();
}

/// 5x5 boards through the server as 4x4 ones: refused (4xx, naming the
/// size) while there are no databases, answered once a small partition is
/// in the data folder, toward any goal of the class; a search past the
/// budget is 503 in about the budget, and the server answers on.
#[test]
fn five_by_five_boards_are_answered_through_pattern_databases() {
    let server = Server::start(&["--max-search", "300ms"]);
    let near = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24";
    let target = url("/api/v1/solve", &[("board", near)]);
    let before = server.get(&target);
    assert!((400..500).contains(&before.status), "{}", before.text());
    assert!(before.text().contains("5x5"), "{}", before.text());
    let (code, _, stderr) = run_gen(&["--size", "5x5", "--pdb", "4-4-4-4-4-4"], server.data());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answered_once_found(&server, &target)["moves"], "r");
    let korf: Vec<String> = (0..25).map(|t| t.to_string()).collect();
    let korf = korf.join(" ");
    let one_away = "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24";
    let probe = ok_json(&server.get(&url(
        "/api/v1/probe",
        &[("goal", korf.as_str()), ("board", one_away)],
    )));
    assert_eq!(probe["distance"], 1, "{probe}");
    // Korf and Felner's #38 (96 moves) is far past 300 ms with these.
    let hard = "10 3 24 12 0 7 8 11 14 21 22 23 2 1 9 17 18 6 20 4 13 15 5 19 16";
    let clock = Instant::now();
    let slow = server.get(&url(
        "/api/v1/solve",
        &[("goal", korf.as_str()), ("board", hard)],
    ));
    assert_eq!(slow.status, 503, "{}", slow.text());
    assert!(
        clock.elapsed() < Duration::from_secs(5),
        "{:?}",
        clock.elapsed()
    );
    assert_eq!(ok_json(&server.get(&target))["moves"], "r");
    server.stop();
}

/// `/api/v1/sizes` is the library's `Database::sizes()`, record for
/// record: every shape it answers, 2x7 and 5x5 among them once their files
/// are in the data folder (found by name: nothing is opened to list them).
#[test]
fn sizes_are_the_librarys_list_and_follow_the_data_folder() {
    let server = Server::start(&[]);
    let listed = |server: &Server| ok_json(&server.get("/api/v1/sizes"));
    let library = |dir: &std::path::Path| {
        let db = slidedb::Database::builder().data_dir(dir).open().unwrap();
        let sizes: Vec<_> = db
            .sizes()
            .unwrap()
            .iter()
            .map(slidedb::records::SizeRecord::new)
            .collect();
        serde_json::to_value(sizes).unwrap()
    };
    let before = listed(&server);
    assert_eq!(before, library(server.data.path()));
    let has = |sizes: &serde_json::Value, size: &str| {
        sizes
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["size"] == size)
            .map(|s| s["exact"].clone())
    };
    assert_eq!(has(&before, "3x3"), Some("table".into()));
    assert_eq!(has(&before, "4x4"), Some("search".into()));
    assert_eq!(has(&before, "2x7"), None);
    assert_eq!(has(&before, "5x5"), None);
    // The 2x7 table and 5x5 databases, by their names.
    let two_by_seven = slidedb::Board::solved("2x7".parse().unwrap());
    let five = slidedb::Board::solved("5x5".parse().unwrap());
    std::fs::write(
        server
            .data
            .path()
            .join(slidedb::default_file_name(&two_by_seven)),
        b"",
    )
    .unwrap();
    std::fs::write(
        server
            .data
            .path()
            .join(slidedb::pattern_file_name(&five, "6-6-6-6")),
        b"",
    )
    .unwrap();
    let after = listed(&server);
    assert_eq!(after, library(server.data.path()));
    for (size, exact) in [
        ("2x7", "table"),
        ("7x2", "table"),
        ("5x5", "patterns"),
        ("3x3", "table"),
    ] {
        assert_eq!(has(&after, size), Some(exact.into()), "{size}: {after}");
    }
    // The command line's `sizes --json` is the same list, a record a line.
    let (code, out, err) = exe::run(&["sizes", "--json"], None, server.data.path());
    assert_eq!(code, 0, "{err}");
    let printed: Vec<Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(Value::Array(printed), after);
    let (code, out, err) = exe::run(&["sizes"], None, server.data.path());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.split_whitespace().collect::<Vec<_>>()
            == [
                "5x5", "patterns", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12",
                "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "0"
            ]),
        "{out}"
    );
    server.stop();
}
