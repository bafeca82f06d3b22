//! `GET /api/admin/reading-details/{postId}` (administrators) → {postId, title, totalTimeSpent,
//! averageTimeSpent, readers, sessions, details}: who read a post for how long, longest first.
//! Each detail is {reader, user {_id, name, email, avatar} or null for guests, guest,
//! timeSpent, sessions, lastReadAt}; at most `MAX_DETAILS` are listed. Times are seconds.

use actix_web::{web, HttpResponse};

use crate::auth::AdminUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::analytics;
use crate::state::AppState;

#[tracing::instrument(skip(state, _admin))]
pub async fn reading_details(
    state: web::Data<AppState>,
    _admin: AdminUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&post_id, "post id")?;
    Ok(HttpResponse::Ok().json(analytics::reading_details(&state, id).await?))
}
