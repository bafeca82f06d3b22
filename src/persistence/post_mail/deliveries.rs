//! Email deliveries of a post (`post_deliveries`): each (post, recipient address) claimed once
//! under a unique index just before its email is sent. A claim is written once and never
//! updated: the email's outcome is its email log entry, stored under the claim's `_id`.
//!
//! Nothing here updates or looks up one document per email: on FerretDB's SQLite backend every
//! such operation reads the collection (see `docs/performance.md`), so the worker inserts claims
//! and log entries a chunk at a time and reads them back only when it takes over the chunk a
//! stopped worker left in flight.

use super::*;
use mongodb::bson::Bson;

/// The channel of an email claim (the unique index covers it beside the post and the address).
const EMAIL: &str = "email";

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

/// Runs `statements` (filter, update) on `collection` one at a time, each filter a lookup by
/// `_id` with, optionally, conditions on other fields (`{_id, leaseOwner}`). Returns how many
/// documents matched their whole filter and were changed.
///
/// FerretDB's SQLite backend answers a filter from an index only when it is `{_id}` alone: any
/// other key beside `_id` makes it read and decode the whole collection for each statement (its
/// `SELECT` has no `WHERE`). So a statement with conditions is run as a `findAndModify` on
/// `{_id}` alone returning the document as it was; when the document did not meet the
/// conditions, the fields the `$set` wrote are put back as they were. The document holds the
/// `$set` values only between the two writes, and only when its conditions failed.
pub async fn update_each(
    db: &Db,
    collection: &str,
    statements: Vec<(Document, Document)>,
) -> DbResult<u64> {
    let coll: Collection<Document> = db.database().collection(collection);
    let mut modified = 0;
    for (q, u) in statements {
        modified += update_by_id(&coll, q, u).await?;
    }
    Ok(modified)
}

/// One statement of [`update_each`]: 1 when the document met its filter and was changed.
async fn update_by_id(
    coll: &Collection<Document>,
    filter: Document,
    update: Document,
) -> DbResult<u64> {
    let conditions: Vec<(String, Bson)> = filter
        .iter()
        .filter(|(k, _)| k.as_str() != "_id")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let set = update
        .get_document("$set")
        .ok()
        .filter(|_| update.len() == 1);
    let (Some(id), Some(set), false) = (filter.get("_id"), set, conditions.is_empty()) else {
        // `{_id}` alone, or an update this rule does not cover.
        return Ok(coll
            .update_one(filter, update)
            .await
            .db_context("updating a document by id")?
            .modified_count);
    };
    let before = coll
        .find_one_and_update(doc! { "_id": id.clone() }, doc! { "$set": set.clone() })
        .return_document(ReturnDocument::Before)
        .await
        .db_context("updating a document by id")?;
    let Some(before) = before else {
        return Ok(0);
    };
    if conditions
        .iter()
        .all(|(k, v)| before.get(k).is_some_and(|b| b == v))
    {
        return Ok(1);
    }
    // Its conditions failed: what the `$set` wrote goes back as it was.
    coll.update_one(doc! { "_id": id.clone() }, restoring(&before, set))
        .await
        .db_context("putting a document back")?;
    Ok(0)
}

/// The update that puts back the fields `set` wrote over `before`.
pub(super) fn restoring(before: &Document, set: &Document) -> Document {
    let mut restore = Document::new();
    let mut unset = Document::new();
    for key in set.keys() {
        match before.get(key) {
            Some(v) => {
                restore.insert(key.clone(), v.clone());
            }
            None => {
                unset.insert(key.clone(), "");
            }
        }
    }
    let mut back = Document::new();
    if !restore.is_empty() {
        back.insert("$set", restore);
    }
    if !unset.is_empty() {
        back.insert("$unset", unset);
    }
    back
}
