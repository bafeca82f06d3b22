//! `POST /api/auth/verify-reset-otp` {email, otp} → {message}: checks a reset code without using
//! it up.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::check_reset_code;
use crate::domain::Email;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::state::AppState;

pub const MSG_CODE_OK: &str = "Code verified. You can now choose a new password.";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct VerifyResetBody {
    email: String,
    otp: String,
}

#[tracing::instrument(skip_all)]
pub async fn verify_reset_otp(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<VerifyResetBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let email = Email::parse(&body.email)?;
    check_reset_code(&state, &req, &email, &body.otp, false).await?;
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_CODE_OK)))
}
