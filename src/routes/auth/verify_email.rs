//! `POST /api/auth/verify-email` {userId, otp} → {message}.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::services::credentials;
use crate::state::AppState;

pub const MSG_VERIFIED: &str = "Email verified successfully";

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyEmailBody {
    user_id: String,
    otp: String,
}

#[tracing::instrument(skip_all)]
pub async fn verify_email(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: ApiJson<VerifyEmailBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    if body.user_id.trim().is_empty() || body.otp.trim().is_empty() {
        return Err(ApiError::bad_request("userId and otp are required"));
    }
    let user_id = object_id(&body.user_id, "user id")?;
    let address = client_key(&req, &state.trusted_proxies);
    credentials::verify_email(&state, &address, user_id, &body.otp).await?;
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_VERIFIED)))
}
