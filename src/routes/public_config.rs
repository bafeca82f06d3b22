//! `GET /api/config/public` → what the web app needs to know about this server.

use actix_web::{web, HttpResponse};

use crate::state::AppState;

/// What the web app needs before anyone signs in: the Google client id (null when Google sign-in
/// is off) and the grace period before a deletion its owner asked for is carried out, in seconds
/// (the settings page states it).
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfigAnswer {
    google_client_id: Option<String>,
    account_deletion_grace_seconds: i64,
}

pub async fn public_config(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(PublicConfigAnswer {
        google_client_id: state.google.client_id().map(str::to_string),
        account_deletion_grace_seconds: state.settings.accounts.grace().num_seconds(),
    })
}
