//! The page and its assets, embedded in the binary (no network access
//! needed), and the API's description.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");
const OPENAPI: &str = include_str!("page/openapi.json");

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
    asset("text/html; charset=utf-8", INDEX)
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
