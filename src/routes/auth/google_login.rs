//! `POST /api/auth/google-login` {token, sendEmail} → {user, token, isAccountVerified}.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::session_cookie;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::credentials::Login;
use crate::services::google_sign_in;
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GoogleLoginBody {
    token: String,
    #[serde(default)]
    send_email: Option<bool>,
}

pub use super::{GoogleSession, UserBody};

#[tracing::instrument(skip(state, req, body))]
pub async fn google_login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<GoogleLoginBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    if body.token.trim().is_empty() {
        return Err(ApiError::bad_request("Google token is required"));
    }
    let user = match google_sign_in::sign_in(&state, &body.token, body.send_email.unwrap_or(false))
        .await?
    {
        Login::SecondFactor(user) => {
            return super::two_factor::challenge_response(&state, &user, false).await
        }
        Login::SignedIn(user) => user,
    };
    let token = super::start_session(&state, &req, &user, None).await?;
    let cancelled = crate::services::accounts::cancel_on_sign_in(&state, &user).await?;
    Ok(HttpResponse::Ok()
        .cookie(session_cookie(&state, &token))
        .json(GoogleSession {
            user: UserBody {
                id: user.id.to_hex(),
                name: user.name.clone(),
                email: user.email.clone(),
                role: user.role.as_str(),
            },
            token,
            is_account_verified: user.is_account_verified,
            deletion_cancelled: cancelled.then_some(true),
        }))
}
