//! `GET /api/admin/analytics?startDate&endDate` (administrators) → {data: {traffic:
//! {totalVisits, totalTimeSpent, uniqueUsersCount, uniquePostsCount, uniqueVisitorsCount,
//! postViews, guestVisits}, topPosts, topUsers, series, range}}: the site's traffic from the
//! recorded views, guest visits and reading time in the range.
//!
//! Dates are ISO-8601: a day (`2024-05-01`, the whole day in UTC) or an instant. The default is
//! the last 30 days up to now; a range is at most 366 days. `totalVisits` is post views plus guest
//! site visits; `totalTimeSpent` is reading seconds; `uniqueUsersCount` counts signed-in readers
//! (views or reading time), `uniqueVisitorsCount` every reader including guests;
//! `uniquePostsCount` the posts viewed or read. `topPosts` are the 10 most viewed posts and
//! `topUsers` the 10 authors whose posts were most viewed. `series` has one entry per UTC day,
//! oldest first: {date, visits, views, guestVisits, timeSpent, uniqueUsers}.

use std::collections::{BTreeMap, HashMap, HashSet};

use actix_web::{web, HttpResponse};
use chrono::{DateTime as ChronoTime, Duration, NaiveDate, Utc};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use serde::{Deserialize, Serialize};

use crate::auth::AdminUser;
use crate::domain::params::present_param as present;
use crate::error::{ApiError, ApiResult};
use crate::persistence::reading_time;
use crate::persistence::{guest_visits, posts, site_analytics, user_directory, views};
use crate::post_view::DELETED_AUTHOR;
use crate::routes::admin::posts::list::AuthorName;
use crate::state::AppState;

/// Default range: the last 30 days.
pub const DEFAULT_DAYS: i64 = 30;
/// Longest range.
pub const MAX_DAYS: i64 = 366;
/// Entries in the top lists.
pub const TOP: usize = 10;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsQuery {
    #[serde(default)]
    start_date: Option<String>,
    #[serde(default)]
    end_date: Option<String>,
}

/// `{data}`: the site's traffic in the range.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AnalyticsAnswer {
    pub data: SiteAnalytics,
}

/// The site's traffic, its top posts and authors, and one entry per UTC day.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteAnalytics {
    pub traffic: SiteTraffic,
    pub top_posts: Vec<SiteTopPost>,
    pub top_users: Vec<SiteTopAuthor>,
    pub series: Vec<DayTraffic>,
    pub range: AnalyticsRange,
}

/// Totals of the range (times in seconds).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteTraffic {
    pub total_visits: u64,
    pub total_time_spent: i64,
    pub unique_users_count: usize,
    pub unique_posts_count: usize,
    pub unique_visitors_count: usize,
    pub post_views: u64,
    pub guest_visits: u64,
}

/// One UTC day (`YYYY-MM-DD`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DayTraffic {
    pub date: String,
    pub visits: u64,
    pub views: u64,
    pub guest_visits: u64,
    pub time_spent: i64,
    pub unique_users: usize,
}

/// The range read, as RFC 3339 instants.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsRange {
    pub start_date: String,
    pub end_date: String,
}

/// A most viewed post.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteTopPost {
    #[serde(rename = "_id")]
    pub id: String,
    pub title: String,
    pub slug: String,
    pub views: u64,
    pub time_spent: i64,
    pub author: AuthorName,
}

/// An author whose posts were most viewed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteTopAuthor {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
    pub views: u64,
    pub time_spent: i64,
    pub posts: usize,
}

/// A range bound: a day (its start, or with `end` the start of the next day) or an instant.
fn bound(raw: &str, field: &str, end: bool) -> ApiResult<ChronoTime<Utc>> {
    if let Ok(day) = NaiveDate::parse_from_str(raw, "%Y-%m-%d") {
        let day = if end {
            day.succ_opt().unwrap_or(day)
        } else {
            day
        };
        return Ok(day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc());
    }
    ChronoTime::parse_from_rfc3339(raw)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| {
            ApiError::bad_request(format!(
                "{field} must be an ISO-8601 date such as 2024-05-01"
            ))
        })
}

/// The range asked for, `[from, to)`.
pub fn range(
    start: Option<&str>,
    end: Option<&str>,
    now: ChronoTime<Utc>,
) -> ApiResult<(ChronoTime<Utc>, ChronoTime<Utc>)> {
    let to = match end {
        Some(raw) => bound(raw, "endDate", true)?,
        None => now,
    };
    let from = match start {
        Some(raw) => bound(raw, "startDate", false)?,
        None => to - Duration::days(DEFAULT_DAYS),
    };
    if from >= to {
        return Err(ApiError::bad_request("startDate must be before endDate"));
    }
    if to - from > Duration::days(MAX_DAYS) {
        return Err(ApiError::bad_request(
            "The range may be at most a year (366 days)",
        ));
    }
    Ok((from, to))
}

fn bson(t: ChronoTime<Utc>) -> DateTime {
    DateTime::from_millis(t.timestamp_millis())
}

fn day_of(d: &Document) -> Option<String> {
    d.get_datetime("createdAt")
        .ok()
        .and_then(|t| t.to_chrono().date_naive().into())
        .map(|day: NaiveDate| day.to_string())
}

#[derive(Default)]
struct Day {
    views: u64,
    guest_visits: u64,
    time_spent: i64,
    users: HashSet<ObjectId>,
}

#[derive(Default)]
struct Tally {
    days: BTreeMap<String, Day>,
    post_views: HashMap<ObjectId, u64>,
    post_time: HashMap<ObjectId, i64>,
    users: HashSet<ObjectId>,
    visitors: HashSet<String>,
    views: u64,
    guest_visits: u64,
    time_spent: i64,
}

fn seconds_of(d: &Document) -> i64 {
    d.get_i64("seconds")
        .or_else(|_| d.get_i32("seconds").map(i64::from))
        .unwrap_or(0)
}

#[tracing::instrument(skip(state, _admin))]
pub async fn analytics(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<AnalyticsQuery>,
) -> ApiResult<HttpResponse> {
    let (from, to) = range(
        present(query.start_date.as_deref()),
        present(query.end_date.as_deref()),
        Utc::now(),
    )?;
    let db = &state.db;
    let mut t = Tally::default();
    let mut day = from.date_naive();
    while day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc() < to {
        t.days.insert(day.to_string(), Day::default());
        day = match day.succ_opt() {
            Some(next) => next,
            None => break,
        };
    }

    let fields =
        doc! { "postId": 1, "userId": 1, "viewer": 1, "reader": 1, "seconds": 1, "createdAt": 1 };
    site_analytics::for_each_between(
        db,
        views::COLLECTION,
        bson(from),
        bson(to),
        fields.clone(),
        |d| {
            t.views += 1;
            let user = d.get_object_id("userId").ok();
            if let Ok(post) = d.get_object_id("postId") {
                *t.post_views.entry(post).or_default() += 1;
            }
            if let Ok(viewer) = d.get_str("viewer") {
                t.visitors.insert(viewer.to_string());
            }
            if let Some(day) = day_of(d).and_then(|k| t.days.get_mut(&k)) {
                day.views += 1;
                day.users.extend(user);
            }
            t.users.extend(user);
        },
    )
    .await?;
    site_analytics::for_each_between(
        db,
        reading_time::COLLECTION,
        bson(from),
        bson(to),
        fields,
        |d| {
            let seconds = seconds_of(d);
            t.time_spent += seconds;
            let user = d.get_object_id("userId").ok();
            if let Ok(post) = d.get_object_id("postId") {
                *t.post_time.entry(post).or_default() += seconds;
            }
            if let Ok(reader) = d.get_str("reader") {
                t.visitors.insert(reader.to_string());
            }
            if let Some(day) = day_of(d).and_then(|k| t.days.get_mut(&k)) {
                day.time_spent += seconds;
                day.users.extend(user);
            }
            t.users.extend(user);
        },
    )
    .await?;
    site_analytics::for_each_between(
        db,
        guest_visits::EVENTS,
        bson(from),
        bson(to),
        doc! { "createdAt": 1 },
        |d| {
            t.guest_visits += 1;
            if let Some(day) = day_of(d).and_then(|k| t.days.get_mut(&k)) {
                day.guest_visits += 1;
            }
        },
    )
    .await?;

    let (top_posts, top_users) = tops(&state, &t).await?;
    let posts_seen: HashSet<&ObjectId> = t.post_views.keys().chain(t.post_time.keys()).collect();
    let series: Vec<DayTraffic> = t
        .days
        .iter()
        .map(|(date, d)| DayTraffic {
            date: date.clone(),
            visits: d.views + d.guest_visits,
            views: d.views,
            guest_visits: d.guest_visits,
            time_spent: d.time_spent,
            unique_users: d.users.len(),
        })
        .collect();
    Ok(HttpResponse::Ok().json(AnalyticsAnswer {
        data: SiteAnalytics {
            traffic: SiteTraffic {
                total_visits: t.views + t.guest_visits,
                total_time_spent: t.time_spent,
                unique_users_count: t.users.len(),
                unique_posts_count: posts_seen.len(),
                unique_visitors_count: t.visitors.len(),
                post_views: t.views,
                guest_visits: t.guest_visits,
            },
            top_posts,
            top_users,
            series,
            range: AnalyticsRange {
                start_date: from.to_rfc3339(),
                end_date: to.to_rfc3339(),
            },
        },
    }))
}

/// The most viewed posts and the authors whose posts were most viewed.
async fn tops(state: &AppState, t: &Tally) -> ApiResult<(Vec<SiteTopPost>, Vec<SiteTopAuthor>)> {
    let mut ranked: Vec<(ObjectId, u64)> = t.post_views.iter().map(|(p, v)| (*p, *v)).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    // Every viewed post's author, for the authors' ranking (posts deleted since have none).
    let mut by_author: HashMap<ObjectId, (u64, i64, usize)> = HashMap::new();
    let mut top_posts = Vec::new();
    let ids: Vec<ObjectId> = ranked.iter().map(|(id, _)| *id).collect();
    let cards: HashMap<ObjectId, _> = posts::find_many_without_blocks(&state.db, &ids)
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    for (id, post) in &cards {
        let entry = by_author.entry(post.author).or_default();
        entry.0 += t.post_views.get(id).copied().unwrap_or(0);
        entry.1 += t.post_time.get(id).copied().unwrap_or(0);
        entry.2 += 1;
    }
    let mut author_ids: Vec<ObjectId> = by_author.keys().copied().collect();
    author_ids.sort();
    let authors = user_directory::authors(&state.db, &author_ids).await?;
    let name_of = |id: &ObjectId| {
        authors
            .get(id)
            .map_or(DELETED_AUTHOR.to_string(), |a| a.name.clone())
    };
    for (id, views) in ranked
        .iter()
        .filter(|(id, _)| cards.contains_key(id))
        .take(TOP)
    {
        let post = &cards[id];
        top_posts.push(SiteTopPost {
            id: id.to_hex(),
            title: post.title.clone(),
            slug: post.slug.clone(),
            views: *views,
            time_spent: t.post_time.get(id).copied().unwrap_or(0),
            author: AuthorName {
                id: post.author.to_hex(),
                name: name_of(&post.author),
            },
        });
    }
    let mut users: Vec<(ObjectId, (u64, i64, usize))> = by_author.into_iter().collect();
    users.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
    let top_users = users
        .iter()
        .take(TOP)
        .map(|(id, (views, time, count))| SiteTopAuthor {
            id: id.to_hex(),
            name: name_of(id),
            avatar: authors.get(id).and_then(|a| a.avatar.clone()),
            views: *views,
            time_spent: *time,
            posts: *count,
        })
        .collect();
    Ok((top_posts, top_users))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> ChronoTime<Utc> {
        ChronoTime::parse_from_rfc3339(s)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn the_default_range_is_the_last_thirty_days() {
        let now = at("2024-05-31T12:00:00Z");
        let (from, to) = range(None, None, now).unwrap();
        assert_eq!((from, to), (at("2024-05-01T12:00:00Z"), now));
    }

    #[test]
    fn days_cover_whole_days_and_ranges_have_limits() {
        let now = at("2024-05-31T12:00:00Z");
        let (from, to) = range(Some("2024-05-01"), Some("2024-05-02"), now).unwrap();
        assert_eq!(
            (from, to),
            (at("2024-05-01T00:00:00Z"), at("2024-05-03T00:00:00Z"))
        );
        assert!(range(Some("2024-05-03"), Some("2024-05-01"), now).is_err());
        assert!(range(Some("2023-01-01"), Some("2024-05-01"), now).is_err());
        assert!(range(Some("yesterday"), None, now).is_err());
        assert!(range(Some("2024-05-01T10:00:00+02:00"), None, now).is_ok());
    }
}
