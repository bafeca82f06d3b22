//! `GET /api/post/analytics/user-engagement` → the caller's totals across their posts: {posts,
//! views, likes, bookmarks, shares, comments, totalReadingTime, averageReadingTime, readers,
//! followers, following, engagementRate, topPosts}. `engagementRate` is (likes + comments +
//! shares + bookmarks) / views, 0 without views; `topPosts` are the five most viewed.

use actix_web::{web, HttpResponse};
use futures_util::TryStreamExt;
use mongodb::bson::{doc, Document};
use serde_json::json;

use super::analytics_post::average;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::{follows, posts, reading_time, DbContext};
use crate::state::AppState;

/// How many posts `topPosts` lists.
pub const TOP_POSTS: usize = 5;

fn number(d: &Document, key: &str) -> i64 {
    d.get_i64(key)
        .or_else(|_| d.get_i32(key).map(i64::from))
        .unwrap_or(0)
        .max(0)
}

/// Engagement per view, to four decimals.
pub fn engagement_rate(interactions: i64, views: i64) -> f64 {
    if views <= 0 {
        return 0.0;
    }
    (interactions as f64 / views as f64 * 10_000.0).round() / 10_000.0
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn user_engagement(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let docs: Vec<Document> = state
        .db
        .database()
        .collection::<Document>(posts::COLLECTION)
        .find(doc! { "author": me.user.id })
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
        .map(|d| {
            json!({
                "_id": d.get_object_id("_id").map(|id| id.to_hex()).unwrap_or_default(),
                "title": d.get_str("title").unwrap_or_default(),
                "slug": d.get_str("slug").unwrap_or_default(),
                "views": number(d, "views"),
                "likes": number(d, "likesCount"),
                "comments": number(d, "commentsCount"),
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "posts": docs.len(),
        "views": views,
        "likes": likes,
        "bookmarks": bookmarks,
        "shares": shares,
        "comments": comments,
        "totalReadingTime": total_reading,
        "averageReadingTime": average(total_reading, readers),
        "readers": readers,
        "followers": follows::follower_count(&state.db, me.user.id).await?,
        "following": follows::following_count(&state.db, me.user.id).await?,
        "engagementRate": engagement_rate(likes + comments + shares + bookmarks, views),
        "topPosts": top,
    })))
}
