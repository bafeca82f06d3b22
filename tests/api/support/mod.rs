//! What the API tests share, by concern. The items of `app`, `http`, `users`, `mail`, `proxy` and
//! `jobs` are what nearly every test uses (`use crate::support::*;`); the helpers of one area are
//! imported from their module (`use crate::support::money::*;`). No test file imports another: a
//! helper two test files need lives here.
//!
//! `TestApp` is declared in `app`; each concern file adds at most one `impl TestApp` block.

pub mod app;
pub mod comments;
pub mod content;
pub mod contract;
pub mod engagement;
pub mod http;
pub mod jobs;
pub mod mail;
pub mod money;
pub mod proxy;
pub mod store_cost;
pub mod users;

pub use app::*;
pub use http::*;
pub use jobs::*;
pub use mail::*;
pub use proxy::*;
pub use users::*;
