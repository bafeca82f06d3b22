//! HTTP API integration tests: one binary, each test with its own app on port 0 and its own
//! database on the real FerretDB started by `scripts/test`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod auth;
mod categories;
mod content;
mod errors;
mod feeds;
mod google;
mod health;
mod helpers;
mod otp;
mod posts;
mod search;
mod user;
