//! `POST /api/auth/send-verify-otp` {userId} → {message}. Signed-in users, for themselves.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::services::credentials;
use crate::state::AppState;

pub const MSG_SENT: &str = "Verification code sent to your email";
pub const MSG_ALREADY_VERIFIED: &str = "Your account is already verified";

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendVerifyBody {
    #[serde(default)]
    user_id: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn send_verify_otp(
    state: web::Data<AppState>,
    req: HttpRequest,
    me: AuthUser,
    body: ApiJson<SendVerifyBody>,
) -> ApiResult<HttpResponse> {
    if let Some(id) = body.into_inner().user_id.filter(|s| !s.trim().is_empty()) {
        if id.trim() != me.id_hex() {
            return Err(ApiError::forbidden("You can only verify your own account"));
        }
    }
    if me.user.is_account_verified {
        return Err(ApiError::invalid("already_verified", MSG_ALREADY_VERIFIED));
    }
    let address = client_key(&req, &state.trusted_proxies);
    credentials::send_verify_code(&state, &me, &address).await?;
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_SENT)))
}
