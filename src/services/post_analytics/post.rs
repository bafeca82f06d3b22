//! A post's analytics (`GET /api/post/analytics/post/{id}?days=30`): the post's numbers for its author or an
//! administrator (others 403): {postId, title, slug, views, likes, bookmarks, shares, comments,
//! totalReadingTime, averageReadingTime, readers, daily}. Reading times are in seconds; the
//! average is per reader. `daily` has one entry per UTC day of the last `days` days (default
//! 30, at most 365), oldest first: {date, views, likes, bookmarks, shares, comments,
//! readingTime}. Likes and bookmarks count those still standing, by the day they were made.

use std::collections::BTreeMap;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{bookmarks, comments, likes, now, posts, reading_time, shares, views, Db};
use crate::services::analytics::average;
use crate::services::posts::{may_manage, visible_to, MSG_NOT_POST_OWNER, MSG_POST_NOT_FOUND};
use crate::state::AppState;

pub const DEFAULT_DAYS: i64 = 30;
pub const MAX_DAYS: i64 = 365;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// One day of a series.
#[derive(Debug, Default, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Day {
    pub date: String,
    pub views: i64,
    pub likes: i64,
    pub bookmarks: i64,
    pub shares: i64,
    pub comments: i64,
    pub reading_time: i64,
}

/// Reads `days` (1 to 365, default 30).
pub fn parse_days(raw: Option<&str>) -> ApiResult<i64> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(DEFAULT_DAYS),
        Some(s) => s
            .parse::<i64>()
            .ok()
            .filter(|d| (1..=MAX_DAYS).contains(d))
            .ok_or_else(|| {
                ApiError::bad_request(format!("days must be a whole number from 1 to {MAX_DAYS}"))
            }),
    }
}

/// The per-day series of these posts over the last `days` days, oldest first.
pub async fn daily_series(db: &Db, posts: &[ObjectId], days: i64) -> ApiResult<Vec<Day>> {
    let today_start = {
        let ms = now().timestamp_millis();
        ms - ms.rem_euclid(DAY_MS)
    };
    let since = DateTime::from_millis(today_start - (days - 1) * DAY_MS);
    let mut series: BTreeMap<String, Day> = BTreeMap::new();
    for i in 0..days {
        let date =
            reading_time::day_of(DateTime::from_millis(since.timestamp_millis() + i * DAY_MS));
        series.insert(
            date.clone(),
            Day {
                date,
                ..Day::default()
            },
        );
    }
    let mut tally = |times: Vec<DateTime>, pick: fn(&mut Day) -> &mut i64| {
        for at in times {
            if let Some(day) = series.get_mut(&reading_time::day_of(at)) {
                *pick(day) += 1;
            }
        }
    };
    tally(views::times_for_posts(db, posts, since).await?, |d| {
        &mut d.views
    });
    tally(
        likes::times_for_posts(db, likes::LIKE, posts, since).await?,
        |d| &mut d.likes,
    );
    tally(
        likes::times_for_posts(db, bookmarks::BOOKMARK, posts, since).await?,
        |d| &mut d.bookmarks,
    );
    tally(shares::times_for_posts(db, posts, since).await?, |d| {
        &mut d.shares
    });
    tally(comments::times_for_posts(db, posts, since).await?, |d| {
        &mut d.comments
    });
    for day in reading_time::days_for_posts(db, posts, since).await? {
        if let Some(entry) = series.get_mut(&day.day) {
            entry.reading_time += day.seconds;
        }
    }
    Ok(series.into_values().collect())
}

/// One post's figures: counts, reading time (seconds) and the daily series.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostAnalyticsAnswer {
    post_id: String,
    title: String,
    slug: String,
    #[serde(flatten)]
    totals: PostTotals,
    daily: Vec<Day>,
}

/// Counts and reading time (seconds) over one post or over all of an author's posts.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostTotals {
    pub views: i64,
    pub likes: i64,
    pub bookmarks: i64,
    pub shares: i64,
    pub comments: i64,
    pub total_reading_time: i64,
    pub average_reading_time: i64,
    pub readers: u64,
}

/// Post `id`'s figures over the last `days` days, for its author or an administrator (others
/// 403, or 404 when they cannot read it).
pub async fn of_post(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
    days: i64,
) -> ApiResult<PostAnalyticsAnswer> {
    let post = posts::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if !may_manage(&post, me) {
        return Err(if visible_to(&post, Some(me)) {
            ApiError::forbidden(MSG_NOT_POST_OWNER)
        } else {
            ApiError::not_found(MSG_POST_NOT_FOUND)
        });
    }
    let (total_reading, readers) = reading_time::totals_for_posts(&state.db, &[id]).await?;
    let daily = daily_series(&state.db, &[id], days).await?;
    Ok(PostAnalyticsAnswer {
        post_id: id.to_hex(),
        title: post.title,
        slug: post.slug,
        totals: PostTotals {
            views: post.views.max(0),
            likes: post.likes_count.max(0),
            bookmarks: post.bookmarks_count.max(0),
            shares: post.share_count.max(0),
            comments: post.comments_count.max(0),
            total_reading_time: total_reading,
            average_reading_time: average(total_reading, readers),
            readers,
        },
        daily,
    })
}
