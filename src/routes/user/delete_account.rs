//! `POST /api/user/delete-account` {password} → {message, deletionScheduledAt}: the signed-in
//! user asks for their account to be deleted. It needs the password now and a confirmation in
//! the last ten minutes (step-up). Every session ends and an email says when the account goes
//! and how to keep it: signing in before then cancels the deletion. When the grace period
//! (`accounts.deletion_grace_days`) ends, the job worker removes the account
//! ([`crate::services::jobs::account_deletion`]).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::routes::cookies::cleared_cookie;
use crate::services::{accounts, reauth};
use crate::state::AppState;

pub const MSG_SCHEDULED: &str = "Your account will be deleted. Sign in before then to keep it.";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct DeleteAccountBody {
    #[serde(default)]
    password: String,
    /// Instead of the password: an assertion of one of the person's passkeys.
    #[serde(default)]
    passkey: Option<crate::services::passkey_account::PasskeyAssertion>,
}

/// `{message, deletionScheduledAt}`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeletionScheduledAnswer {
    message: &'static str,
    deletion_scheduled_at: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn delete_account(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<DeleteAccountBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    reauth::require_recent(&state, &me).await?;
    if let Some(proof) = &body.passkey {
        crate::services::passkey_account::confirm_step_up(&state, &me.user, proof).await?;
    } else {
        let Some(stored) = me.user.password_hash.clone() else {
            return Err(ApiError::bad_request(reauth::MSG_SIGN_IN_AGAIN));
        };
        if body.password.is_empty() {
            return Err(ApiError::bad_request("Password is required"));
        }
        let address = client_key(&req, &state.trusted_proxies);
        reauth::confirm_password(
            &state,
            &me,
            &address,
            stored,
            body.password,
            reauth::MSG_WRONG_PASSWORD,
        )
        .await?;
    }
    let at = accounts::schedule_deletion(&state, &me).await?;
    Ok(HttpResponse::Ok()
        .cookie(cleared_cookie(&state))
        .json(DeletionScheduledAnswer {
            message: MSG_SCHEDULED,
            deletion_scheduled_at: at,
        }))
}
