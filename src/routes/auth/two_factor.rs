//! Two-factor sign-in with an authenticator app (TOTP, RFC 6238) and recovery codes:
//! `POST /api/auth/2fa/setup` → {secret, otpauthUrl}; `POST /api/auth/2fa/enable` {code} →
//! {recoveryCodes}; `POST /api/auth/2fa/disable` {password, code}; `POST
//! /api/auth/2fa/recovery-codes` {password, code} → {recoveryCodes}; `POST /api/auth/2fa/verify`
//! {challenge, code} → the login answer; `GET /api/auth/2fa` → {enabled, recoveryCodesLeft}.
//! A sign-in with the right password on an account with the factor on answers
//! `{twoFactorRequired: true, challenge}` instead of a session ([`challenge_response`]).

use actix_web::{web, HttpRequest, HttpResponse};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::session_response;
use crate::audit::{self, Action, Target};
use crate::auth::{password, totp, AuthUser, MSG_BLOCKED};
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::mail::{MailKind, Outgoing};
use crate::net::client_key;
use crate::persistence::two_factor::{self, Challenge, TwoFactor};
use crate::persistence::users::{self, User};
use crate::ratelimit::Kind;
use crate::services::reauth::MSG_WRONG_PASSWORD;
use crate::state::AppState;

/// Minutes a sign-in challenge stays usable.
pub const CHALLENGE_MINUTES: i64 = 5;

pub const MSG_ALREADY_ON: &str = "Two-factor sign-in is already on.";
pub const MSG_NOT_ON: &str = "Two-factor sign-in is not on.";
pub const MSG_NO_SETUP: &str = "Start the two-factor setup first.";
pub const MSG_WRONG_CODE: &str =
    "That code is not correct. Check the time on your device and try again.";
pub const MSG_CODE_USED: &str = "That code has already been used. Wait for the next one.";
pub const MSG_CODE_REQUIRED: &str = "Enter the code from your authenticator app";
pub const MSG_BAD_CHALLENGE: &str =
    "This sign-in has expired or was already completed. Please log in again.";
pub const MSG_NO_PASSWORD: &str =
    "Your account has no password yet. Use \"Forgot password\" on the login page to set one.";

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

fn unix_now() -> u64 {
    u64::try_from(chrono::Utc::now().timestamp()).unwrap_or(0)
}

fn challenge_key(challenge: &str) -> String {
    hex::encode(Sha256::digest(challenge.trim().as_bytes()))
}

/// Counts one second-factor attempt against the account's and the address's allowance.
async fn limit(state: &AppState, req: &HttpRequest, user_id: &str) -> ApiResult<()> {
    let address = client_key(req, &state.trusted_proxies);
    state
        .limiter
        .hit_both(
            (Kind::OtpCheckAccount, &format!("2fa:{user_id}")),
            (Kind::OtpCheckAddress, &format!("2fa:{address}")),
        )
        .await
}

/// Checks a TOTP code (each accepted once) or a recovery code (each used once).
pub async fn check_second_factor(state: &AppState, tf: &TwoFactor, code: &str) -> ApiResult<()> {
    let code = code.trim();
    if code.is_empty() {
        return Err(ApiError::invalid("code_required", MSG_CODE_REQUIRED));
    }
    if totp::is_totp_shape(code) {
        let secret = open(state, tf.secret.as_deref())?;
        let Some(step) = totp::matching_step(&secret, code, unix_now()) else {
            return Err(ApiError::invalid("invalid_code", MSG_WRONG_CODE));
        };
        let step = i64::try_from(step).unwrap_or(i64::MAX);
        if !two_factor::accept_step(&state.db, tf.id, step).await? {
            return Err(ApiError::invalid("code_used", MSG_CODE_USED));
        }
        return Ok(());
    }
    let hash = totp::hash_recovery_code(state.tokens.secret_bytes(), &tf.id.to_hex(), code);
    if two_factor::use_recovery_code(&state.db, tf.id, &hash).await? {
        Ok(())
    } else {
        Err(ApiError::invalid("invalid_code", MSG_WRONG_CODE))
    }
}

fn open(state: &AppState, sealed: Option<&str>) -> ApiResult<String> {
    let sealed = sealed.ok_or_else(|| ApiError::bad_request(MSG_NO_SETUP))?;
    state
        .bank_cipher
        .open(sealed)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("opening a two-factor secret: {e:?}")))
}

fn hashes(state: &AppState, user_id: &str, codes: &[String]) -> Vec<String> {
    codes
        .iter()
        .map(|c| totp::hash_recovery_code(state.tokens.secret_bytes(), user_id, c))
        .collect()
}

/// A change of the account's second factor: to the audit log, and by email to its owner.
async fn tell(state: &AppState, me: &AuthUser, action: Action, subject: &str, what: &str) {
    audit::record(
        state,
        me,
        action,
        Target::user(&me.user),
        serde_json::json!({}),
    )
    .await;
    let user = &me.user;
    let body = format!(
        "Hello {},\n\n{what}\n\nIf this was not you, change your password at once and review your sessions:\n{}\n",
        user.name,
        state.settings.public_link("/user-setting#security"),
    );
    let mail = Outgoing::new(MailKind::Security, &user.email, subject, body).for_user(user.id);
    state.mailer.send_mail(mail).await;
}

/// The answer to a right password on an account with two-factor sign-in: a challenge to
/// complete with `POST /api/auth/2fa/verify`.
pub async fn challenge_response(
    state: &AppState,
    user: &User,
    deletion_cancelled: bool,
) -> ApiResult<HttpResponse> {
    let mut raw = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut raw);
    let challenge = hex::encode(raw);
    let now = chrono::Utc::now();
    two_factor::insert_challenge(
        &state.db,
        &Challenge {
            id: challenge_key(&challenge),
            user_id: user.id,
            deletion_cancelled,
            expires_at: mongodb::bson::DateTime::from_chrono(
                now + chrono::Duration::minutes(CHALLENGE_MINUTES),
            ),
            created_at: mongodb::bson::DateTime::from_chrono(now),
        },
    )
    .await?;
    Ok(HttpResponse::Ok().json(ChallengeAnswer {
        two_factor_required: true,
        challenge,
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn status(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let tf = two_factor::find(&state.db, me.user.id).await?;
    let enabled = tf.as_ref().is_some_and(|t| t.enabled);
    Ok(HttpResponse::Ok().json(StatusAnswer {
        enabled,
        recovery_codes_left: tf
            .filter(|t| t.enabled)
            .map_or(0, |t| t.recovery_hashes.len()),
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn setup(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    if two_factor::is_enabled(&state.db, me.user.id).await? {
        return Err(ApiError::conflict(MSG_ALREADY_ON));
    }
    let secret = totp::new_secret();
    let otpauth_url = totp::otpauth_url(&secret, &me.user.email)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("building an otpauth address")))?;
    two_factor::set_pending(&state.db, me.user.id, &state.bank_cipher.seal(&secret)).await?;
    Ok(HttpResponse::Ok().json(SetupAnswer {
        secret,
        otpauth_url,
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn enable(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<CodeBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let tf = two_factor::find(&state.db, me.user.id).await?;
    if tf.as_ref().is_some_and(|t| t.enabled) {
        return Err(ApiError::conflict(MSG_ALREADY_ON));
    }
    let Some(sealed) = tf.and_then(|t| t.pending_secret) else {
        return Err(ApiError::bad_request(MSG_NO_SETUP));
    };
    if body.code.trim().is_empty() {
        return Err(ApiError::invalid("code_required", MSG_CODE_REQUIRED));
    }
    limit(&state, &req, &me.id_hex()).await?;
    let secret = open(&state, Some(&sealed))?;
    let Some(step) = totp::matching_step(&secret, &body.code, unix_now()) else {
        return Err(ApiError::invalid("invalid_code", MSG_WRONG_CODE));
    };
    let codes = totp::new_recovery_codes();
    let step = i64::try_from(step).unwrap_or(i64::MAX);
    if !two_factor::enable(
        &state.db,
        me.user.id,
        &sealed,
        step,
        hashes(&state, &me.id_hex(), &codes),
    )
    .await?
    {
        return Err(ApiError::conflict(MSG_NO_SETUP));
    }
    tell(
        &state,
        &me,
        Action::TwoFactorEnable,
        "Two-factor sign-in is on",
        "Two-factor sign-in was turned on for your Pressroom account. Signing in now asks for a code from your authenticator app.",
    )
    .await;
    Ok(HttpResponse::Ok().json(RecoveryCodesAnswer {
        message: "Two-factor sign-in is on",
        recovery_codes: codes,
    }))
}

/// The password and a current second factor, for turning it off or replacing the codes.
async fn confirm(
    state: &AppState,
    req: &HttpRequest,
    me: &AuthUser,
    body: PasswordCodeBody,
) -> ApiResult<TwoFactor> {
    let Some(tf) = two_factor::find(&state.db, me.user.id)
        .await?
        .filter(|t| t.enabled)
    else {
        return Err(ApiError::bad_request(MSG_NOT_ON));
    };
    if let Some(proof) = &body.passkey {
        crate::services::passkey_account::confirm_step_up(state, &me.user, proof).await?;
        return Ok(tf);
    }
    let Some(stored) = me.user.password_hash.clone() else {
        return Err(ApiError::bad_request(MSG_NO_PASSWORD));
    };
    if body.password.is_empty() {
        return Err(ApiError::bad_request("Password is required"));
    }
    limit(state, req, &me.id_hex()).await?;
    if !password::verify(body.password, Some(stored)).await? {
        return Err(ApiError::invalid("invalid_credentials", MSG_WRONG_PASSWORD));
    }
    check_second_factor(state, &tf, &body.code).await?;
    Ok(tf)
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn disable(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<PasswordCodeBody>,
) -> ApiResult<HttpResponse> {
    crate::services::reauth::require_recent(&state, &me).await?;
    confirm(&state, &req, &me, body.into_inner()).await?;
    two_factor::disable(&state.db, me.user.id).await?;
    tell(
        &state,
        &me,
        Action::TwoFactorDisable,
        "Two-factor sign-in is off",
        "Two-factor sign-in was turned off for your Pressroom account. Signing in now asks only for your password.",
    )
    .await;
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
    confirm(&state, &req, &me, body.into_inner()).await?;
    let codes = totp::new_recovery_codes();
    if !two_factor::replace_recovery_codes(
        &state.db,
        me.user.id,
        hashes(&state, &me.id_hex(), &codes),
    )
    .await?
    {
        return Err(ApiError::bad_request(MSG_NOT_ON));
    }
    tell(
        &state,
        &me,
        Action::RecoveryCodesReplace,
        "New recovery codes",
        "New recovery codes were made for your Pressroom account; the old ones no longer work.",
    )
    .await;
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
    if body.challenge.trim().is_empty() {
        return Err(ApiError::bad_request("The sign-in challenge is required"));
    }
    let key = challenge_key(&body.challenge);
    let Some(challenge) = two_factor::find_challenge(&state.db, &key).await? else {
        return Err(ApiError::unauthorized_code(
            "invalid_challenge",
            MSG_BAD_CHALLENGE,
        ));
    };
    limit(&state, &req, &challenge.user_id.to_hex()).await?;
    let Some(tf) = two_factor::find(&state.db, challenge.user_id)
        .await?
        .filter(|t| t.enabled)
    else {
        // Turned off meanwhile: the password alone was enough, but the challenge is spent.
        two_factor::consume_challenge(&state.db, &key).await?;
        return Err(ApiError::unauthorized_code(
            "invalid_challenge",
            MSG_BAD_CHALLENGE,
        ));
    };
    check_second_factor(&state, &tf, &body.code).await?;
    if !two_factor::consume_challenge(&state.db, &key).await? {
        return Err(ApiError::unauthorized_code(
            "invalid_challenge",
            MSG_BAD_CHALLENGE,
        ));
    }
    let user = users::find_by_id(&state.db, challenge.user_id)
        .await?
        .ok_or_else(|| ApiError::unauthorized_code("invalid_challenge", MSG_BAD_CHALLENGE))?;
    if user.blocked {
        return Err(ApiError::forbidden(MSG_BLOCKED));
    }
    tracing::info!(user_id = %user.id, "signed in with a second factor");
    session_response(&state, &req, &user, HttpResponse::Ok()).await
}
