//! `GET /api/admin/reading-details/{postId}` (administrators) → {postId, title, totalTimeSpent,
//! averageTimeSpent, readers, sessions, details}: who read a post for how long, longest first.
//! Each detail is {reader, user {_id, name, email, avatar} or null for guests, guest,
//! timeSpent, sessions, lastReadAt}; at most `MAX_DETAILS` are listed. Times are seconds.

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::object_id;
use crate::persistence::{posts, reading_time, users};
use crate::routes::post::analytics_post::average;
use crate::routes::post::MSG_POST_NOT_FOUND;
use crate::routes::user::iso;
use crate::state::AppState;

/// Most readers listed.
pub const MAX_DETAILS: usize = 200;

#[tracing::instrument(skip(state, _admin))]
pub async fn reading_details(
    state: web::Data<AppState>,
    _admin: AdminUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&post_id, "post id")?;
    let post = posts::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let readers = reading_time::readers_of(&state.db, id).await?;
    let total: i64 = readers.iter().map(|r| r.seconds).sum();
    let sessions: i64 = readers.iter().map(|r| r.sessions).sum();
    let count = readers.len() as u64;
    let mut details = Vec::new();
    for r in readers.into_iter().take(MAX_DETAILS) {
        let user = match r.user {
            Some(uid) => users::find_by_id(&state.db, uid).await?.map(|u| {
                json!({ "_id": u.id.to_hex(), "name": u.name, "email": u.email, "avatar": u.avatar })
            }),
            None => None,
        };
        details.push(json!({
            "reader": r.reader,
            "guest": r.user.is_none(),
            "user": user,
            "timeSpent": r.seconds,
            "sessions": r.sessions,
            "lastReadAt": iso(r.last_read_at),
        }));
    }
    Ok(HttpResponse::Ok().json(json!({
        "postId": id.to_hex(),
        "title": post.title,
        "totalTimeSpent": total,
        "averageTimeSpent": average(total, count),
        "readers": count,
        "sessions": sessions,
        "details": details,
    })))
}
