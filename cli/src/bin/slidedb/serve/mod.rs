//! `slidedb serve`: the tablebase over HTTP, a JSON API under `/api/v1/`
//! and a page to play any puzzle with exact hints at `/`.
//!
//! One tokio runtime; hyper serves HTTP/1.1 with a header-read timeout
//! (its own refusals of what it cannot parse given a JSON body, see
//! `refusals`); axum routes; tower-http bounds bodies, times requests and
//! turns a panicking handler into a 500. Table lookups answer on the runtime's
//! threads (microseconds); searches (4×4 boards, by IDA* over pattern
//! databases) run on a bounded pool of blocking threads, each within a
//! time budget, so that they never starve the lookups.
//!
//! Here the options and the accept loop; `routes` the router, its limits
//! and the GET handlers; `batch` the POST batches; `extract` what a
//! request names (query, goal, size, board, body); `answer` the engine
//! and the search turn; `error` the JSON error; `state` what handlers
//! share; `limits` the bounds; `request_log` the `--log` middleware;
//! `refusals` hyper's own refusals as JSON; `page` the page.

mod answer;
mod batch;
mod error;
mod extract;
mod limits;
mod page;
mod refusals;
mod request_log;
mod routes;
mod state;

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use crate::data::DataArgs;
use request_log::LogLevel;

#[derive(ClapArgs)]
pub struct ServeArgs {
    /// The address to listen on, HOST:PORT: an IP address or a host name
    /// (every address it resolves to is served, such as both loopbacks for
    /// localhost:8080); a wider one than loopback (such as 0.0.0.0:8080)
    /// serves other machines too, only when named.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    listen: String,
    #[command(flatten)]
    data: DataArgs,
    /// The time a search may take for one request (4×4 boards), 1ms to
    /// 100s (like 500ms or 10s): past it the answer is 503.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = parse_max_search)]
    max_search: Duration,
    /// Searches run at once; more wait, within their time budget
    /// [default: one less than the cores, at least 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    search_threads: Option<u32>,
    /// The time a client may take to send a request's headers, or its
    /// body, 1ms to 10m (like 500ms or 10s).
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = parse_client_timeout)]
    client_timeout: Duration,
    /// A line on stderr per request: its method, path (the query cut at
    /// 200 bytes), status and time taken in milliseconds. Whatever the
    /// level, the operator's messages (a missing table, a damaged file)
    /// go to stderr, once each.
    #[arg(long, value_enum, value_name = "LEVEL", default_value_t = LogLevel::Off)]
    log: LogLevel,
}

/// How long in-flight requests get to finish after a stop signal.
const DRAIN: Duration = Duration::from_secs(30);

pub fn run(args: &ServeArgs) -> Result<u8> {
    if args.data.goal.is_some() || args.data.size.is_some() {
        anyhow::bail!(
            "serve takes the goal and size with each request (?goal=…&size=…); --goal and --size are for the other commands"
        );
    }
    let addrs = resolve(&args.listen)?;
    let data = args.data.open(true)?;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let searches = args
        .search_threads
        .map_or((cores.saturating_sub(1)).max(1), |n| n as usize);
    let client_timeout = args.client_timeout;
    let state = Arc::new(state::State::new(
        data,
        searches,
        args.max_search,
        client_timeout,
    ));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Searches hold one each (bounded by the semaphore); table builds,
        // file opens and counts hold theirs briefly.
        .max_blocking_threads(searches + 64)
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(&addrs, state, client_timeout, args.log))
}

/// The addresses `--listen` names: an IP address and port, or a host name
/// and port, resolved (every address, each once, in the resolver's order).
fn resolve(listen: &str) -> Result<Vec<SocketAddr>> {
    if let Ok(addr) = listen.parse::<SocketAddr>() {
        return Ok(vec![addr]);
    }
    let Some((host, port)) = listen.rsplit_once(':') else {
        anyhow::bail!(
            "--listen {listen:?} has no port: write it as HOST:PORT, such as localhost:8080"
        );
    };
    if host.is_empty() || port.parse::<u16>().is_err() {
        anyhow::bail!(
            "--listen {listen:?} is not HOST:PORT (a host name or IP address, then a port from 0 to 65535), such as localhost:8080"
        );
    }
    let mut addrs: Vec<SocketAddr> = Vec::new();
    for addr in listen
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve --listen {listen:?}"))?
    {
        if !addrs.contains(&addr) {
            addrs.push(addr);
        }
    }
    if addrs.is_empty() {
        anyhow::bail!("--listen {listen:?}: {host} resolves to no address");
    }
    Ok(addrs)
}

/// Binds every address (with port 0, the others on the port the first
/// one got, so that one port serves them all). An address past the first
/// that cannot be bound (IPv6 off, say) is skipped with a word on stderr.
async fn bind(addrs: &[SocketAddr]) -> Result<Vec<TcpListener>> {
    let (first, rest) = addrs.split_first().context("no address to listen on")?;
    let listener = TcpListener::bind(first)
        .await
        .with_context(|| format!("cannot listen on {first}"))?;
    let port = listener.local_addr()?.port();
    let mut listeners = vec![listener];
    for addr in rest {
        let mut addr = *addr;
        if addr.port() == 0 {
            addr.set_port(port);
        }
        match TcpListener::bind(addr).await {
            Ok(listener) => listeners.push(listener),
            Err(e) => say!("slidedb: cannot listen on {addr} ({e}): serving on the others"),
        }
    }
    Ok(listeners)
}

/// Accepts connections until SIGTERM, Ctrl-C or SIGHUP, then lets the
/// requests in flight finish (up to [`DRAIN`]).
async fn serve(
    addrs: &[SocketAddr],
    state: Arc<state::State>,
    client_timeout: Duration,
    log: LogLevel,
) -> Result<u8> {
    let mut stop = std::pin::pin!(stop_signal()?);
    let listeners = bind(addrs).await?;
    let mut serving = Vec::new();
    for listener in &listeners {
        serving.push(format!("http://{}/", listener.local_addr()?));
    }
    say!(
        "slidedb: serving on {} (the API under /api/v1/; Ctrl-C stops)",
        serving.join(" and ")
    );
    let app = routes::router(state.clone(), log);
    let graceful = GracefulShutdown::new();
    let stopped_by;
    loop {
        let any = futures_util::future::select_all(listeners.iter().map(|l| Box::pin(l.accept())));
        // The signal first: a flood of connections does not hold off a stop.
        let (stream, _) = tokio::select! {
            biased;
            signal = &mut stop => {
                stopped_by = signal;
                break;
            }
            (accepted, _, _) = any => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors, a reset before accept: go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(client_timeout)
            .serve_connection(TokioIo::new(refusals::JsonRefusals::new(stream)), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that goes away mid-answer is its own affair.
            let _ = connection.await;
        });
    }
    drop(listeners);
    say!("slidedb: {stopped_by}: stopping: finishing the requests in flight");
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(DRAIN) => {
            say!("slidedb: some requests did not finish within {} s: their searches stop now", DRAIN.as_secs());
        }
    }
    // Searches still running (their clients gone or past the drain) stop,
    // so that the process ends.
    state
        .stopping
        .store(true, std::sync::atomic::Ordering::Relaxed);
    Ok(0)
}

/// Handles SIGTERM, Ctrl-C (SIGINT) and SIGHUP from now on (before the
/// server says it serves, so that a signal sent as soon as it does is a
/// stop, not the default death), and resolves on the first of them with
/// its name. SIGHUP (the terminal the server runs in closing) is a stop
/// like the others: the requests in flight finish, and the process exits
/// 0 having left nothing half written; it is no reload, since the server
/// finds new tables and databases in its folder by itself.
fn stop_signal() -> Result<impl Future<Output = &'static str>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).context("cannot handle SIGTERM")?;
        let mut interrupt = signal(SignalKind::interrupt()).context("cannot handle SIGINT")?;
        let mut hangup = signal(SignalKind::hangup()).context("cannot handle SIGHUP")?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = interrupt.recv() => "SIGINT",
                _ = hangup.recv() => "SIGHUP",
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        })
    }
}

/// `--max-search TIME`: 1ms to 100s.
fn parse_max_search(text: &str) -> Result<Duration, String> {
    within(text, Duration::from_secs(100), "100s")
}

/// `--client-timeout TIME`: 1ms to 10m.
fn parse_client_timeout(text: &str) -> Result<Duration, String> {
    within(text, Duration::from_secs(600), "10m")
}

/// A time of the programs' one grammar, from 1ms to `most` (`shown`).
fn within(text: &str, most: Duration, shown: &str) -> Result<Duration, String> {
    let time = slidedb_cli::units::parse_duration(text)?;
    if time < Duration::from_millis(1) || time > most {
        return Err(format!(
            "{text:?} is out of range: give a time from 1ms to {shown}"
        ));
    }
    Ok(time)
}
