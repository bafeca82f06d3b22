//! `/api/auth/*`: accounts, sessions and one-time codes.

pub mod change_password;
pub mod check;
pub mod google_login;
pub mod login;
pub mod logout;
pub mod logout_all;
pub mod passkeys;
pub mod reauth;
pub mod reset_password;
pub mod send_reset_otp;
pub mod send_verify_otp;
pub mod sessions;
pub mod signup;
pub mod two_factor;
pub mod verify_email;
pub mod verify_reset_otp;

use actix_web::{HttpRequest, HttpResponse};
use serde::Serialize;

use crate::domain::Email;
use crate::error::ApiResult;
use crate::net::client_key;
use crate::routes::cookies::{cleared_cookie, session_cookie};
use crate::services::codes;
use crate::services::people::User;
use crate::services::sessions as session_service;
use crate::state::AppState;

/// The body of a signup or login answer.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionBody {
    #[serde(rename = "_id")]
    pub id: String,
    pub full_name: String,
    pub email: String,
    pub role: &'static str,
    pub token: String,
    pub is_account_verified: bool,
    /// Present (true) when this sign-in cancelled the account's scheduled deletion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_cancelled: Option<bool>,
}

/// Issues a token for `user`, records the session and answers with the signup/login shape and
/// the cookie.
pub async fn session_response(
    state: &AppState,
    req: &HttpRequest,
    user: &User,
    builder: actix_web::HttpResponseBuilder,
) -> ApiResult<HttpResponse> {
    session_response_by(state, req, user, builder, None).await
}

/// [`session_response`] for a sign-in by `method` (`passkey`), noted on the session.
pub async fn session_response_by(
    state: &AppState,
    req: &HttpRequest,
    user: &User,
    mut builder: actix_web::HttpResponseBuilder,
    method: Option<&str>,
) -> ApiResult<HttpResponse> {
    let token = start_session(state, req, user, method).await?;
    let cancelled = crate::services::accounts::cancel_on_sign_in(state, user).await?;
    Ok(builder
        .cookie(session_cookie(state, &token))
        .json(SessionBody {
            id: user.id.to_hex(),
            full_name: user.name.clone(),
            email: user.email.clone(),
            role: user.role.as_str(),
            token,
            is_account_verified: user.is_account_verified,
            deletion_cancelled: cancelled.then_some(true),
        }))
}

/// Issues a token for `user` and records its session (`services::sessions::start`), from the
/// device and address of `req`.
pub async fn start_session(
    state: &AppState,
    req: &HttpRequest,
    user: &User,
    method: Option<&str>,
) -> ApiResult<String> {
    let user_agent = req
        .headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let ip = crate::net::client_ip(req, &state.trusted_proxies);
    session_service::start(state, user, user_agent, ip, method).await
}

/// Checks a password-reset code for `email` within the code-check limits (per account and per
/// client address of `req`); answers the account, if there is one. `consume`: the code is used
/// up.
pub async fn check_reset_code(
    state: &AppState,
    req: &HttpRequest,
    email: &Email,
    code: &str,
    consume: bool,
) -> ApiResult<Option<User>> {
    let address = client_key(req, &state.trusted_proxies);
    codes::check_reset_code(state, &address, email, code, consume).await
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct UserBody {
    #[serde(rename = "_id")]
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) email: String,
    pub(crate) role: &'static str,
}

// Shared by the Google sign-in (`google_login`) and its second step (`two_factor`).
/// The answer: the account signed in (or created) and its session.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GoogleSession {
    pub(crate) user: UserBody,
    pub(crate) token: String,
    pub(crate) is_account_verified: bool,
    /// Present (true) when this sign-in cancelled the account's scheduled deletion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) deletion_cancelled: Option<bool>,
}
