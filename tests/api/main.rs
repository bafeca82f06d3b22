//! HTTP API integration tests: one binary (`cargo test --test api`), each test with its own app on
//! port 0 and its own database on the real FerretDB started by `scripts/test` (or
//! `scripts/services`).
//!
//! Tests are grouped by area, one folder each; what tests share lives in `support/` (no test file
//! imports another). A test's name carries its place: `money::plans::…` is in `money/plans.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod admin;
mod content;
mod engagement;
mod live;
mod money;
mod platform;
mod support;
