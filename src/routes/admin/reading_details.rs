//! `GET /api/admin/reading-details/{postId}` (administrators) → {postId, title, totalTimeSpent,
//! averageTimeSpent, readers, sessions, details}: who read a post for how long, longest first.
//! Each detail is {reader, user {_id, name, email, avatar} or null for guests, guest,
//! timeSpent, sessions, lastReadAt}; at most `MAX_DETAILS` are listed. Times are seconds.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{posts, reading_time, users};
use crate::post_view::iso;
use crate::services::analytics::average;
use crate::services::posts::MSG_POST_NOT_FOUND;
use crate::state::AppState;

/// Most readers listed.
pub const MAX_DETAILS: usize = 200;

/// Who read a post for how long (seconds), longest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadingDetails {
    pub post_id: String,
    pub title: String,
    pub total_time_spent: i64,
    pub average_time_spent: i64,
    pub readers: u64,
    pub sessions: i64,
    pub details: Vec<ReaderDetail>,
}

/// One reader of a post: a signed-in user (`user`) or a guest (`user` null).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReaderDetail {
    pub reader: String,
    pub guest: bool,
    pub user: Option<ReadingUser>,
    pub time_spent: i64,
    pub sessions: i64,
    pub last_read_at: String,
}

/// A signed-in reader (null when the account is gone).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReadingUser {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
    pub avatar: Option<String>,
}

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
            Some(uid) => users::find_by_id(&state.db, uid)
                .await?
                .map(|u| ReadingUser {
                    id: u.id.to_hex(),
                    name: u.name,
                    email: u.email,
                    avatar: u.avatar,
                }),
            None => None,
        };
        details.push(ReaderDetail {
            guest: r.user.is_none(),
            reader: r.reader,
            user,
            time_spent: r.seconds,
            sessions: r.sessions,
            last_read_at: iso(r.last_read_at),
        });
    }
    Ok(HttpResponse::Ok().json(ReadingDetails {
        post_id: id.to_hex(),
        title: post.title,
        total_time_spent: total,
        average_time_spent: average(total, count),
        readers: count,
        sessions,
        details,
    }))
}
