//! HTTP API integration tests: one binary, each test with its own app on port 0 and its own
//! database on the real FerretDB started by `scripts/test`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod achievements;
mod activity;
mod admin_access;
mod admin_contact_reports;
mod admin_email;
mod admin_posts;
mod admin_reports_data;
mod admin_users;
mod analytics;
mod auth;
mod banners;
mod blocks;
mod categories;
mod comments;
mod content;
mod daily_mail;
mod engagement;
mod errors;
mod feedback;
mod feeds;
mod follows;
mod google;
mod guest;
mod health;
mod helpers;
mod locations;
mod moderation;
mod notifications;
mod openapi;
mod otp;
mod posts;
mod search;
mod user;
