//! The service layer: the business logic the HTTP handlers (`crate::routes`) and the jobs share.
//! Handlers extract the request, call a service and answer; services sit above the application
//! state (`crate::state`) and the modules it holds (`auth`, `live`, `counting`, …), which never
//! import them, and never import `crate::routes` (see `crate::architecture`).

pub mod achievements;
pub mod activity;
pub mod analytics;
pub mod api_keys;
pub mod banners;
pub mod blocking;
pub mod categories;
pub mod codes;
pub mod comments;
pub mod counts;
pub mod daily_mail;
pub mod deletion;
pub mod email_retry;
pub mod engagement;
pub mod feed;
pub mod follows;
pub mod gauges;
pub mod guest_visits;
pub mod import;
pub mod inbox;
pub mod media;
pub mod moderation;
pub mod notifications;
pub mod notify;
pub mod outbound;
pub mod passkey_account;
pub mod passkeys;
pub mod people;
pub mod post_write;
pub mod posts;
pub mod push;
pub mod reauth;
pub mod revisions;
pub mod series;
pub mod site_analytics;
pub mod unread;
pub mod webhooks;
pub mod workbook;
