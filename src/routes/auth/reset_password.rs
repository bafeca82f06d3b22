//! `POST /api/auth/reset-password` {email, otp, newPassword} → {message}. Ends every session.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::check_reset_code;
use crate::auth::password::{self, Password};
use crate::domain::Email;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::persistence::users;
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
    let user = check_reset_code(&state, &req, &email, &body.otp, true).await?;
    if let Some(user) = user {
        let hash = password::hash(new_password).await?;
        users::set_password(&state.db, user.id, &hash).await?;
        crate::live::sessions_ended(&state.realtime, &user.id.to_hex());
        tracing::info!(user_id = %user.id, "password reset; sessions ended");
    }
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_RESET_DONE)))
}
