//! The `achievements` collection: one document per user (`_id` = user id) with the badges they
//! earned (each with the time it was first earned), the metrics of the last calculation and
//! when it ran. The metrics are read from the real records: posts, likes, views, comments,
//! follows.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{comments, follows, now, posts, Db, DbContext, DbResult};
use crate::domain::post::PostStatus;

pub const COLLECTION: &str = "achievements";

/// What badges are computed from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    /// Published posts.
    pub posts: i64,
    /// Likes on the user's posts.
    pub likes_received: i64,
    /// Counted views of the user's posts.
    pub views_received: i64,
    /// Comments on the user's posts.
    pub comments_received: i64,
    /// Comments the user wrote.
    pub comments_written: i64,
    pub followers: i64,
    /// Longest run of consecutive days (UTC) with at least one published post.
    pub longest_streak: i64,
    /// The run that includes today or yesterday (0 otherwise).
    pub current_streak: i64,
}

/// A badge a user holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Earned {
    pub id: String,
    pub earned_at: DateTime,
}

/// The stored record.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    #[serde(rename = "_id")]
    pub user: ObjectId,
    #[serde(default)]
    pub badges: Vec<Earned>,
    #[serde(default)]
    pub metrics: Metrics,
    pub calculated_at: DateTime,
}

fn collection(db: &Db) -> Collection<Record> {
    db.database().collection(COLLECTION)
}

fn as_i64(d: &Document, key: &str) -> i64 {
    d.get_i64(key)
        .or_else(|_| d.get_i32(key).map(i64::from))
        .or_else(|_| d.get_f64(key).map(|f| f as i64))
        .unwrap_or(0)
}

/// The longest run of consecutive days, and the run ending today or yesterday.
pub fn streaks(days: &[chrono::NaiveDate], today: chrono::NaiveDate) -> (i64, i64) {
    let mut days = days.to_vec();
    days.sort_unstable();
    days.dedup();
    let (mut longest, mut run) = (0, 0);
    let mut previous: Option<chrono::NaiveDate> = None;
    for day in &days {
        run = match previous {
            Some(p) if p.succ_opt() == Some(*day) => run + 1,
            _ => 1,
        };
        longest = longest.max(run);
        previous = Some(*day);
    }
    let current = match days.last() {
        Some(last) if *last == today || last.succ_opt() == Some(today) => run,
        _ => 0,
    };
    (longest, current)
}

/// Reads a user's metrics from the records.
pub async fn metrics_of(db: &Db, user: ObjectId) -> DbResult<Metrics> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(posts::COLLECTION)
        .find(doc! { "author": user, "status": PostStatus::Published.as_str() })
        .projection(doc! { "likesCount": 1, "views": 1, "commentsCount": 1, "createdAt": 1 })
        .await
        .db_context("reading a user's posts")?
        .try_collect()
        .await
        .db_context("reading a user's posts")?;
    let mut m = Metrics {
        posts: docs.len() as i64,
        ..Metrics::default()
    };
    let mut days = Vec::new();
    for d in &docs {
        m.likes_received += as_i64(d, "likesCount");
        m.views_received += as_i64(d, "views");
        m.comments_received += as_i64(d, "commentsCount");
        if let Ok(at) = d.get_datetime("createdAt") {
            days.push(at.to_chrono().date_naive());
        }
    }
    let today = now().to_chrono().date_naive();
    (m.longest_streak, m.current_streak) = streaks(&days, today);
    m.comments_written = comments::count_by_user(db, user).await? as i64;
    m.followers = follows::follower_count(db, user).await? as i64;
    Ok(m)
}

/// A user's record, if calculated before.
pub async fn find(db: &Db, user: ObjectId) -> DbResult<Option<Record>> {
    collection(db)
        .find_one(doc! { "_id": user })
        .await
        .db_context("loading achievements")
}

/// Stores a user's record (replacing the previous one).
pub async fn save(db: &Db, record: &Record) -> DbResult<()> {
    collection(db)
        .replace_one(doc! { "_id": record.user }, record)
        .upsert(true)
        .await
        .db_context("saving achievements")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn d(day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2024, 5, day).unwrap_or_default()
    }

    #[test]
    fn a_run_of_days_is_a_streak_and_a_gap_ends_it() {
        let (longest, current) = streaks(&[d(1), d(2), d(3), d(5), d(6)], d(6));
        assert_eq!((longest, current), (3, 2));
    }

    #[test]
    fn the_current_streak_survives_until_the_day_after() {
        assert_eq!(streaks(&[d(4), d(5)], d(6)), (2, 2));
        assert_eq!(streaks(&[d(4), d(5)], d(7)), (2, 0));
    }

    #[test]
    fn no_posts_means_no_streak() {
        assert_eq!(streaks(&[], d(7)), (0, 0));
    }
}
