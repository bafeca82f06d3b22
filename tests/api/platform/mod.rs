//! The platform under every route: health, metrics, the OpenAPI document and the contract every
//! answer is held to, the authorization matrix, errors, hardening, injection, bytes on the wire and
//! backups.

mod api_keys;
mod authz_matrix;
mod backup;
mod bytes;
mod contract;
mod errors;
mod hardening;
mod health;
mod injection;
mod layout;
mod metrics;
mod openapi;
mod store_cost;
mod webhook_events;
mod webhooks;
