//! Email deliveries of a post (`post_deliveries`): each (post, recipient address) claimed once
//! under a unique index just before its email is sent. A claim is written once and never
//! updated: the email's outcome is its email log entry, stored under the claim's `_id`.
//!
//! Nothing here updates or looks up one document per email: on FerretDB's SQLite backend every
//! such operation reads the collection (see `docs/performance.md`), so the worker inserts claims
//! and log entries a chunk at a time and reads them back only when it takes over the chunk a
//! stopped worker left in flight.

use super::*;

/// The channel of an email claim (the unique index covers it beside the post and the address).
const EMAIL: &str = "email";
/// The channel of an email held back (a reader who was pushed the post is emailed only if they
/// have not opened it when the hold ends): the same fields as a claim, under the same index.
const HELD: &str = "held";

/// Claims the emails of `post` to each of `claims` (the lower-cased address, and the claim's
/// other fields: its `_id`, who it is for, the worker) with one insert. Returns the positions of
/// those claimed before (by an earlier run): they are not sent.
pub async fn claim_emails(
    db: &Db,
    post: ObjectId,
    claims: &[(String, Document)],
) -> DbResult<std::collections::HashSet<usize>> {
    let at = now();
    let docs: Vec<Document> = claims
        .iter()
        .map(|(to, extra)| {
            let mut d = doc! { "postId": post, "channel": EMAIL, "to": to, "createdAt": at };
            d.extend(extra.clone());
            d
        })
        .collect();
    insert_new(&deliveries(db), &docs, "claiming emails").await
}

/// Holds back the emails of `post` to `claims` (as [`claim_emails`] takes them) with one
/// insert; those held before (by an earlier run of the batch) are left as they were.
pub async fn hold_emails(db: &Db, post: ObjectId, claims: &[(String, Document)]) -> DbResult<()> {
    let at = now();
    let docs: Vec<Document> = claims
        .iter()
        .map(|(to, extra)| {
            let mut d = doc! { "postId": post, "channel": HELD, "to": to, "createdAt": at };
            d.extend(extra.clone());
            d
        })
        .collect();
    insert_new(&deliveries(db), &docs, "holding emails").await?;
    Ok(())
}

/// Up to `limit` of the emails of `post` held back, after the one with `_id` `after`, by `_id`.
pub async fn held_after(
    db: &Db,
    post: ObjectId,
    after: Option<ObjectId>,
    limit: i64,
) -> DbResult<Vec<Document>> {
    let mut filter = doc! { "postId": post, "channel": HELD };
    if let Some(after) = after {
        filter.insert("_id", doc! { "$gt": after });
    }
    deliveries(db)
        .find(filter)
        .sort(doc! { "_id": 1 })
        .limit(limit)
        .await
        .db_context("reading held emails")?
        .try_collect()
        .await
        .db_context("reading held emails")
}

/// Of `posts`, those emailed (or being emailed) to `address` already.
pub async fn emailed_among(db: &Db, address: &str, posts: &[ObjectId]) -> DbResult<Vec<ObjectId>> {
    if posts.is_empty() {
        return Ok(Vec::new());
    }
    let docs: Vec<Document> = deliveries(db)
        .find(doc! {
            "to": address.trim().to_lowercase(),
            "channel": EMAIL,
            "postId": { "$in": posts },
        })
        .projection(doc! { "postId": 1 })
        .await
        .db_context("reading deliveries")?
        .try_collect()
        .await
        .db_context("reading deliveries")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("postId").ok())
        .collect())
}

/// The email claims stored under `ids` (one query).
pub async fn claims_among(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<Document>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    deliveries(db)
        .find(doc! { "_id": { "$in": ids } })
        .await
        .db_context("reading email claims")?
        .try_collect()
        .await
        .db_context("reading email claims")
}
