//! The service layer: the business logic the HTTP handlers (`crate::routes`), the jobs and the
//! live layer share. Handlers extract the request, call a service and answer; services never
//! import `crate::routes` (see `crate::architecture`).

pub mod activity;
pub mod analytics;
pub mod codes;
pub mod counts;
pub mod deletion;
pub mod email_retry;
pub mod engagement;
pub mod feed;
pub mod gauges;
pub mod geojson;
pub mod notifications;
pub mod posts;
