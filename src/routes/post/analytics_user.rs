//! `GET /api/post/analytics/user-engagement?days=30&userId` → the caller's totals across their
//! posts: {userId, posts, views, likes, bookmarks, shares, comments, totalReadingTime,
//! averageReadingTime, readers, followers, following, engagementRate, topPosts, daily}.
//! `engagementRate` is (likes + comments + shares + bookmarks) / views, 0 without views;
//! `topPosts` are the five most viewed; `daily` is the per-day series of all their posts over
//! the last `days` days (as for one post). An administrator may ask for another author with
//! `userId`; anyone else gets a 403 for someone else's numbers.

use actix_web::{web, HttpResponse};
use futures_util::TryStreamExt;
use mongodb::bson::{doc, Document};

use serde::Deserialize;

use super::analytics_post::{daily_series, parse_days, Day, PostTotals};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{follows, posts, reading_time, DbContext};
use crate::services::analytics::average;
use crate::state::AppState;

/// How many posts `topPosts` lists.
pub const TOP_POSTS: usize = 5;

fn number(d: &Document, key: &str) -> i64 {
    d.get_i64(key)
        .or_else(|_| d.get_i32(key).map(i64::from))
        .unwrap_or(0)
        .max(0)
}

use crate::services::analytics::engagement_rate;

pub const MSG_NOT_YOUR_ANALYTICS: &str = "You can only view your own analytics";

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct EngagementQuery {
    #[serde(default)]
    days: Option<String>,
    #[serde(default)]
    user_id: Option<String>,
}

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

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn user_engagement(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<EngagementQuery>,
) -> ApiResult<HttpResponse> {
    let days = parse_days(query.days.as_deref())?;
    let author = match query
        .user_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => me.user.id,
        Some(raw) => object_id(raw, "userId")?,
    };
    if author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_YOUR_ANALYTICS));
    }
    let docs: Vec<Document> = state
        .db
        .database()
        .collection::<Document>(posts::COLLECTION)
        .find(doc! { "author": author })
        .projection(doc! {
            "title": 1, "slug": 1, "views": 1, "likesCount": 1, "bookmarksCount": 1,
            "shareCount": 1, "commentsCount": 1,
        })
        .await
        .db_context("reading a user's posts")?
        .try_collect()
        .await
        .db_context("reading a user's posts")?;
    let ids: Vec<_> = docs
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect();
    let sum = |key: &str| docs.iter().map(|d| number(d, key)).sum::<i64>();
    let (views, likes, bookmarks, shares, comments) = (
        sum("views"),
        sum("likesCount"),
        sum("bookmarksCount"),
        sum("shareCount"),
        sum("commentsCount"),
    );
    let (total_reading, readers) = reading_time::totals_for_posts(&state.db, &ids).await?;
    let mut top: Vec<&Document> = docs.iter().collect();
    top.sort_by_key(|d| std::cmp::Reverse(number(d, "views")));
    let top: Vec<_> = top
        .into_iter()
        .take(TOP_POSTS)
        .map(|d| AuthorTopPost {
            id: d
                .get_object_id("_id")
                .map(|id| id.to_hex())
                .unwrap_or_default(),
            title: d.get_str("title").unwrap_or_default().to_string(),
            slug: d.get_str("slug").unwrap_or_default().to_string(),
            views: number(d, "views"),
            likes: number(d, "likesCount"),
            comments: number(d, "commentsCount"),
        })
        .collect();
    let daily = daily_series(&state.db, &ids, days).await?;
    Ok(HttpResponse::Ok().json(EngagementAnswer {
        user_id: author.to_hex(),
        posts: docs.len(),
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
    }))
}
