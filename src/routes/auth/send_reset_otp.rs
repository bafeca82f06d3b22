//! `POST /api/auth/send-reset-otp` {email} → {message}: the same answer whether or not the
//! account exists.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::domain::Email;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::services::credentials;
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
    credentials::send_reset_code(&state, &address, &email).await?;
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_RESET_SENT)))
}
