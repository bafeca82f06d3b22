//! The `post_revisions` collection: saved states of posts. A revision's content (title, blocks,
//! thumbnail, category, tags, visibility, audience) is kept as deflated JSON (`content`); what a
//! list shows (who, when, why, the title and the size of the change) sits beside it, so listing
//! never reads the content. Reports, appeals and blocks pin the revision they are about
//! (`pins`); pinned revisions and published states are never pruned.

use std::io::{Read, Write};

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::spec::BinarySubtype;
use mongodb::bson::{doc, Binary, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbError, DbResult};
use crate::domain::revisions::{fingerprint_of, ChangeSummary, Reason, Snapshot};

pub const COLLECTION: &str = "post_revisions";

/// What pinned a revision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pin {
    /// `report`, `appeal` or `block`.
    pub kind: String,
    /// The report's or appeal's id; the post's for a block.
    pub id: ObjectId,
}

/// A stored revision.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Revision {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub post_id: ObjectId,
    pub created_at: DateTime,
    /// Who saved it; `None` for the scheduler.
    #[serde(default)]
    pub by: Option<ObjectId>,
    pub reason: Reason,
    /// The state a publication made public.
    #[serde(default)]
    pub published: bool,
    #[serde(default)]
    pub pinned: bool,
    #[serde(default)]
    pub pins: Vec<Pin>,
    pub title: String,
    /// The change from the revision before it.
    #[serde(default)]
    pub change: ChangeSummary,
    /// [`Snapshot::fingerprint`] of the content.
    pub fingerprint: String,
    /// The stored files the revision shows (`/media/<name>`): kept while the revision is.
    #[serde(default)]
    pub media: Vec<String>,
    /// Bytes of the content's JSON before it was deflated.
    #[serde(default)]
    pub raw_size: i64,
    /// The deflated JSON of the [`Snapshot`]; absent when a list left it out.
    #[serde(default)]
    pub content: Option<Binary>,
}

impl Revision {
    /// A revision of `post_id` holding `snapshot`.
    pub fn new(
        post_id: ObjectId,
        by: Option<ObjectId>,
        reason: Reason,
        snapshot: &Snapshot,
        change: ChangeSummary,
        media: Vec<String>,
    ) -> DbResult<Revision> {
        let json = serde_json::to_vec(snapshot)
            .map_err(|e| DbError::Other(anyhow::anyhow!("encoding a revision: {e}")))?;
        let mut encoder =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        encoder
            .write_all(&json)
            .map_err(|e| DbError::Other(anyhow::anyhow!("deflating a revision: {e}")))?;
        let bytes = encoder
            .finish()
            .map_err(|e| DbError::Other(anyhow::anyhow!("deflating a revision: {e}")))?;
        Ok(Revision {
            id: ObjectId::new(),
            post_id,
            created_at: DateTime::now(),
            by,
            reason,
            published: reason == Reason::Published,
            pinned: false,
            pins: Vec::new(),
            title: snapshot.title.clone(),
            change,
            fingerprint: fingerprint_of(&json),
            media,
            raw_size: i64::try_from(json.len()).unwrap_or(i64::MAX),
            content: Some(Binary {
                subtype: BinarySubtype::Generic,
                bytes,
            }),
        })
    }

    /// The state the revision keeps.
    pub fn snapshot(&self) -> DbResult<Snapshot> {
        let content = self.content.as_ref().ok_or_else(|| {
            DbError::Other(anyhow::anyhow!("a revision read without its content"))
        })?;
        let mut json = Vec::new();
        flate2::read::DeflateDecoder::new(content.bytes.as_slice())
            .read_to_end(&mut json)
            .map_err(|e| DbError::Other(anyhow::anyhow!("inflating a revision: {e}")))?;
        serde_json::from_slice(&json)
            .map_err(|e| DbError::Other(anyhow::anyhow!("decoding a revision: {e}")))
    }
}

fn collection(db: &Db) -> Collection<Revision> {
    db.database().collection(COLLECTION)
}

/// A post's revisions newest first.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let by_post = index(
        doc! { "postId": 1, "createdAt": -1, "_id": -1 },
        "post_newest",
    );
    let pins = index(doc! { "pins.id": 1 }, "pins");
    super::create_indexes(
        &collection(db),
        [by_post, pins],
        "creating revision indexes",
    )
    .await?;
    Ok(())
}

pub async fn insert(db: &Db, revision: &Revision) -> DbResult<()> {
    collection(db)
        .insert_one(revision)
        .await
        .db_context("saving a revision")?;
    Ok(())
}

/// The newest revision of a post, with its content.
pub async fn newest(db: &Db, post_id: ObjectId) -> DbResult<Option<Revision>> {
    collection(db)
        .find_one(doc! { "postId": post_id })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .await
        .db_context("loading a post's newest revision")
}

/// A post's revisions newest first, without their content.
pub async fn list(db: &Db, post_id: ObjectId) -> DbResult<Vec<Revision>> {
    collection(db)
        .find(doc! { "postId": post_id })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .projection(doc! { "content": 0 })
        .await
        .db_context("listing revisions")?
        .try_collect()
        .await
        .db_context("listing revisions")
}

/// One revision of a post, with its content.
pub async fn find(db: &Db, post_id: ObjectId, id: ObjectId) -> DbResult<Option<Revision>> {
    collection(db)
        .find_one(doc! { "_id": id, "postId": post_id })
        .await
        .db_context("loading a revision")
}

/// The stored files a post's kept revisions show.
pub async fn media_of(db: &Db, post_id: ObjectId) -> DbResult<Vec<String>> {
    let docs: Vec<mongodb::bson::Document> = collection(db)
        .clone_with_type::<mongodb::bson::Document>()
        .find(doc! { "postId": post_id })
        .projection(doc! { "media": 1 })
        .await
        .db_context("reading the files of revisions")?
        .try_collect()
        .await
        .db_context("reading the files of revisions")?;
    let mut media: Vec<String> = docs
        .iter()
        .filter_map(|d| d.get_array("media").ok())
        .flatten()
        .filter_map(|m| m.as_str().map(str::to_string))
        .collect();
    media.sort();
    media.dedup();
    Ok(media)
}

/// The fingerprints of these revisions (those that still exist).
pub async fn fingerprints(
    db: &Db,
    ids: &[ObjectId],
) -> DbResult<std::collections::HashMap<ObjectId, String>> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    let docs: Vec<mongodb::bson::Document> = collection(db)
        .clone_with_type::<mongodb::bson::Document>()
        .find(doc! { "_id": { "$in": ids } })
        .projection(doc! { "fingerprint": 1 })
        .await
        .db_context("reading revisions")?
        .try_collect()
        .await
        .db_context("reading revisions")?;
    Ok(docs
        .iter()
        .filter_map(|d| {
            Some((
                d.get_object_id("_id").ok()?,
                d.get_str("fingerprint").ok()?.to_string(),
            ))
        })
        .collect())
}

/// Drops a post's oldest revisions beyond `keep`, never a pinned or a published one.
pub async fn prune(db: &Db, post_id: ObjectId, keep: u64) -> DbResult<u64> {
    let ids: Vec<ObjectId> = collection(db)
        .clone_with_type::<mongodb::bson::Document>()
        .find(doc! { "postId": post_id, "pinned": false, "published": false })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .skip(keep)
        .projection(doc! { "_id": 1 })
        .await
        .db_context("finding revisions to drop")?
        .try_collect::<Vec<_>>()
        .await
        .db_context("finding revisions to drop")?
        .into_iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect();
    if ids.is_empty() {
        return Ok(0);
    }
    let done = collection(db)
        .delete_many(doc! { "_id": { "$in": ids }, "pinned": false, "published": false })
        .await
        .db_context("dropping old revisions")?;
    Ok(done.deleted_count)
}

/// One revision by its id, with its content, whatever its post (evidence outlives posts).
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Revision>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a revision")
}

/// Removes a deleted post's revisions except those a report pinned (moderation history).
pub async fn delete_for_deleted_post(db: &Db, post_id: ObjectId) -> DbResult<u64> {
    let ids: Vec<ObjectId> = list(db, post_id)
        .await?
        .into_iter()
        .filter(|r| !r.pins.iter().any(|p| p.kind == "report"))
        .map(|r| r.id)
        .collect();
    if ids.is_empty() {
        return Ok(0);
    }
    let done = collection(db)
        .delete_many(doc! { "_id": { "$in": ids } })
        .await
        .db_context("removing a deleted post's revisions")?;
    Ok(done.deleted_count)
}

/// Pins a revision as evidence.
pub async fn pin(db: &Db, id: ObjectId, pin: &Pin) -> DbResult<()> {
    let pin = mongodb::bson::to_bson(pin)
        .map_err(|e| DbError::Other(anyhow::anyhow!("encoding a pin: {e}")))?;
    collection(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$addToSet": { "pins": pin }, "$set": { "pinned": true } },
        )
        .await
        .db_context("pinning a revision")?;
    Ok(())
}

/// Removes a pin wherever it is; a revision left with no pin may be pruned again.
pub async fn unpin(db: &Db, pin: &Pin) -> DbResult<()> {
    let coll = collection(db);
    let filter = doc! { "pins.id": pin.id };
    let found: Vec<Revision> = coll
        .find(filter)
        .projection(doc! { "content": 0 })
        .await
        .db_context("finding pinned revisions")?
        .try_collect()
        .await
        .db_context("finding pinned revisions")?;
    for revision in found {
        let rest: Vec<Pin> = revision.pins.into_iter().filter(|p| p != pin).collect();
        let pins = mongodb::bson::to_bson(&rest)
            .map_err(|e| DbError::Other(anyhow::anyhow!("encoding pins: {e}")))?;
        coll.update_one(
            doc! { "_id": revision.id },
            doc! { "$set": { "pins": pins, "pinned": !rest.is_empty() } },
        )
        .await
        .db_context("unpinning a revision")?;
    }
    Ok(())
}

/// The pinned revision of a report, appeal or block, if any.
pub async fn pinned_by(db: &Db, pin: &Pin) -> DbResult<Option<Revision>> {
    collection(db)
        .find_one(doc! { "pins.id": pin.id })
        .projection(doc! { "content": 0 })
        .await
        .db_context("loading a pinned revision")
}
