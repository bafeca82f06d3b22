//! `POST /api/auth/send-reset-otp` {email} → {message}: the same answer whether or not the
//! account exists.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::send_code;
use crate::domain::Email;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::persistence::otps::Purpose;
use crate::persistence::users;
use crate::ratelimit::Kind;
use crate::state::AppState;

pub const MSG_RESET_SENT: &str =
    "If an account exists for this email, a password reset code has been sent.";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct SendResetBody {
    email: String,
}

#[tracing::instrument(skip_all)]
pub async fn send_reset_otp(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<SendResetBody>,
) -> ApiResult<HttpResponse> {
    let email = Email::parse(&body.into_inner().email)?;
    let address = client_key(&req, &state.trusted_proxies);
    state
        .limiter
        .hit_both(
            (Kind::OtpSendAccount, email.as_str()),
            (Kind::OtpSendAddress, &address),
        )
        .await?;
    if let Some(user) = users::find_by_email(&state.db, email.as_str()).await? {
        if !user.blocked && !send_code(&state, Purpose::ResetPassword, &user).await? {
            tracing::warn!(user_id = %user.id, "password reset mail could not be sent");
        }
    }
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_RESET_SENT)))
}
