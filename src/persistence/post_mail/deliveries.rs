//! Deliveries of a post's notices and emails (`post_deliveries`): each (post, channel, recipient)
//! claimed once under a unique index, settled with its outcome, and the claims a crash left
//! unsettled recorded as interrupted.

use super::*;
use mongodb::bson::Bson;

/// The channel of a delivery claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Notice,
    Email,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Notice => "notice",
            Channel::Email => "email",
        }
    }
}

/// Claims the delivery of `post` to `to` (a user id for a notice, a lower-cased address for an
/// email); `false` when it was claimed before.
pub async fn claim(db: &Db, post: ObjectId, channel: Channel, to: &str) -> DbResult<bool> {
    match deliveries(db)
        .insert_one(doc! {
            "postId": post,
            "channel": channel.as_str(),
            "to": to,
            "status": "sending",
            "createdAt": now(),
        })
        .await
    {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("claiming a delivery"),
    }
}

/// Records how a claimed delivery went (`sent`, `failed`, `suppressed`).
pub async fn settle(
    db: &Db,
    post: ObjectId,
    channel: Channel,
    to: &str,
    status: &str,
    email_log: Option<ObjectId>,
) -> DbResult<()> {
    deliveries(db)
        .update_one(
            doc! { "postId": post, "channel": channel.as_str(), "to": to },
            doc! { "$set": { "status": status, "emailLogId": email_log, "settledAt": now() } },
        )
        .await
        .db_context("settling a delivery")?;
    Ok(())
}

/// Of `posts`, those emailed (or being emailed) to `address` already.
pub async fn emailed_among(db: &Db, address: &str, posts: &[ObjectId]) -> DbResult<Vec<ObjectId>> {
    if posts.is_empty() {
        return Ok(Vec::new());
    }
    let docs: Vec<Document> = deliveries(db)
        .find(doc! {
            "to": address.trim().to_lowercase(),
            "channel": "email",
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

/// Claims the deliveries of `post` to each of `tos` at once; returns those this call claimed
/// (the others were claimed before).
pub async fn claim_many(
    db: &Db,
    post: ObjectId,
    channel: Channel,
    tos: &[String],
) -> DbResult<std::collections::HashSet<String>> {
    let claims: Vec<(String, Document)> = tos.iter().map(|t| (t.clone(), doc! {})).collect();
    claim_many_with(db, post, channel, &claims).await
}

/// [`claim_many`] with more fields stored on each claim (who an email is for, which worker
/// claimed it), so an email whose claim is left unsettled can be recorded for a retry.
pub async fn claim_many_with(
    db: &Db,
    post: ObjectId,
    channel: Channel,
    claims: &[(String, Document)],
) -> DbResult<std::collections::HashSet<String>> {
    use mongodb::error::ErrorKind;
    if claims.is_empty() {
        return Ok(Default::default());
    }
    let at = now();
    let tos: Vec<String> = claims.iter().map(|(to, _)| to.clone()).collect();
    let docs: Vec<Document> = claims
        .iter()
        .map(|(to, extra)| {
            let mut d = doc! {
                "postId": post,
                "channel": channel.as_str(),
                "to": to,
                "status": "sending",
                "createdAt": at,
            };
            d.extend(extra.clone());
            d
        })
        .collect();
    let mut claimed: std::collections::HashSet<String> = tos.iter().cloned().collect();
    match deliveries(db).insert_many(docs).ordered(false).await {
        Ok(_) => {}
        Err(e) => {
            let ErrorKind::InsertMany(ref failure) = *e.kind else {
                return Err(e).db_context("claiming deliveries");
            };
            if failure.write_concern_error.is_some() {
                return Err(e).db_context("claiming deliveries");
            }
            for w in failure.write_errors.iter().flatten() {
                if w.code != 11000 {
                    return Err(e.clone()).db_context("claiming deliveries");
                }
                if let Some(to) = tos.get(w.index) {
                    claimed.remove(to);
                }
            }
        }
    }
    Ok(claimed)
}

/// Runs `statements` (filter, update) on `collection` one at a time, each filter a lookup by
/// `_id` with, optionally, conditions on other fields (`{_id, status: "sending"}`). Returns how
/// many documents matched their whole filter and were changed.
///
/// FerretDB's SQLite backend answers a filter from an index only when it is `{_id}` alone: any
/// other key beside `_id` makes it read and decode the whole collection for each statement (its
/// `SELECT` has no `WHERE`), which made each settled email cost more than the one before. (It
/// reads the whole collection for `$in` too, and one `update` command carrying many statements
/// can stall it.) So a statement with conditions is run as a `findAndModify` on `{_id}` alone
/// returning the document as it was; when the document did not meet the conditions, the fields
/// the `$set` wrote are put back as they were. The document holds the `$set` values only between
/// the two writes, and only when its conditions failed: the rare case of a claim another worker
/// settled meanwhile.
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
        // `{_id}` alone (answered from the index), or an update this rule does not cover.
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
    coll.update_one(doc! { "_id": id.clone() }, back)
        .await
        .db_context("putting a document back")?;
    Ok(0)
}

/// Records how the claims `ids` went, all with one status (one update per claim, by `_id`).
/// Only claims still `sending` are settled. Returns how many were settled.
pub async fn settle_many(db: &Db, ids: &[ObjectId], status: &str) -> DbResult<u64> {
    let at = now();
    let statements = ids
        .iter()
        .map(|id| {
            (
                doc! { "_id": id, "status": "sending" },
                doc! { "$set": { "status": status, "settledAt": at } },
            )
        })
        .collect();
    update_each(db, DELIVERIES, statements).await
}

/// Lookups by `_id` in flight at once (see [`update_each`] for why not `$in`).
pub(super) const LOOKUPS: usize = 8;

/// The documents of `collection` under each of `ids`, looked up one by one by `_id` (an index
/// lookup), [`LOOKUPS`] at a time.
pub async fn find_each<T, I>(db: &Db, collection: &str, ids: I) -> DbResult<Vec<T>>
where
    T: serde::de::DeserializeOwned + Send + Sync + Unpin,
    I: IntoIterator,
    I::Item: Into<mongodb::bson::Bson>,
{
    use futures_util::StreamExt;
    let coll: Collection<T> = db.database().collection(collection);
    let found: Vec<Option<T>> = futures_util::stream::iter(ids.into_iter().map(Into::into))
        .map(|id| {
            let coll = coll.clone();
            async move {
                coll.find_one(doc! { "_id": id })
                    .await
                    .db_context("reading a document by id")
            }
        })
        .buffer_unordered(LOOKUPS)
        .try_collect()
        .await?;
    Ok(found.into_iter().flatten().collect())
}

/// The email claims of `post` still `sending` that were taken before `before` by a worker other
/// than `owner`: emails of a worker that stopped (its lease expired) while sending them.
pub async fn unsettled_emails(
    db: &Db,
    post: ObjectId,
    owner: &str,
    before: DateTime,
) -> DbResult<Vec<Document>> {
    deliveries(db)
        .find(doc! {
            "postId": post,
            "channel": "email",
            "status": "sending",
            "createdAt": { "$lt": before },
            "owner": { "$ne": owner },
        })
        .sort(doc! { "_id": 1 })
        .await
        .db_context("reading unsettled deliveries")?
        .try_collect()
        .await
        .db_context("reading unsettled deliveries")
}

/// Stores the email log entries of interrupted emails, each under its claim's id, so storing
/// them again (a second takeover) adds nothing.
pub async fn record_interrupted_logs(
    db: &Db,
    logs: &[crate::persistence::email_logs::EmailLog],
) -> DbResult<()> {
    use mongodb::error::ErrorKind;
    if logs.is_empty() {
        return Ok(());
    }
    let r = db
        .database()
        .collection::<crate::persistence::email_logs::EmailLog>(
            crate::persistence::email_logs::COLLECTION,
        )
        .insert_many(logs)
        .ordered(false)
        .await;
    match r {
        Ok(_) => Ok(()),
        Err(e) => {
            let ErrorKind::InsertMany(ref failure) = *e.kind else {
                return Err(e).db_context("recording interrupted emails");
            };
            let only_duplicates = failure.write_concern_error.is_none()
                && failure
                    .write_errors
                    .iter()
                    .flatten()
                    .all(|w| w.code == 11000);
            if only_duplicates {
                Ok(())
            } else {
                Err(e).db_context("recording interrupted emails")
            }
        }
    }
}

/// Settles the claims `ids` still `sending` with `status` (`interrupted`: the worker stopped
/// while sending them); returns how many this call settled.
pub async fn settle_claims(
    db: &Db,
    ids: &[ObjectId],
    status: &str,
    interrupted: bool,
) -> DbResult<u64> {
    let at = now();
    let statements = ids
        .iter()
        .map(|id| {
            (
                doc! { "_id": id, "status": "sending" },
                doc! { "$set": { "status": status, "interrupted": interrupted, "settledAt": at } },
            )
        })
        .collect();
    update_each(db, DELIVERIES, statements).await
}

/// The email log entries stored under `ids` (claims' ids), by id.
pub async fn logged_outcomes(
    db: &Db,
    ids: &[ObjectId],
) -> DbResult<std::collections::HashMap<ObjectId, crate::persistence::email_logs::EmailLog>> {
    let logs: Vec<crate::persistence::email_logs::EmailLog> = find_each(
        db,
        crate::persistence::email_logs::COLLECTION,
        ids.iter().copied(),
    )
    .await?;
    Ok(logs.into_iter().map(|l| (l.id, l)).collect())
}
