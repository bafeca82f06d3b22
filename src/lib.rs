//! Pressroom server library: configuration, HTTP routes, persistence and the glue to the live
//! actors.

pub mod accounts;
#[cfg(test)]
mod architecture;
pub mod audit;
pub mod auth;
pub mod backup;
pub mod billing;
pub mod cli;
pub mod config;
pub mod counting;
pub mod domain;
pub mod error;
pub mod export;
pub mod extract;
pub mod feeds;
pub mod geoip;
pub mod guest_cache;
pub mod jobs;
pub mod live;
pub mod mail;
pub mod metrics;
pub mod middleware;
pub mod net;
pub mod notify;
pub mod operations;
pub mod pages;
pub mod payments;
pub mod persistence;
pub mod post_view;
pub mod ratelimit;
pub mod redis_pool;
pub mod routes;
pub mod search;
pub mod security_headers;
pub mod services;
pub mod startup;
pub mod state;
pub mod telemetry;
