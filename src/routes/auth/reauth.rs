//! Step-up for what moves money or power: `POST /api/auth/reauth` {password, code} confirms the
//! password (and the second factor when it is on) in this session; for the next
//! [`REAUTH_MINUTES`] minutes the session may change bank details, request payouts and refunds,
//! change the password, grant roles, turn two-factor sign-in off and delete the account. Signing
//! in counts as a confirmation at the time of sign-in. Otherwise those routes answer 403 with
//! code `reauth_required` (`services::reauth::require_recent`).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::services::passkey_account::{self, PasskeyAssertion};
use crate::state::AppState;

use crate::services::reauth::{
    confirm_password, mark_confirmed, MSG_SIGN_IN_AGAIN, MSG_WRONG_PASSWORD,
};
use crate::services::two_factor;

pub const MSG_REAUTH_DONE: &str = "Confirmed. You can continue for the next 10 minutes.";

/// `{password, code}` (`code` is needed when two-factor sign-in is on), or `{passkey}`: an
/// assertion for the options of `POST /api/auth/passkeys/reauth/options`.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ReauthBody {
    #[serde(default)]
    password: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    passkey: Option<PasskeyAssertion>,
}

/// `{message, reauthUntil}`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReauthAnswer {
    message: &'static str,
    reauth_until: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn reauth(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<ReauthBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    if let Some(passkey) = body.passkey {
        passkey_account::confirm_step_up(&state, &me.user, &passkey).await?;
        return confirmed(&state, &me).await;
    }
    let Some(stored) = me.user.password_hash.clone() else {
        return Err(ApiError::bad_request(MSG_SIGN_IN_AGAIN));
    };
    if body.password.is_empty() {
        return Err(ApiError::bad_request("Password is required"));
    }
    let address = client_key(&req, &state.trusted_proxies);
    confirm_password(
        &state,
        &me,
        &address,
        stored,
        body.password,
        MSG_WRONG_PASSWORD,
    )
    .await?;
    two_factor::check_if_on(&state, me.user.id, &body.code).await?;
    confirmed(&state, &me).await
}

async fn confirmed(state: &AppState, me: &AuthUser) -> ApiResult<HttpResponse> {
    let reauth_until = mark_confirmed(state, me).await?;
    Ok(HttpResponse::Ok().json(ReauthAnswer {
        message: MSG_REAUTH_DONE,
        reauth_until,
    }))
}
