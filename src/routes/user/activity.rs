//! A user's own activity: `GET /api/user/activity/{id}?page&limit` → {activity, total, page,
//! totalPages} for the user themselves or an administrator (others 403), newest first. Entries
//! are `{_id, type, details, postId, targetUserId, createdAt}`. Handlers record entries with
//! `services::activity::record_activity`.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::params::{paging, total_pages};
use crate::error::{ApiError, ApiResult};
use crate::services::activity::{self, ActivityView};
use crate::state::AppState;

/// Default and largest page of activity.
pub const ACTIVITY_LIMIT: i64 = 50;
pub const MAX_ACTIVITY_LIMIT: i64 = 200;
pub const MSG_NOT_YOUR_ACTIVITY: &str = "You can only view your own activity";

/// `{activity, total, page, totalPages}`: one page of a user's activity.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivityAnswer {
    activity: Vec<ActivityView>,
    total: u64,
    page: u64,
    total_pages: u64,
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActivityQuery {
    #[serde(default)]
    page: Option<String>,
    #[serde(default)]
    limit: Option<String>,
}

#[tracing::instrument(skip(state, me))]
pub async fn get_activity(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    query: web::Query<ActivityQuery>,
) -> ApiResult<HttpResponse> {
    let user = object_id(&id, "user id")?;
    if user != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_YOUR_ACTIVITY));
    }
    let (page, limit) = paging(
        query.page.as_deref(),
        query.limit.as_deref(),
        ACTIVITY_LIMIT,
        MAX_ACTIVITY_LIMIT,
    )?;
    let skip = (page - 1) * u64::try_from(limit).unwrap_or(0);
    let (entries, total) = activity::page(&state, user, skip, limit).await?;
    Ok(HttpResponse::Ok().json(ActivityAnswer {
        activity: entries,
        total,
        page,
        total_pages: total_pages(total, limit),
    }))
}
