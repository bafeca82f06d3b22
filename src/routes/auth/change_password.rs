//! `POST /api/auth/change-password` {currentPassword, newPassword} → {message, token}: changes the
//! signed-in user's password and ends every other session (their tokens stop working and their
//! live sockets are closed). This session goes on with the new token, also set as the cookie.
//! A wrong current password is a 400; tries count against the login rate limits.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::session_cookie;
use crate::auth::password::Password;
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::services::{credentials, reauth};
use crate::state::AppState;

pub const MSG_PASSWORD_CHANGED: &str =
    "Password changed successfully. Other sessions have been logged out.";
pub const MSG_WRONG_CURRENT_PASSWORD: &str = "Current password is incorrect";
pub const MSG_NO_PASSWORD_YET: &str =
    "Your account has no password yet. Use \"Forgot password\" on the login page to set one.";
pub const MSG_SAME_PASSWORD: &str = "The new password must be different from the current one";
pub const MSG_CURRENT_REQUIRED: &str = "Current password is required";

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordBody {
    #[serde(default)]
    current_password: String,
    new_password: String,
    /// Instead of the current password: an assertion of one of the person's passkeys.
    #[serde(default)]
    passkey: Option<crate::services::passkey_account::PasskeyAssertion>,
}

/// `{message, token}`: the new session token (every other session has ended).
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct PasswordChangedAnswer {
    message: &'static str,
    token: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn change_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<ChangePasswordBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    reauth::require_recent(&state, &me).await?;
    let new_password = match &body.passkey {
        // A passkey confirms it is the person: the current password is not asked.
        Some(proof) => {
            let new_password = Password::parse(body.new_password)?;
            crate::services::passkey_account::confirm_step_up(&state, &me.user, proof).await?;
            new_password
        }
        None => {
            if body.current_password.is_empty() {
                return Err(ApiError::bad_request(MSG_CURRENT_REQUIRED));
            }
            let Some(stored) = me.user.password_hash.clone() else {
                return Err(ApiError::bad_request(MSG_NO_PASSWORD_YET));
            };
            let new_password = Password::parse(body.new_password)?;
            let address = client_key(&req, &state.trusted_proxies);
            reauth::confirm_password(
                &state,
                &me,
                &address,
                stored,
                body.current_password.clone(),
                MSG_WRONG_CURRENT_PASSWORD,
            )
            .await?;
            if body.current_password == new_password.as_str() {
                return Err(ApiError::bad_request(MSG_SAME_PASSWORD));
            }
            new_password
        }
    };
    let user = credentials::change_password(&state, &me, new_password).await?;
    let token = super::start_session(&state, &req, &user, None).await?;
    Ok(HttpResponse::Ok()
        .cookie(session_cookie(&state, &token))
        .json(PasswordChangedAnswer {
            message: MSG_PASSWORD_CHANGED,
            token,
        }))
}
