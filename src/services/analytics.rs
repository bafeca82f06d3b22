//! Figures shared by the analytics answers and the eligibility rules, and who read a post for
//! how long (the administrators' reading details).

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::persistence::{posts, reading_time, users};
use crate::post_view::iso;
use crate::services::posts::MSG_POST_NOT_FOUND;
use crate::state::AppState;

/// Engagement per view, to four decimals.
pub fn engagement_rate(interactions: i64, views: i64) -> f64 {
    if views <= 0 {
        return 0.0;
    }
    (interactions as f64 / views as f64 * 10_000.0).round() / 10_000.0
}

/// Average seconds per reader, rounded.
pub fn average(total: i64, readers: u64) -> i64 {
    if readers == 0 {
        return 0;
    }
    (total as f64 / readers as f64).round() as i64
}

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

/// Who read post `id` for how long, longest first (at most [`MAX_DETAILS`] readers listed).
pub async fn reading_details(state: &AppState, id: ObjectId) -> ApiResult<ReadingDetails> {
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
    Ok(ReadingDetails {
        post_id: id.to_hex(),
        title: post.title,
        total_time_spent: total,
        average_time_spent: average(total, count),
        readers: count,
        sessions,
        details,
    })
}
