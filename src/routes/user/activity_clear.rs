//! `DELETE /api/user/activity/clear` → {message, deletedCount}: removes all of the caller's
//! activity. `DELETE /api/user/activity/clear-old` → {message, deletedCount}: removes entries
//! older than `services::activity::ACTIVITY_RETENTION_DAYS` days, keeping the last 30 days.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::routes::answers::DeletedAnswer;
use crate::services::activity;
use crate::state::AppState;

pub const MSG_CLEARED: &str = "Activity cleared successfully";
pub const MSG_CLEARED_OLD: &str = "Activity older than 30 days cleared successfully";

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn clear(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let deleted = activity::clear(&state, me.user.id, false).await?;
    Ok(HttpResponse::Ok().json(DeletedAnswer::new(MSG_CLEARED, deleted)))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn clear_old(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let deleted = activity::clear(&state, me.user.id, true).await?;
    Ok(HttpResponse::Ok().json(DeletedAnswer::new(MSG_CLEARED_OLD, deleted)))
}
