//! The site's traffic for the administrators (`GET /api/admin/analytics`): the recorded views,
//! guest visits and reading time of a range, read through cursors
//! (`persistence::site_analytics`), with the most viewed posts and authors and one entry per UTC
//! day.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{DateTime as ChronoTime, NaiveDate, Utc};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;

use crate::error::ApiResult;
use crate::persistence::site_analytics::{self, Record, Source};
use crate::persistence::{posts, user_directory, Db};
use crate::post_view::DELETED_AUTHOR;
use crate::services::people::AuthorName;

/// Entries in the top lists.
pub const TOP: usize = 10;

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

fn bson(t: ChronoTime<Utc>) -> DateTime {
    DateTime::from_millis(t.timestamp_millis())
}

fn day_of(r: &Record) -> Option<String> {
    r.created_at
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

/// The site's traffic in `[from, to)`: its totals, the `TOP` most viewed posts and the authors
/// whose posts were most viewed, and one entry per UTC day, oldest first.
pub async fn traffic(
    db: &Db,
    from: ChronoTime<Utc>,
    to: ChronoTime<Utc>,
) -> ApiResult<SiteAnalytics> {
    let mut t = Tally::default();
    let mut day = from.date_naive();
    while day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc() < to {
        t.days.insert(day.to_string(), Day::default());
        day = match day.succ_opt() {
            Some(next) => next,
            None => break,
        };
    }

    site_analytics::for_each_between(db, Source::Views, bson(from), bson(to), |r| {
        t.views += 1;
        let user = r.user_id;
        if let Some(post) = r.post_id {
            *t.post_views.entry(post).or_default() += 1;
        }
        if let Some(viewer) = &r.viewer {
            t.visitors.insert(viewer.clone());
        }
        if let Some(day) = day_of(r).and_then(|k| t.days.get_mut(&k)) {
            day.views += 1;
            day.users.extend(user);
        }
        t.users.extend(user);
    })
    .await?;
    site_analytics::for_each_between(db, Source::ReadingTime, bson(from), bson(to), |r| {
        let seconds = r.seconds;
        t.time_spent += seconds;
        let user = r.user_id;
        if let Some(post) = r.post_id {
            *t.post_time.entry(post).or_default() += seconds;
        }
        if let Some(reader) = &r.reader {
            t.visitors.insert(reader.clone());
        }
        if let Some(day) = day_of(r).and_then(|k| t.days.get_mut(&k)) {
            day.time_spent += seconds;
            day.users.extend(user);
        }
        t.users.extend(user);
    })
    .await?;
    site_analytics::for_each_between(db, Source::GuestVisits, bson(from), bson(to), |r| {
        t.guest_visits += 1;
        if let Some(day) = day_of(r).and_then(|k| t.days.get_mut(&k)) {
            day.guest_visits += 1;
        }
    })
    .await?;

    let (top_posts, top_users) = tops(db, &t).await?;
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
    Ok(SiteAnalytics {
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
    })
}

/// The most viewed posts and the authors whose posts were most viewed.
async fn tops(db: &Db, t: &Tally) -> ApiResult<(Vec<SiteTopPost>, Vec<SiteTopAuthor>)> {
    let mut ranked: Vec<(ObjectId, u64)> = t.post_views.iter().map(|(p, v)| (*p, *v)).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    // Every viewed post's author, for the authors' ranking (posts deleted since have none).
    let mut by_author: HashMap<ObjectId, (u64, i64, usize)> = HashMap::new();
    let mut top_posts = Vec::new();
    let ids: Vec<ObjectId> = ranked.iter().map(|(id, _)| *id).collect();
    let cards: HashMap<ObjectId, _> = posts::find_many_without_blocks(db, &ids)
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
    let authors = user_directory::authors(db, &author_ids).await?;
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
