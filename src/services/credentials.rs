//! Signing up and in with an email and a password, and what the codes sent by email unlock:
//! the login check (within the login limits), the account created at signup, a password reset,
//! an email verified, and the codes sent for both (within the sending limits). Signing out
//! revokes the token of the session, or every token of the account.

use mongodb::bson::oid::ObjectId;

use crate::auth::password::{self, Password};
use crate::auth::{AuthUser, MSG_BLOCKED};
use crate::domain::{Email, PersonName};
use crate::error::{ApiError, ApiResult};
use crate::persistence::now;
use crate::persistence::revoked_tokens::{self, RevokedToken};
use crate::persistence::users::{self, normalize_email, NewUser, User};
use crate::ratelimit::Kind;
use crate::services::codes::{check_code, check_reset_code, send_code, Purpose};
use crate::state::AppState;

pub const MSG_BAD_CREDENTIALS: &str = "Invalid email or password";
pub const MSG_MAIL_FAILED: &str =
    "We could not send the email right now. Please try again in a few minutes.";

/// What a password login comes to.
pub enum Login {
    /// The password is right and the account has no second factor: sign in.
    SignedIn(User),
    /// The password is right; the second factor is asked next.
    SecondFactor(User),
}

/// Checks `email` and `password` from client address `address` within the login limits (per
/// account and per address): the same answer for an unknown account and a wrong password.
pub async fn login(
    state: &AppState,
    address: &str,
    email: &str,
    password: String,
) -> ApiResult<Login> {
    let email = normalize_email(email);
    if email.is_empty() || password.is_empty() {
        return Err(ApiError::bad_request("Email and password are required"));
    }
    state
        .limiter
        .hit_both((Kind::LoginAccount, &email), (Kind::LoginAddress, address))
        .await?;
    let user = users::find_by_email(&state.db, &email).await?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    let ok = password::verify(password, stored).await?;
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
        return Ok(Login::SecondFactor(user));
    }
    tracing::info!(user_id = %user.id, "logged in");
    Ok(Login::SignedIn(user))
}

/// Creates an account (not verified yet) and, with `send_email`, mails its verification code
/// (a failed mail shows in the email log and the user can ask again).
pub async fn signup(
    state: &AppState,
    name: PersonName,
    email: Email,
    password: Password,
    send_email: bool,
) -> ApiResult<User> {
    let hash = password::hash(password).await?;
    let user = users::create(
        &state.db,
        NewUser {
            name: name.into_string(),
            email: email.as_str().to_string(),
            password_hash: Some(hash),
            is_account_verified: false,
            avatar: None,
        },
    )
    .await?;
    tracing::info!(user_id = %user.id, "account created");
    if send_email {
        send_code(state, Purpose::VerifyEmail, &user).await?;
    }
    Ok(user)
}

/// Mails a password-reset code to `email` from client address `address` (within the sending
/// limits), when an active account has that email; says nothing either way.
pub async fn send_reset_code(state: &AppState, address: &str, email: &Email) -> ApiResult<()> {
    state
        .limiter
        .hit_both(
            (Kind::OtpSendAccount, email.as_str()),
            (Kind::OtpSendAddress, address),
        )
        .await?;
    if let Some(user) = users::find_by_email(&state.db, email.as_str()).await? {
        if !user.blocked && !send_code(state, Purpose::ResetPassword, &user).await? {
            tracing::warn!(user_id = %user.id, "password reset mail could not be sent");
        }
    }
    Ok(())
}

/// Mails `me` a verification code from client address `address` (within the sending limits);
/// 503 when the mail cannot go now.
pub async fn send_verify_code(state: &AppState, me: &AuthUser, address: &str) -> ApiResult<()> {
    state
        .limiter
        .hit_both(
            (Kind::OtpSendAccount, &me.id_hex()),
            (Kind::OtpSendAddress, address),
        )
        .await?;
    if !send_code(state, Purpose::VerifyEmail, &me.user).await? {
        return Err(ApiError::Unavailable(anyhow::anyhow!("{MSG_MAIL_FAILED}")));
    }
    Ok(())
}

/// Sets a new password for the account of `email` with its reset code (used up), from client
/// address `address`: every session of the account ends. An unknown account answers as a
/// wrong code does.
pub async fn reset_password(
    state: &AppState,
    address: &str,
    email: &Email,
    code: &str,
    new_password: Password,
) -> ApiResult<()> {
    let user = check_reset_code(state, address, email, code, true).await?;
    if let Some(user) = user {
        let hash = password::hash(new_password).await?;
        users::set_password(&state.db, user.id, &hash).await?;
        crate::live::sessions_ended(&state.realtime, &user.id.to_hex());
        tracing::info!(user_id = %user.id, "password reset; sessions ended");
    }
    Ok(())
}

/// Verifies the email of account `user_id` with its code (used up), from client address
/// `address` within the code-check limits; an account already verified stays so.
pub async fn verify_email(
    state: &AppState,
    address: &str,
    user_id: ObjectId,
    code: &str,
) -> ApiResult<()> {
    state
        .limiter
        .hit_both(
            (Kind::OtpCheckAccount, &user_id.to_hex()),
            (Kind::OtpCheckAddress, address),
        )
        .await?;
    let user = users::find_by_id(&state.db, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("User not found"))?;
    if user.is_account_verified {
        return Ok(());
    }
    check_code(state, Purpose::VerifyEmail, Some(user.id), code, true).await?;
    users::mark_verified(&state.db, user.id).await?;
    tracing::info!(user_id = %user.id, "email verified");
    Ok(())
}

/// Sets `me`'s new password (checked, the old one or a passkey confirmed) and ends every session
/// of the account; answers the account as it is now (the caller starts a new session).
pub async fn change_password(
    state: &AppState,
    me: &AuthUser,
    new_password: Password,
) -> ApiResult<User> {
    let hash = password::hash(new_password).await?;
    let user = users::set_password(&state.db, me.user.id, &hash)
        .await?
        .ok_or_else(|| ApiError::not_found("User not found"))?;
    crate::live::sessions_ended(&state.realtime, &user.id.to_hex());
    tracing::info!(user_id = %user.id, "password changed; other sessions ended");
    Ok(user)
}

/// Ends the session `me` signed in with: its token is revoked and its tabs are closed.
pub async fn sign_out(state: &AppState, me: &AuthUser) -> ApiResult<()> {
    revoked_tokens::revoke(
        &state.db,
        &RevokedToken {
            id: me.claims.jti.clone(),
            user_id: me.claims.sub.clone(),
            expires_at: mongodb::bson::DateTime::from_millis(me.claims.exp.saturating_mul(1000)),
            revoked_at: now(),
        },
    )
    .await?;
    crate::persistence::sessions::end_by_id(&state.db, &me.claims.jti).await?;
    crate::live::sessions_ended(&state.realtime, &me.claims.sub);
    tracing::info!(user_id = %me.claims.sub, "logged out");
    Ok(())
}

/// Ends every session of `me`'s account (this one too) and closes their tabs.
pub async fn sign_out_everywhere(state: &AppState, me: &AuthUser) -> ApiResult<()> {
    users::end_sessions(&state.db, me.user.id).await?;
    crate::live::sessions_ended(&state.realtime, &me.id_hex());
    tracing::info!(user_id = %me.user.id, "logged out everywhere");
    Ok(())
}
