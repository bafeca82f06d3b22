//! `DELETE /api/user/activity/clear` → {message, deletedCount}: removes all of the caller's
//! activity. `DELETE /api/user/activity/clear-old` → {message, deletedCount}: removes entries
//! older than `ACTIVITY_RETENTION_DAYS` days, keeping the last 30 days.

use actix_web::{web, HttpResponse};
use mongodb::bson::DateTime;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::{activity, now};
use crate::routes::answers::DeletedAnswer;
use crate::state::AppState;

/// How many days of activity `clear-old` keeps.
pub const ACTIVITY_RETENTION_DAYS: i64 = 30;
pub const MSG_CLEARED: &str = "Activity cleared successfully";
pub const MSG_CLEARED_OLD: &str = "Activity older than 30 days cleared successfully";

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn clear(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let deleted = activity::clear(&state.db, me.user.id, None).await?;
    Ok(HttpResponse::Ok().json(DeletedAnswer::new(MSG_CLEARED, deleted)))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn clear_old(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let cutoff = DateTime::from_millis(
        now().timestamp_millis() - ACTIVITY_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    );
    let deleted = activity::clear(&state.db, me.user.id, Some(cutoff)).await?;
    Ok(HttpResponse::Ok().json(DeletedAnswer::new(MSG_CLEARED_OLD, deleted)))
}
