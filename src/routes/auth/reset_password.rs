//! `POST /api/auth/reset-password` {email, otp, newPassword} → {message}. Ends every session.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::auth::password::Password;
use crate::domain::Email;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::services::credentials;
use crate::state::AppState;

pub const MSG_RESET_DONE: &str =
    "Your password has been reset. You can now log in with your new password.";

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResetPasswordBody {
    email: String,
    otp: String,
    new_password: String,
}

#[tracing::instrument(skip_all)]
pub async fn reset_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<ResetPasswordBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let email = Email::parse(&body.email)?;
    let new_password = Password::parse(body.new_password)?;
    let address = client_key(&req, &state.trusted_proxies);
    credentials::reset_password(&state, &address, &email, &body.otp, new_password).await?;
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_RESET_DONE)))
}
