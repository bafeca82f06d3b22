//! `GET /api/config/public` → what the web app needs to know about this server.

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::state::AppState;

pub async fn public_config(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(json!({ "googleClientId": state.google.client_id() }))
}
