//! `GET /api/post/analytics/user-engagement?days=30&userId` → the caller's totals across their
//! posts: {userId, posts, views, likes, bookmarks, shares, comments, totalReadingTime,
//! averageReadingTime, readers, followers, following, engagementRate, topPosts, daily}.
//! `engagementRate` is (likes + comments + shares + bookmarks) / views, 0 without views;
//! `topPosts` are the five most viewed; `daily` is the per-day series of all their posts over
//! the last `days` days (as for one post). An administrator may ask for another author with
//! `userId`; anyone else gets a 403 for someone else's numbers.

use super::post::{daily_series, Day, PostTotals};
use mongodb::bson::oid::ObjectId;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{follows, posts, reading_time};
use crate::services::analytics::average;
use crate::state::AppState;

/// How many posts `topPosts` lists.
pub const TOP_POSTS: usize = 5;

use crate::services::analytics::engagement_rate;

pub const MSG_NOT_YOUR_ANALYTICS: &str = "You can only view your own analytics";

/// One of an author's most viewed posts.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct AuthorTopPost {
    #[serde(rename = "_id")]
    id: String,
    title: String,
    slug: String,
    views: i64,
    likes: i64,
    comments: i64,
}

/// An author's figures over all their posts, with the top posts and the daily series.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EngagementAnswer {
    user_id: String,
    posts: usize,
    #[serde(flatten)]
    totals: PostTotals,
    followers: u64,
    following: u64,
    engagement_rate: f64,
    top_posts: Vec<AuthorTopPost>,
    daily: Vec<Day>,
}

/// `author`'s figures over all their posts in the last `days` days, with their top posts, for
/// themselves or an administrator (others 403).
pub async fn of_author(
    state: &AppState,
    me: &AuthUser,
    author: ObjectId,
    days: i64,
) -> ApiResult<EngagementAnswer> {
    if author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_YOUR_ANALYTICS));
    }
    let found = posts::figures_of_author(&state.db, author).await?;
    let ids: Vec<_> = found.iter().filter_map(|p| p.id).collect();
    let sum = |pick: fn(&posts::PostFigures) -> i64| found.iter().map(pick).sum::<i64>();
    let (views, likes, bookmarks, shares, comments) = (
        sum(|p| p.views),
        sum(|p| p.likes),
        sum(|p| p.bookmarks),
        sum(|p| p.shares),
        sum(|p| p.comments),
    );
    let (total_reading, readers) = reading_time::totals_for_posts(&state.db, &ids).await?;
    let mut top: Vec<&posts::PostFigures> = found.iter().collect();
    top.sort_by_key(|p| std::cmp::Reverse(p.views));
    let top: Vec<_> = top
        .into_iter()
        .take(TOP_POSTS)
        .map(|p| AuthorTopPost {
            id: p.id.map(|id| id.to_hex()).unwrap_or_default(),
            title: p.title.clone(),
            slug: p.slug.clone(),
            views: p.views,
            likes: p.likes,
            comments: p.comments,
        })
        .collect();
    let daily = daily_series(&state.db, &ids, days).await?;
    Ok(EngagementAnswer {
        user_id: author.to_hex(),
        posts: found.len(),
        totals: PostTotals {
            views,
            likes,
            bookmarks,
            shares,
            comments,
            total_reading_time: total_reading,
            average_reading_time: average(total_reading, readers),
            readers,
        },
        followers: follows::follower_count(&state.db, author).await?,
        following: follows::following_count(&state.db, author).await?,
        engagement_rate: engagement_rate(likes + comments + shares + bookmarks, views),
        top_posts: top,
        daily,
    })
}
