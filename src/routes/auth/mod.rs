//! `/api/auth/*`: accounts, sessions and one-time codes.

pub mod change_password;
pub mod check;
pub mod google_login;
pub mod login;
pub mod logout;
pub mod logout_all;
pub mod passkeys;
pub mod reauth;
pub mod reset_password;
pub mod send_reset_otp;
pub mod send_verify_otp;
pub mod sessions;
pub mod signup;
pub mod two_factor;
pub mod verify_email;
pub mod verify_reset_otp;

use actix_web::{HttpRequest, HttpResponse};
use chrono::Utc;
use serde::Serialize;

use crate::auth::otp;
use crate::domain::Email;
use crate::error::{ApiError, ApiResult};
use crate::mail::{MailKind, Outgoing};
use crate::net::client_key;
use crate::persistence::otps::{self, Purpose};
use crate::persistence::sessions as sessions_db;
use crate::persistence::users::{self, User};
use crate::ratelimit::Kind;
use crate::routes::cookies::{cleared_cookie, session_cookie};
use crate::state::AppState;

pub const MSG_BAD_CREDENTIALS: &str = "Invalid email or password";
pub const MSG_OTP_MALFORMED: &str = "The code must be 6 digits";
pub const MSG_OTP_NONE: &str = "No active code. Please request a new one.";
pub const MSG_OTP_EXPIRED: &str = "This code has expired. Please request a new one.";
pub const MSG_OTP_EXHAUSTED: &str = "Too many wrong attempts. Please request a new code.";
pub const MSG_MAIL_FAILED: &str =
    "We could not send the email right now. Please try again in a few minutes.";

/// The body of a signup or login answer.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionBody {
    #[serde(rename = "_id")]
    pub id: String,
    pub full_name: String,
    pub email: String,
    pub role: &'static str,
    pub token: String,
    pub is_account_verified: bool,
    /// Present (true) when this sign-in cancelled the account's scheduled deletion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_cancelled: Option<bool>,
}

/// Issues a token for `user`, records the session and answers with the signup/login shape and
/// the cookie.
pub async fn session_response(
    state: &AppState,
    req: &HttpRequest,
    user: &User,
    builder: actix_web::HttpResponseBuilder,
) -> ApiResult<HttpResponse> {
    session_response_by(state, req, user, builder, None).await
}

/// [`session_response`] for a sign-in by `method` (`passkey`), noted on the session.
pub async fn session_response_by(
    state: &AppState,
    req: &HttpRequest,
    user: &User,
    mut builder: actix_web::HttpResponseBuilder,
    method: Option<&str>,
) -> ApiResult<HttpResponse> {
    let token = start_session(state, req, user, method).await?;
    let cancelled = crate::accounts::cancel_on_sign_in(state, user).await?;
    Ok(builder
        .cookie(session_cookie(state, &token))
        .json(SessionBody {
            id: user.id.to_hex(),
            full_name: user.name.clone(),
            email: user.email.clone(),
            role: user.role.as_str(),
            token,
            is_account_verified: user.is_account_verified,
            deletion_cancelled: cancelled.then_some(true),
        }))
}

/// Issues a token for `user` and records its session (device, address, place). The first
/// sign-in from a device the account has not used before, on an account that has signed in
/// before, sends the "New sign-in to your account" email.
pub async fn start_session(
    state: &AppState,
    req: &HttpRequest,
    user: &User,
    method: Option<&str>,
) -> ApiResult<String> {
    let (token, claims) =
        state
            .tokens
            .issue(&user.id.to_hex(), user.role.as_str(), user.token_version)?;
    let user_agent = req
        .headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .chars()
        .take(512)
        .collect::<String>();
    let device = sessions::describe_device(&user_agent);
    let ip = crate::net::client_ip(req, &state.trusted_proxies);
    let place = state.live.geoip.locate(ip);
    let seen_before = sessions_db::any_for_user(&state.db, user.id).await?;
    let known = seen_before && sessions_db::device_known(&state.db, user.id, &device).await?;
    let now = mongodb::bson::DateTime::now();
    let record = sessions_db::Session {
        id: claims.jti.clone(),
        user_id: user.id,
        ver: user.token_version,
        user_agent,
        device: device.clone(),
        ip: ip.map(|ip| ip.to_string()),
        city: place.city.clone(),
        country: place.country.clone(),
        created_at: now,
        last_seen_at: now,
        expires_at: mongodb::bson::DateTime::from_millis(claims.exp.saturating_mul(1000)),
        ended_at: None,
        reauth_at: None,
        method: method.map(str::to_string),
    };
    sessions_db::insert(&state.db, &record).await?;
    if seen_before && !known {
        let when = Utc::now().format("%Y-%m-%d %H:%M UTC");
        let body = format!(
            "Hello {},\n\nYour Pressroom account was just signed in to from a new device.\n\nDevice: {device}\nPlace: {}, {}\nTime: {when}\n\nIf this was you, there is nothing to do. If it was not, end that session and change your password:\n{}\n",
            user.name,
            place.city,
            place.country,
            state.settings.public_link("/user-setting#sessions"),
        );
        let mail = Outgoing::new(
            MailKind::Security,
            &user.email,
            "New sign-in to your account",
            body,
        )
        .for_user(user.id);
        state.mailer.send_mail(mail).await;
    }
    Ok(token)
}

/// Creates (or replaces) the code for `purpose` and mails it. Returns whether the mail went out.
pub async fn send_code(state: &AppState, purpose: Purpose, user: &User) -> ApiResult<bool> {
    let (kind, subject, body) = issue_code(state, purpose, user).await?;
    let mail = Outgoing::new(kind, &user.email, subject, body).for_user(user.id);
    Ok(state.mailer.send_mail(mail).await.success)
}

use crate::services::codes::issue_code;

/// Checks a password-reset code for `email` within the code-check limits (per account and per
/// client address); answers the account, if there is one. `consume`: the code is used up.
pub async fn check_reset_code(
    state: &AppState,
    req: &HttpRequest,
    email: &Email,
    code: &str,
    consume: bool,
) -> ApiResult<Option<User>> {
    let address = client_key(req, &state.trusted_proxies);
    state
        .limiter
        .hit_both(
            (Kind::OtpCheckAccount, email.as_str()),
            (Kind::OtpCheckAddress, &address),
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

#[derive(Serialize, utoipa::ToSchema)]
pub struct UserBody {
    #[serde(rename = "_id")]
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) email: String,
    pub(crate) role: &'static str,
}

// Shared by the Google sign-in (`google_login`) and its second step (`two_factor`).
/// The answer: the account signed in (or created) and its session.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GoogleSession {
    pub(crate) user: UserBody,
    pub(crate) token: String,
    pub(crate) is_account_verified: bool,
    /// Present (true) when this sign-in cancelled the account's scheduled deletion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) deletion_cancelled: Option<bool>,
}
