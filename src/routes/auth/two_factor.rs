//! Two-factor sign-in with an authenticator app (TOTP, RFC 6238) and recovery codes:
//! `POST /api/auth/2fa/setup` → {secret, otpauthUrl}; `POST /api/auth/2fa/enable` {code} →
//! {recoveryCodes}; `POST /api/auth/2fa/disable` {password, code}; `POST
//! /api/auth/2fa/recovery-codes` {password, code} → {recoveryCodes}; `POST /api/auth/2fa/verify`
//! {challenge, code} → the login answer; `GET /api/auth/2fa` → {enabled, recoveryCodesLeft}.
//! A sign-in with the right password on an account with the factor on answers
//! `{twoFactorRequired: true, challenge}` instead of a session ([`challenge_response`]).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use super::session_response;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::services::people::User;
use crate::services::two_factor::{self, Confirmation};
use crate::state::AppState;

/// `{secret, otpauthUrl}`: the new secret, as text and as the address the QR code carries.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetupAnswer {
    secret: String,
    otpauth_url: String,
}

/// `{code}`.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct CodeBody {
    #[serde(default)]
    code: String,
}

/// `{password, code}`.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct PasswordCodeBody {
    #[serde(default)]
    password: String,
    #[serde(default)]
    code: String,
    /// Instead of the password and the code: an assertion of one of the person's passkeys.
    #[serde(default)]
    passkey: Option<crate::services::passkey_account::PasskeyAssertion>,
}

/// `{challenge, code}`: the code is a TOTP code or an unused recovery code.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct VerifyBody {
    #[serde(default)]
    challenge: String,
    #[serde(default)]
    code: String,
}

/// `{recoveryCodes}`: shown once; only their hashes are kept.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecoveryCodesAnswer {
    message: &'static str,
    recovery_codes: Vec<String>,
}

/// `{twoFactorRequired: true, challenge}`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChallengeAnswer {
    two_factor_required: bool,
    challenge: String,
}

/// What a login answers: a session, or a challenge when two-factor sign-in is on.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum LoginAnswer {
    Session(super::SessionBody),
    Challenge(ChallengeAnswer),
}

/// What a Google sign-in answers: a session, or a challenge when two-factor sign-in is on.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum GoogleLoginAnswer {
    Session(super::GoogleSession),
    Challenge(ChallengeAnswer),
}

/// `{enabled, recoveryCodesLeft}`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusAnswer {
    enabled: bool,
    recovery_codes_left: usize,
}

/// The answer to a right password on an account with two-factor sign-in: a challenge to
/// complete with `POST /api/auth/2fa/verify`.
pub async fn challenge_response(
    state: &AppState,
    user: &User,
    deletion_cancelled: bool,
) -> ApiResult<HttpResponse> {
    let challenge = two_factor::new_challenge(state, user, deletion_cancelled).await?;
    Ok(HttpResponse::Ok().json(ChallengeAnswer {
        two_factor_required: true,
        challenge,
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn status(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let (enabled, recovery_codes_left) = two_factor::status(&state, &me).await?;
    Ok(HttpResponse::Ok().json(StatusAnswer {
        enabled,
        recovery_codes_left,
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn setup(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let (secret, otpauth_url) = two_factor::setup(&state, &me).await?;
    Ok(HttpResponse::Ok().json(SetupAnswer {
        secret,
        otpauth_url,
    }))
}

fn address(state: &AppState, req: &HttpRequest) -> String {
    client_key(req, &state.trusted_proxies)
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn enable(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<CodeBody>,
) -> ApiResult<HttpResponse> {
    let code = body.into_inner().code;
    let codes = two_factor::enable(&state, &address(&state, &req), &me, &code).await?;
    Ok(HttpResponse::Ok().json(RecoveryCodesAnswer {
        message: "Two-factor sign-in is on",
        recovery_codes: codes,
    }))
}

impl PasswordCodeBody {
    fn proof(self) -> Confirmation {
        Confirmation {
            password: self.password,
            code: self.code,
            passkey: self.passkey,
        }
    }
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn disable(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<PasswordCodeBody>,
) -> ApiResult<HttpResponse> {
    let proof = body.into_inner().proof();
    two_factor::disable(&state, &address(&state, &req), &me, proof).await?;
    Ok(
        HttpResponse::Ok().json(crate::routes::answers::MessageAnswer::new(
            "Two-factor sign-in is off",
        )),
    )
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn recovery_codes(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<PasswordCodeBody>,
) -> ApiResult<HttpResponse> {
    let proof = body.into_inner().proof();
    let codes =
        two_factor::replace_recovery_codes(&state, &address(&state, &req), &me, proof).await?;
    Ok(HttpResponse::Ok().json(RecoveryCodesAnswer {
        message: "New recovery codes made; the old ones no longer work",
        recovery_codes: codes,
    }))
}

#[tracing::instrument(skip_all)]
pub async fn verify(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<VerifyBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let user =
        two_factor::verify(&state, &address(&state, &req), &body.challenge, &body.code).await?;
    session_response(&state, &req, &user, HttpResponse::Ok()).await
}
