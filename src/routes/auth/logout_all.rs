//! `POST /api/auth/logout-all` → {message}: "Log out everywhere". Every token of the signed-in
//! user stops working (this one too), their live sockets are closed and the cookie is cleared.

use crate::routes::answers::MessageAnswer;
use actix_web::{web, HttpResponse};

use super::cleared_cookie;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::credentials;
use crate::state::AppState;

pub const MSG_LOGGED_OUT_EVERYWHERE: &str = "Logged out of every session";

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn logout_all(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    credentials::sign_out_everywhere(&state, &me).await?;
    Ok(HttpResponse::Ok()
        .cookie(cleared_cookie(&state))
        .json(MessageAnswer::new(MSG_LOGGED_OUT_EVERYWHERE)))
}
