//! `POST /api/auth/logout`: revokes the presented token and clears the cookie.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};

use super::cleared_cookie;
use crate::auth::{authenticate_with, token_from_request};
use crate::error::{ApiError, ApiResult};
use crate::services::credentials;
use crate::state::AppState;

pub const MSG_LOGGED_OUT: &str = "Logged out successfully";

#[tracing::instrument(skip_all)]
pub async fn logout(state: web::Data<AppState>, req: HttpRequest) -> ApiResult<HttpResponse> {
    if let Some(token) = token_from_request(&req) {
        match authenticate_with(&state.db, &state.tokens, &token).await {
            Ok(me) => {
                credentials::sign_out(&state, &me).await?;
            }
            // Already unusable: nothing to revoke.
            Err(ApiError::Unauthorized { .. }) => {}
            Err(other) => return Err(other),
        }
    }
    Ok(HttpResponse::Ok()
        .cookie(cleared_cookie(&state))
        .json(MessageAnswer::new(MSG_LOGGED_OUT)))
}
