//! Background jobs started once by `Application::build`.

pub mod billing;
pub mod daily_mail;
pub mod scheduled;
pub mod trending;

use actix_web::web;

use crate::state::AppState;

/// Starts the content jobs: trending score refresh, scheduled publishing and the daily post
/// email.
pub fn spawn_content_jobs(state: web::Data<AppState>) {
    trending::spawn(state.clone());
    daily_mail::spawn(state.clone());
    scheduled::spawn(state);
}
