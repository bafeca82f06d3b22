//! `POST /api/auth/logout`: revokes the presented token and clears the cookie.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpRequest, HttpResponse};

use super::cleared_cookie;
use crate::auth::{authenticate_with, token_from_request};
use crate::error::{ApiError, ApiResult};
use crate::persistence::now;
use crate::persistence::revoked_tokens::{self, RevokedToken};
use crate::state::AppState;

pub const MSG_LOGGED_OUT: &str = "Logged out successfully";

#[tracing::instrument(skip_all)]
pub async fn logout(state: web::Data<AppState>, req: HttpRequest) -> ApiResult<HttpResponse> {
    if let Some(token) = token_from_request(&req) {
        match authenticate_with(&state.db, &state.tokens, &token).await {
            Ok(me) => {
                revoked_tokens::revoke(
                    &state.db,
                    &RevokedToken {
                        id: me.claims.jti.clone(),
                        user_id: me.claims.sub.clone(),
                        expires_at: mongodb::bson::DateTime::from_millis(
                            me.claims.exp.saturating_mul(1000),
                        ),
                        revoked_at: now(),
                    },
                )
                .await?;
                crate::persistence::sessions::end_by_id(&state.db, &me.claims.jti).await?;
                crate::live::sessions_ended(&state.realtime, &me.claims.sub);
                tracing::info!(user_id = %me.claims.sub, "logged out");
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
