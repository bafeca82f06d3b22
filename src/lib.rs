//! Pressroom server library: configuration, HTTP routes, persistence and the glue to the live
//! actors.

#[cfg(test)]
mod architecture;
pub(crate) mod audit;
pub mod auth;
pub(crate) mod auth_extractors;
pub mod backup;
pub(crate) mod cipher;
pub mod cli;
pub mod config;
pub(crate) mod counting;
pub mod domain;
pub mod error;
pub(crate) mod export;
pub(crate) mod extract;
pub(crate) mod feeds;
pub(crate) mod geoip;
pub(crate) mod geojson;
pub mod guest_cache;
pub mod live;
pub mod mail;
pub(crate) mod metrics;
pub mod middleware;
pub(crate) mod net;
pub(crate) mod operations;
pub(crate) mod pages;
pub mod payments;
pub mod persistence;
pub(crate) mod post_view;
pub mod ratelimit;
pub mod redis_pool;
pub mod routes;
pub mod search;
pub(crate) mod security_headers;
pub mod services;
pub mod startup;
pub mod state;
pub mod telemetry;
pub(crate) mod webpush;
