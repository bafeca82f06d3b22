//! Step-up: what an action that changes money or security asks of the session first (it signed
//! in or confirmed its password in the last [`REAUTH_MINUTES`] minutes). The confirmation itself
//! is `POST /api/auth/reauth` (`routes::auth::reauth`); it, deleting the account and changing
//! the password check the password the same way ([`confirm_password`]).

use crate::auth::{password, AuthUser};
use crate::error::{ApiError, ApiResult};
use crate::persistence::sessions;
use crate::ratelimit::Kind;
use crate::state::AppState;

/// Minutes a confirmation (or a sign-in) lasts for step-up.
pub const REAUTH_MINUTES: i64 = 10;

pub const MSG_WRONG_PASSWORD: &str = "Password is incorrect";
pub const MSG_SIGN_IN_AGAIN: &str =
    "Your account has no password. Sign in again with Google to confirm it's you.";

pub const MSG_REAUTH_REQUIRED: &str =
    "Please confirm your password to continue. This keeps your account safe if someone else is using your device.";

/// Refuses with 403 `reauth_required` unless this session signed in or confirmed its password
/// in the last [`REAUTH_MINUTES`] minutes.
pub async fn require_recent(state: &AppState, me: &AuthUser) -> ApiResult<()> {
    let session = sessions::find(&state.db, &me.claims.jti).await?;
    let limit = chrono::Utc::now() - chrono::Duration::minutes(REAUTH_MINUTES);
    let recent = session.is_some_and(|s| {
        let last = s.reauth_at.unwrap_or(s.created_at).max(s.created_at);
        last.to_chrono() >= limit
    });
    if recent {
        Ok(())
    } else {
        Err(ApiError::ForbiddenCode {
            code: "reauth_required",
            message: MSG_REAUTH_REQUIRED.to_string(),
        })
    }
}

/// Checks `given` against the password `stored` for `me`, counted as a sign-in attempt against
/// the account's and the address's sign-in limits (429 past them); a wrong password answers 400
/// `invalid_credentials` with `wrong`.
pub async fn confirm_password(
    state: &AppState,
    me: &AuthUser,
    address: &str,
    stored: String,
    given: String,
    wrong: &'static str,
) -> ApiResult<()> {
    state
        .limiter
        .hit_both(
            (Kind::LoginAccount, &me.user.email),
            (Kind::LoginAddress, address),
        )
        .await?;
    if password::verify(given, Some(stored)).await? {
        Ok(())
    } else {
        Err(ApiError::invalid("invalid_credentials", wrong))
    }
}

pub const MSG_SESSION_UNKNOWN: &str = "Please log in again to continue.";

/// Notes that `me` confirmed who they are in this session now; answers until when it counts.
pub async fn mark_confirmed(state: &AppState, me: &AuthUser) -> ApiResult<String> {
    if !sessions::mark_reauth(&state.db, &me.claims.jti).await? {
        return Err(ApiError::unauthorized_code(
            "session_unknown",
            MSG_SESSION_UNKNOWN,
        ));
    }
    let until = chrono::Utc::now() + chrono::Duration::minutes(REAUTH_MINUTES);
    Ok(until.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
}
