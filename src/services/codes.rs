//! One-time codes (email verification, password reset): issued here, checked by the auth handlers.

use chrono::Utc;

use crate::auth::otp;
use crate::error::ApiResult;
use crate::mail::MailKind;
use crate::persistence::otps::{self, Otp, Purpose};
use crate::persistence::users::User;
use crate::state::AppState;

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
