//! Two-factor sign-in with an authenticator app (TOTP, RFC 6238) and recovery codes: turning
//! it on (a pending secret confirmed by a first code) and off, replacing the recovery codes, the
//! challenge a right password gets on an account with the factor on, and its completion. Each
//! code is accepted once; attempts count against the account's and the address's allowance.

use mongodb::bson::oid::ObjectId;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::audit::{self, Action, Target};
use crate::auth::{password, totp, AuthUser, MSG_BLOCKED};
use crate::error::{ApiError, ApiResult};
use crate::mail::{MailKind, Outgoing};
use crate::persistence::two_factor::{self, Challenge, TwoFactor};
use crate::persistence::users::{self, User};
use crate::ratelimit::Kind;
use crate::services::passkey_account::PasskeyAssertion;
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

fn unix_now() -> u64 {
    u64::try_from(chrono::Utc::now().timestamp()).unwrap_or(0)
}

fn challenge_key(challenge: &str) -> String {
    hex::encode(Sha256::digest(challenge.trim().as_bytes()))
}

/// Counts one second-factor attempt against the account's and the address's allowance.
async fn limit(state: &AppState, address: &str, user_id: &str) -> ApiResult<()> {
    state
        .limiter
        .hit_both(
            (Kind::OtpCheckAccount, &format!("2fa:{user_id}")),
            (Kind::OtpCheckAddress, &format!("2fa:{address}")),
        )
        .await
}

/// Checks a TOTP code (each accepted once) or a recovery code (each used once).
async fn check_second_factor(state: &AppState, tf: &TwoFactor, code: &str) -> ApiResult<()> {
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

/// Checks `code` against `user`'s second factor when it is on (nothing to check when it is not).
pub async fn check_if_on(state: &AppState, user: ObjectId, code: &str) -> ApiResult<()> {
    if let Some(tf) = two_factor::find(&state.db, user)
        .await?
        .filter(|t| t.enabled)
    {
        check_second_factor(state, &tf, code).await?;
    }
    Ok(())
}

/// Whether `user` has the second factor on.
pub async fn is_on(state: &AppState, user: ObjectId) -> ApiResult<bool> {
    Ok(two_factor::is_enabled(&state.db, user).await?)
}

/// A sign-in challenge for `user`, whose password was right, to complete with a code within
/// [`CHALLENGE_MINUTES`]; only its hash is stored.
pub async fn new_challenge(
    state: &AppState,
    user: &User,
    deletion_cancelled: bool,
) -> ApiResult<String> {
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
    Ok(challenge)
}

/// Whether `me` has the factor on, and how many recovery codes are left.
pub async fn status(state: &AppState, me: &AuthUser) -> ApiResult<(bool, usize)> {
    let tf = two_factor::find(&state.db, me.user.id).await?;
    let enabled = tf.as_ref().is_some_and(|t| t.enabled);
    let left = tf
        .filter(|t| t.enabled)
        .map_or(0, |t| t.recovery_hashes.len());
    Ok((enabled, left))
}

/// A new secret for `me` (kept pending, sealed, until a first code confirms it): the secret and
/// the `otpauth://` address its QR code carries.
pub async fn setup(state: &AppState, me: &AuthUser) -> ApiResult<(String, String)> {
    if two_factor::is_enabled(&state.db, me.user.id).await? {
        return Err(ApiError::conflict(MSG_ALREADY_ON));
    }
    let secret = totp::new_secret();
    let otpauth_url = totp::otpauth_url(&secret, &me.user.email)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("building an otpauth address")))?;
    two_factor::set_pending(&state.db, me.user.id, &state.bank_cipher.seal(&secret)).await?;
    Ok((secret, otpauth_url))
}

/// Turns the factor on for `me` with a first `code` of the pending secret (from client address
/// `address`); answers the recovery codes, shown once.
pub async fn enable(
    state: &AppState,
    address: &str,
    me: &AuthUser,
    code: &str,
) -> ApiResult<Vec<String>> {
    let tf = two_factor::find(&state.db, me.user.id).await?;
    if tf.as_ref().is_some_and(|t| t.enabled) {
        return Err(ApiError::conflict(MSG_ALREADY_ON));
    }
    let Some(sealed) = tf.and_then(|t| t.pending_secret) else {
        return Err(ApiError::bad_request(MSG_NO_SETUP));
    };
    if code.trim().is_empty() {
        return Err(ApiError::invalid("code_required", MSG_CODE_REQUIRED));
    }
    limit(state, address, &me.id_hex()).await?;
    let secret = open(state, Some(&sealed))?;
    let Some(step) = totp::matching_step(&secret, code, unix_now()) else {
        return Err(ApiError::invalid("invalid_code", MSG_WRONG_CODE));
    };
    let codes = totp::new_recovery_codes();
    let step = i64::try_from(step).unwrap_or(i64::MAX);
    if !two_factor::enable(
        &state.db,
        me.user.id,
        &sealed,
        step,
        hashes(state, &me.id_hex(), &codes),
    )
    .await?
    {
        return Err(ApiError::conflict(MSG_NO_SETUP));
    }
    tell(
        state,
        me,
        Action::TwoFactorEnable,
        "Two-factor sign-in is on",
        "Two-factor sign-in was turned on for your Pressroom account. Signing in now asks for a code from your authenticator app.",
    )
    .await;
    Ok(codes)
}

/// What confirms a change of the factor: the password and a current code, or a passkey.
pub struct Confirmation {
    pub password: String,
    pub code: String,
    pub passkey: Option<PasskeyAssertion>,
}

/// The password and a current second factor (or a passkey), for turning it off or replacing
/// the codes.
async fn confirm(
    state: &AppState,
    address: &str,
    me: &AuthUser,
    proof: Confirmation,
) -> ApiResult<TwoFactor> {
    let Some(tf) = two_factor::find(&state.db, me.user.id)
        .await?
        .filter(|t| t.enabled)
    else {
        return Err(ApiError::bad_request(MSG_NOT_ON));
    };
    if let Some(passkey) = &proof.passkey {
        crate::services::passkey_account::confirm_step_up(state, &me.user, passkey).await?;
        return Ok(tf);
    }
    let Some(stored) = me.user.password_hash.clone() else {
        return Err(ApiError::bad_request(MSG_NO_PASSWORD));
    };
    if proof.password.is_empty() {
        return Err(ApiError::bad_request("Password is required"));
    }
    limit(state, address, &me.id_hex()).await?;
    if !password::verify(proof.password, Some(stored)).await? {
        return Err(ApiError::invalid("invalid_credentials", MSG_WRONG_PASSWORD));
    }
    check_second_factor(state, &tf, &proof.code).await?;
    Ok(tf)
}

/// Turns `me`'s factor off (signed in recently, and confirmed).
pub async fn disable(
    state: &AppState,
    address: &str,
    me: &AuthUser,
    proof: Confirmation,
) -> ApiResult<()> {
    crate::services::reauth::require_recent(state, me).await?;
    confirm(state, address, me, proof).await?;
    two_factor::disable(&state.db, me.user.id).await?;
    tell(
        state,
        me,
        Action::TwoFactorDisable,
        "Two-factor sign-in is off",
        "Two-factor sign-in was turned off for your Pressroom account. Signing in now asks only for your password.",
    )
    .await;
    Ok(())
}

/// New recovery codes for `me` (confirmed); the old ones stop working. Answers the new ones.
pub async fn replace_recovery_codes(
    state: &AppState,
    address: &str,
    me: &AuthUser,
    proof: Confirmation,
) -> ApiResult<Vec<String>> {
    confirm(state, address, me, proof).await?;
    let codes = totp::new_recovery_codes();
    if !two_factor::replace_recovery_codes(
        &state.db,
        me.user.id,
        hashes(state, &me.id_hex(), &codes),
    )
    .await?
    {
        return Err(ApiError::bad_request(MSG_NOT_ON));
    }
    tell(
        state,
        me,
        Action::RecoveryCodesReplace,
        "New recovery codes",
        "New recovery codes were made for your Pressroom account; the old ones no longer work.",
    )
    .await;
    Ok(codes)
}

/// Completes sign-in `challenge` with `code` (from client address `address`): the challenge is
/// spent and the account answered, to be given a session.
pub async fn verify(
    state: &AppState,
    address: &str,
    challenge: &str,
    code: &str,
) -> ApiResult<User> {
    if challenge.trim().is_empty() {
        return Err(ApiError::bad_request("The sign-in challenge is required"));
    }
    let key = challenge_key(challenge);
    let Some(challenge) = two_factor::find_challenge(&state.db, &key).await? else {
        return Err(ApiError::unauthorized_code(
            "invalid_challenge",
            MSG_BAD_CHALLENGE,
        ));
    };
    limit(state, address, &challenge.user_id.to_hex()).await?;
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
    check_second_factor(state, &tf, code).await?;
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
    Ok(user)
}
