//! `GET /api/auth/sessions` → {sessions}: where the signed-in user is signed in;
//! `DELETE /api/auth/sessions/{id}` → {message}: ends one of them. The ended session's token is
//! revoked (every node checks revocations on each request) and its sockets are closed on every
//! node; another user's session id is a 404 like an unknown one.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::routes::answers::MessageAnswer;
use crate::services::sessions::{self, SessionItem};
use crate::state::AppState;

pub const MSG_SESSION_ENDED: &str = "Signed out of that session";

/// `{sessions}`, newest first.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SessionsAnswer {
    sessions: Vec<SessionItem>,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let sessions = sessions::list(&state, &me).await?;
    Ok(HttpResponse::Ok().json(SessionsAnswer { sessions }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn end(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    sessions::end(&state, &me, &id).await?;
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_SESSION_ENDED)))
}
