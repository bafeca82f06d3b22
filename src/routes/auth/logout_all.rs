//! `POST /api/auth/logout-all` → {message}: "Log out everywhere". Every token of the signed-in
//! user stops working (this one too), their live sockets are closed and the cookie is cleared.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpResponse};

use super::cleared_cookie;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::users;
use crate::state::AppState;

pub const MSG_LOGGED_OUT_EVERYWHERE: &str = "Logged out of every session";

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn logout_all(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    users::end_sessions(&state.db, me.user.id).await?;
    crate::live::sessions_ended(&state.realtime, &me.id_hex());
    tracing::info!(user_id = %me.user.id, "logged out everywhere");
    Ok(HttpResponse::Ok()
        .cookie(cleared_cookie(&state))
        .json(MessageAnswer::new(MSG_LOGGED_OUT_EVERYWHERE)))
}
