//! `slidedb serve`: the tablebase over HTTP, a JSON API under `/api/v1/`
//! and a page to play any puzzle with exact hints at `/`.
//!
//! One tokio runtime; hyper serves HTTP/1.1 with a header-read timeout;
//! axum routes; tower-http bounds bodies, times requests and turns a
//! panicking handler into a 500. Table lookups answer on the runtime's
//! threads (microseconds); searches (4×4 boards, by IDA* over pattern
//! databases) run on a bounded pool of blocking threads, each within a
//! time budget, so that they never starve the lookups.

mod api;
mod page;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use crate::data::DataArgs;

#[derive(ClapArgs)]
pub struct ServeArgs {
    /// The address to listen on; a wider one than loopback (such as
    /// 0.0.0.0:8080) serves other machines too, only when named.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    #[command(flatten)]
    data: DataArgs,
    /// The time a search may take for one request (4×4 boards), in
    /// milliseconds, at most 100,000: past it the answer is 503.
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_search_ms: u64,
    /// Searches run at once; more wait, within their time budget
    /// [default: one less than the cores, at least 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    search_threads: Option<u32>,
    /// The time a client may take to send a request's headers, or its
    /// body, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
    client_timeout_ms: u64,
}

/// How long in-flight requests get to finish after a stop signal.
const DRAIN: Duration = Duration::from_secs(30);

pub fn run(args: &ServeArgs) -> Result<u8> {
    if args.data.goal.is_some() || args.data.size.is_some() {
        anyhow::bail!(
            "serve takes the goal and size with each request (?goal=…&size=…); --goal and --size are for the other commands"
        );
    }
    let data = args.data.open(true)?;
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let searches = args
        .search_threads
        .map_or((cores.saturating_sub(1)).max(1), |n| n as usize);
    let client_timeout = Duration::from_millis(args.client_timeout_ms);
    let state = Arc::new(api::State::new(
        data,
        searches,
        Duration::from_millis(args.max_search_ms),
        client_timeout,
    ));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Searches hold one each (bounded by the semaphore); table builds,
        // file opens and counts hold theirs briefly.
        .max_blocking_threads(searches + 64)
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(args.listen, state, client_timeout))
}

/// Accepts connections until SIGTERM or Ctrl-C, then lets the requests in
/// flight finish (up to [`DRAIN`]).
async fn serve(addr: SocketAddr, state: Arc<api::State>, client_timeout: Duration) -> Result<u8> {
    let listener = TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    say!("slidedb: serving on http://{local}/ (the API under /api/v1/; Ctrl-C stops)");
    let app = api::router(state.clone());
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop_signal());
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors, a reset before accept: go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(client_timeout)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that goes away mid-answer is its own affair.
            let _ = connection.await;
        });
    }
    drop(listener);
    say!("slidedb: stopping: finishing the requests in flight");
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

/// Resolves on SIGTERM or Ctrl-C (SIGINT).
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
