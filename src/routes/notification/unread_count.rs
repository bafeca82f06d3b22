//! `GET /api/notification/unread-count` → {count}.

use crate::routes::answers::CountAnswer;
use actix_web::{web, HttpResponse};

use super::signed_in;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn unread_count(state: web::Data<AppState>, user: MaybeUser) -> ApiResult<HttpResponse> {
    let me = signed_in(user)?;
    let count = crate::services::unread::count(&state, me.user.id).await?;
    Ok(HttpResponse::Ok().json(CountAnswer { count }))
}
