//! The page and its assets, embedded in the binary (no network access
//! needed), with the server's API as the page's backend, and the API's
//! description.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;

/// The page, saying where its answers come from.
static INDEX: LazyLock<String> = LazyLock::new(|| {
    crate::page::INDEX.replace(
        "{{about}}",
        "The <a href=\"api/v1/openapi.json\">JSON API</a> answers the same questions: \
         <code>/api/v1/solve</code>, <code>probe</code>, <code>count</code>, \
         <code>random</code>, <code>stats</code>.",
    )
});
const SCRIPT: &str = crate::page::APP;
const BACKEND: &str = include_str!("../page/api.js");
const STYLE: &str = crate::page::STYLE;
const OPENAPI: &str = include_str!("../page/openapi.json");

/// Only this server's own scripts, styles and API; no frames.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

fn asset(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
}

pub async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX.as_str())
}

pub async fn backend() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", BACKEND)
}

pub async fn script() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

pub async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE)
}

pub async fn openapi() -> impl IntoResponse {
    asset("application/json", OPENAPI)
}
