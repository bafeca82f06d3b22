//! The `series` collection: a writer's multi-part work, its parts in order (`postIds`, one
//! array, so an order is always written whole), and `series_follows`, the readers who follow a
//! series (one record per reader and series, its `_id` `{seriesId}:{userId}`). A post belongs
//! to at most one series: the post's own `seriesId` is claimed with a conditional update
//! (`posts::set_series`) before the part is added.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::follows::Alerts;
use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbError, DbResult};

pub const COLLECTION: &str = "series";
pub const FOLLOWS: &str = "series_follows";
/// One claim per post in a series (`_id` = the post's id): a post is a part of one series.
pub const PART_CLAIMS: &str = "series_part_claims";
/// What a duplicate slug is reported as.
pub const DUPLICATE_SLUG: &str = "A series with this slug";

/// A stored series.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Series {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub author: ObjectId,
    pub title: String,
    pub slug: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub cover: Option<String>,
    /// The parts in order (drafts and hidden posts included; readers see the visible ones).
    #[serde(default)]
    pub post_ids: Vec<ObjectId>,
    /// Parts whose followers were told of them.
    #[serde(default)]
    pub announced: Vec<ObjectId>,
    /// Raised by every change of the parts: a change is written only over the version read.
    #[serde(default)]
    pub version: i64,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

fn collection(db: &Db) -> Collection<Series> {
    db.database().collection(COLLECTION)
}

fn follows(db: &Db) -> Collection<Document> {
    db.database().collection(FOLLOWS)
}

/// A unique slug; a writer's series by date; a series' followers; a reader's follows.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(doc! { "slug": 1 }, "slug_unique"),
            index(doc! { "author": 1, "createdAt": -1 }, "author_newest"),
        ],
        "creating series indexes",
    )
    .await?;
    super::create_indexes(
        &follows(db),
        [
            index(doc! { "seriesId": 1, "userId": 1 }, "series_user"),
            index(doc! { "userId": 1 }, "user"),
        ],
        "creating series follow indexes",
    )
    .await?;
    Ok(())
}

/// Claims `post` as a part of `series`: false when it is a part of one already. An `_id`
/// insert is atomic on every store; a conditional update on the embedded one is not.
pub async fn claim_part(db: &Db, post: ObjectId, series: ObjectId) -> DbResult<bool> {
    super::leases::claim(
        db,
        PART_CLAIMS,
        &doc! { "_id": post, "seriesId": series, "createdAt": now() },
    )
    .await
}

/// Lets `post` join a series again.
pub async fn release_part(db: &Db, post: ObjectId) -> DbResult<()> {
    super::leases::drop_claim(db, PART_CLAIMS, post).await
}

/// Inserts a series; a taken slug is `DbError::Duplicate`.
pub async fn insert(db: &Db, series: &Series) -> DbResult<()> {
    match collection(db).insert_one(series).await {
        Ok(_) => Ok(()),
        Err(e) if is_duplicate_key(&e) => Err(DbError::Duplicate(DUPLICATE_SLUG)),
        Err(e) => Err(e).db_context("creating a series"),
    }
}

pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Series>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a series")
}

pub async fn find_by_slug(db: &Db, slug: &str) -> DbResult<Option<Series>> {
    collection(db)
        .find_one(doc! { "slug": slug })
        .await
        .db_context("loading a series")
}

/// The series with these ids.
pub async fn find_many(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<Series>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    collection(db)
        .find(doc! { "_id": { "$in": ids } })
        .await
        .db_context("loading series")?
        .try_collect()
        .await
        .db_context("loading series")
}

/// Series with at least one part, most recently changed first (the sitemap's).
pub async fn listed(db: &Db, limit: i64) -> DbResult<Vec<Series>> {
    let all: Vec<Series> = collection(db)
        .find(doc! {})
        .sort(doc! { "updatedAt": -1 })
        .limit(limit)
        .await
        .db_context("listing series")?
        .try_collect()
        .await
        .db_context("listing series")?;
    Ok(all.into_iter().filter(|s| !s.post_ids.is_empty()).collect())
}

/// A writer's series, newest first.
pub async fn by_author(db: &Db, author: ObjectId) -> DbResult<Vec<Series>> {
    collection(db)
        .find(doc! { "author": author })
        .sort(doc! { "createdAt": -1 })
        .await
        .db_context("listing a writer's series")?
        .try_collect()
        .await
        .db_context("listing a writer's series")
}

/// Changes the title, description, cover or slug; a taken slug is `DbError::Duplicate`.
pub async fn update_details(db: &Db, id: ObjectId, mut set: Document) -> DbResult<Option<Series>> {
    set.insert("updatedAt", now());
    match collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$set": set })
        .return_document(ReturnDocument::After)
        .await
    {
        Ok(found) => Ok(found),
        Err(e) if is_duplicate_key(&e) => Err(DbError::Duplicate(DUPLICATE_SLUG)),
        Err(e) => Err(e).db_context("changing a series"),
    }
}

/// Writes the parts in order over `version`; `None` when someone changed them since it was read.
pub async fn set_parts(
    db: &Db,
    id: ObjectId,
    version: i64,
    parts: &[ObjectId],
) -> DbResult<Option<Series>> {
    collection(db)
        .find_one_and_update(
            doc! { "_id": id, "version": version },
            doc! {
                "$set": { "postIds": parts, "updatedAt": now() },
                "$inc": { "version": 1 },
            },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("ordering a series")
}

/// Records that a part's followers were told; whether this call did (once per part).
pub async fn mark_announced(db: &Db, id: ObjectId, post: ObjectId) -> DbResult<bool> {
    let done = collection(db)
        .update_one(
            doc! { "_id": id, "announced": { "$ne": post } },
            doc! { "$push": { "announced": post } },
        )
        .await
        .db_context("recording a part's announcement")?;
    Ok(done.modified_count == 1)
}

pub async fn delete(db: &Db, id: ObjectId) -> DbResult<Option<Series>> {
    let found = collection(db)
        .find_one_and_delete(doc! { "_id": id })
        .await
        .db_context("deleting a series")?;
    if found.is_some() {
        follows(db)
            .delete_many(doc! { "seriesId": id })
            .await
            .db_context("removing a series' follows")?;
    }
    Ok(found)
}

/// Removes every series of a writer (their account is being deleted).
pub async fn delete_by_author(db: &Db, author: ObjectId) -> DbResult<()> {
    for series in by_author(db, author).await? {
        delete(db, series.id).await?;
    }
    Ok(())
}

fn follow_id(series: ObjectId, user: ObjectId) -> String {
    format!("{}:{}", series.to_hex(), user.to_hex())
}

/// Follows a series; whether this call created the follow.
pub async fn follow(db: &Db, series: ObjectId, user: ObjectId) -> DbResult<bool> {
    match follows(db)
        .insert_one(doc! {
            "_id": follow_id(series, user),
            "seriesId": series,
            "userId": user,
            "createdAt": now(),
        })
        .await
    {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("following a series"),
    }
}

/// Unfollows; whether a follow was removed.
pub async fn unfollow(db: &Db, series: ObjectId, user: ObjectId) -> DbResult<bool> {
    let done = follows(db)
        .delete_one(doc! { "_id": follow_id(series, user) })
        .await
        .db_context("unfollowing a series")?;
    Ok(done.deleted_count == 1)
}

pub async fn is_following(db: &Db, series: ObjectId, user: ObjectId) -> DbResult<bool> {
    Ok(follows(db)
        .find_one(doc! { "_id": follow_id(series, user) })
        .await
        .db_context("reading a series follow")?
        .is_some())
}

pub async fn follower_count(db: &Db, series: ObjectId) -> DbResult<u64> {
    follows(db)
        .count_documents(doc! { "seriesId": series })
        .await
        .db_context("counting a series' followers")
}

/// The followers of a series.
pub async fn followers(db: &Db, series: ObjectId) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = follows(db)
        .find(doc! { "seriesId": series })
        .projection(doc! { "userId": 1 })
        .await
        .db_context("reading a series' followers")?
        .try_collect()
        .await
        .db_context("reading a series' followers")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("userId").ok())
        .collect())
}

/// Sets how a follower hears of a series' new parts; `false` when they do not follow it.
pub async fn set_alerts(
    db: &Db,
    series: ObjectId,
    user: ObjectId,
    alerts: Alerts,
) -> DbResult<bool> {
    let done = follows(db)
        .update_one(
            doc! { "_id": follow_id(series, user) },
            doc! { "$set": { "alerts": alerts.as_str() } },
        )
        .await
        .db_context("setting a series follow's alerts")?;
    Ok(done.matched_count == 1)
}

/// How `user` hears of the series' new parts, `None` when they do not follow it.
pub async fn alerts(db: &Db, series: ObjectId, user: ObjectId) -> DbResult<Option<Alerts>> {
    Ok(follows(db)
        .find_one(doc! { "_id": follow_id(series, user) })
        .await
        .db_context("reading a series follow")?
        .map(|d| Alerts::of(&d)))
}

/// A page of a series' followers after `after` (by reader id), with their alerts.
pub async fn followers_page(
    db: &Db,
    series: ObjectId,
    after: Option<ObjectId>,
    limit: i64,
) -> DbResult<Vec<(ObjectId, Alerts)>> {
    let mut filter = doc! { "seriesId": series };
    if let Some(after) = after {
        filter.insert("userId", doc! { "$gt": after });
    }
    let docs: Vec<Document> = follows(db)
        .find(filter)
        .sort(doc! { "seriesId": 1, "userId": 1 })
        .limit(limit)
        .await
        .db_context("reading a series' followers")?
        .try_collect()
        .await
        .db_context("reading a series' followers")?;
    Ok(docs
        .iter()
        .filter_map(|d| Some((d.get_object_id("userId").ok()?, Alerts::of(d))))
        .collect())
}

/// The series `user` follows and has not silenced (alerts not `off`).
pub async fn heard_by(db: &Db, user: ObjectId) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = follows(db)
        .find(doc! { "userId": user })
        .await
        .db_context("reading a reader's series follows")?
        .try_collect()
        .await
        .db_context("reading a reader's series follows")?;
    Ok(docs
        .iter()
        .filter(|d| Alerts::of(d) != Alerts::Off)
        .filter_map(|d| d.get_object_id("seriesId").ok())
        .collect())
}

/// Removes a reader's series follows (their account is being deleted).
pub async fn remove_follows_of(db: &Db, user: ObjectId) -> DbResult<()> {
    follows(db)
        .delete_many(doc! { "userId": user })
        .await
        .db_context("removing a reader's series follows")?;
    Ok(())
}
