//! One-time codes (email verification, password reset): issued here, checked by the auth handlers.

use chrono::Utc;

use crate::auth::otp;
use crate::domain::Email;
use crate::error::{ApiError, ApiResult};
use crate::mail::{MailKind, Outgoing};
use crate::persistence::otps::{self, Otp};
use crate::persistence::users::{self, User};
use crate::ratelimit::Kind;
use crate::state::AppState;

pub use crate::persistence::otps::Purpose;

pub const MSG_OTP_MALFORMED: &str = "The code must be 6 digits";
pub const MSG_OTP_NONE: &str = "No active code. Please request a new one.";
pub const MSG_OTP_EXPIRED: &str = "This code has expired. Please request a new one.";
pub const MSG_OTP_EXHAUSTED: &str = "Too many wrong attempts. Please request a new code.";

/// Creates (or replaces) the code for `purpose` and writes the message that carries it: its
/// kind, subject and text. A code is stored only as a hash, so a message that failed is sent
/// again with a new code from here.
pub async fn issue_code(
    state: &AppState,
    purpose: Purpose,
    user: &User,
) -> ApiResult<(MailKind, &'static str, String)> {
    let code = otp::generate();
    let key = otps::key(purpose, user.id);
    let now = Utc::now();
    let ttl = state.settings.auth.otp_ttl_minutes;
    let record = Otp {
        id: key.clone(),
        user_id: user.id,
        code_hash: otp::hash(state.tokens.secret_bytes(), &key, &code),
        attempts: 0,
        expires_at: mongodb::bson::DateTime::from_chrono(now + chrono::Duration::minutes(ttl)),
        created_at: mongodb::bson::DateTime::from_chrono(now),
    };
    otps::replace(&state.db, &record).await?;
    Ok(match purpose {
        Purpose::VerifyEmail => (
            MailKind::VerifyOtp,
            "Your Pressroom verification code",
            format!(
                "Hello {},\n\nYour verification code is {code}.\nIt expires in {ttl} minutes.\n\nIf you did not create a Pressroom account, you can ignore this message.\n",
                user.name
            ),
        ),
        Purpose::ResetPassword => (
            MailKind::ResetOtp,
            "Your Pressroom password reset code",
            format!(
                "Hello {},\n\nYour password reset code is {code}.\nIt expires in {ttl} minutes.\n\nIf you did not ask to reset your password, you can ignore this message; your password stays as it is.\n",
                user.name
            ),
        ),
    })
}

/// Creates (or replaces) the code for `purpose` and mails it. Returns whether the mail went out.
pub async fn send_code(state: &AppState, purpose: Purpose, user: &User) -> ApiResult<bool> {
    let (kind, subject, body) = issue_code(state, purpose, user).await?;
    let mail = Outgoing::new(kind, &user.email, subject, body).for_user(user.id);
    Ok(state.mailer.send_mail(mail).await.success)
}

/// Checks a password-reset code for `email` within the code-check limits (per account and per
/// client address `address`); answers the account, if there is one. `consume`: the code is used up.
pub async fn check_reset_code(
    state: &AppState,
    address: &str,
    email: &Email,
    code: &str,
    consume: bool,
) -> ApiResult<Option<User>> {
    state
        .limiter
        .hit_both(
            (Kind::OtpCheckAccount, email.as_str()),
            (Kind::OtpCheckAddress, address),
        )
        .await?;
    let user = users::find_by_email(&state.db, email.as_str()).await?;
    check_code(
        state,
        Purpose::ResetPassword,
        user.as_ref().map(|u| u.id),
        code,
        consume,
    )
    .await?;
    Ok(user)
}

/// Checks a code for `purpose`; a wrong code counts a try, the last allowed wrong try kills it.
/// With `consume`, a correct code is used up.
pub async fn check_code(
    state: &AppState,
    purpose: Purpose,
    user_id: Option<mongodb::bson::oid::ObjectId>,
    code: &str,
    consume: bool,
) -> ApiResult<()> {
    let code = code.trim();
    if !otp::is_well_formed(code) {
        return Err(ApiError::invalid("invalid_otp", MSG_OTP_MALFORMED));
    }
    // An unknown account looks exactly like an account without a live code.
    let Some(user_id) = user_id else {
        return Err(ApiError::invalid("no_active_otp", MSG_OTP_NONE));
    };
    let Some(record) = otps::find(&state.db, purpose, user_id).await? else {
        return Err(ApiError::invalid("no_active_otp", MSG_OTP_NONE));
    };
    let max = state.settings.auth.otp_max_attempts;
    if record.expires_at < mongodb::bson::DateTime::now() {
        otps::remove(&state.db, &record.id).await?;
        return Err(ApiError::invalid("otp_expired", MSG_OTP_EXPIRED));
    }
    if record.attempts >= max {
        otps::remove(&state.db, &record.id).await?;
        return Err(ApiError::invalid("otp_exhausted", MSG_OTP_EXHAUSTED));
    }
    if !otp::matches(
        state.tokens.secret_bytes(),
        &record.id,
        code,
        &record.code_hash,
    ) {
        let attempts = otps::record_failure(&state.db, &record.id)
            .await?
            .map(|r| r.attempts)
            .unwrap_or(max);
        let left = max - attempts;
        if left <= 0 {
            otps::remove(&state.db, &record.id).await?;
            return Err(ApiError::invalid("otp_exhausted", MSG_OTP_EXHAUSTED));
        }
        return Err(ApiError::invalid(
            "invalid_otp",
            format!(
                "Incorrect code. {left} attempt{} left.",
                if left == 1 { "" } else { "s" }
            ),
        ));
    }
    if consume {
        otps::remove(&state.db, &record.id).await?;
    }
    Ok(())
}
