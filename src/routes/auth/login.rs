//! `POST /api/auth/login` {email, password} → session.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::{session_response, MSG_BAD_CREDENTIALS};
use crate::auth::{password, MSG_BLOCKED};
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::persistence::users::{self, normalize_email};
use crate::ratelimit::Kind;
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
    let email = normalize_email(&body.email);
    if email.is_empty() || body.password.is_empty() {
        return Err(ApiError::bad_request("Email and password are required"));
    }
    let address = client_key(&req, &state.trusted_proxies);
    state
        .limiter
        .hit_both((Kind::LoginAccount, &email), (Kind::LoginAddress, &address))
        .await?;
    let user = users::find_by_email(&state.db, &email).await?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    let ok = password::verify(body.password, stored).await?;
    let user = match user {
        Some(user) if ok => user,
        _ => {
            return Err(ApiError::unauthorized_code(
                "invalid_credentials",
                MSG_BAD_CREDENTIALS,
            ))
        }
    };
    if user.blocked {
        return Err(ApiError::forbidden(MSG_BLOCKED));
    }
    if crate::persistence::two_factor::is_enabled(&state.db, user.id).await? {
        return super::two_factor::challenge_response(&state, &user, false).await;
    }
    tracing::info!(user_id = %user.id, "logged in");
    session_response(&state, &req, &user, HttpResponse::Ok()).await
}
