//! `POST /api/auth/login` {email, password} → session.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::session_response;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::services::credentials::{self, Login};
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct LoginBody {
    email: String,
    password: String,
}

#[tracing::instrument(skip(state, req, body))]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<LoginBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let address = client_key(&req, &state.trusted_proxies);
    match credentials::login(&state, &address, &body.email, body.password).await? {
        Login::SecondFactor(user) => {
            super::two_factor::challenge_response(&state, &user, false).await
        }
        Login::SignedIn(user) => session_response(&state, &req, &user, HttpResponse::Ok()).await,
    }
}
