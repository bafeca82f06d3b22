//! What an account leaves in other collections, for its removal: which records go with it,
//! which stay without their tie to the person, and the tombstone that remembers the id.
//!
//! A collection that holds a user id adds itself to [`DELETED_WITH_ACCOUNT`] (the records are
//! the person's own: follows, likes, reading time...) or to [`KEPT_ANONYMISED`] (the records
//! are the site's history and must stay: counted views and shares, reports; and money records:
//! see `docs/decisions.md` "Deleting an account").

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, DateTime, Document};

use super::{now, Db, DbContext, DbResult};

/// Remembers removed accounts: `{_id: userId, deletedAt, deletedBy}`. Kept records that still
/// carry the id (money records) read it as "Deleted user".
pub const TOMBSTONES: &str = "deleted_accounts";

/// Records deleted with the account: (collection, field holding the user's id). Engagement
/// that feeds a post counter (likes, bookmarks, comments, poll votes) is removed separately, so
/// the counters can be recounted.
pub const DELETED_WITH_ACCOUNT: &[(&str, &str)] = &[
    (super::graph::FOLLOWS, "followerId"),
    (super::graph::FOLLOWS, "followeeId"),
    ("blocks", "blockerId"),
    ("blocks", "blockedId"),
    ("notifications", "userId"),
    ("user_locations", "userId"),
    ("user_activity", "userId"),
    ("feedback", "userId"),
    ("feedback_prompts", "_id"),
    ("reading_times", "userId"),
    ("comment_reactions", "userId"),
    (super::comments::KEYS, "userId"),
    ("achievements", "_id"),
    ("user_categories", "_id"),
    ("google_identities", "userId"),
    ("otps", "userId"),
    ("daily_mail_logs", "userId"),
    ("payment_customers", "_id"),
    ("sessions", "userId"),
    ("two_factor", "_id"),
    ("login_challenges", "userId"),
    (super::passkeys::COLLECTION, "userId"),
    (super::passkeys::HANDLES, "_id"),
    (super::passkeys::CEREMONIES, "userId"),
    (super::api_keys::COLLECTION, "userId"),
    (super::push_devices::COLLECTION, "userId"),
    (super::push_devices::PREFERENCES, "_id"),
    (super::push_deliveries::COLLECTION, "userId"),
    (super::webhooks::ENDPOINTS, "ownerId"),
    (super::webhooks::DELIVERIES, "ownerId"),
    ("account_deletions", "_id"),
    ("data_exports", "userId"),
    (super::tips::SETTINGS, "_id"),
    (super::series::COLLECTION, "author"),
    (super::series::FOLLOWS, "userId"),
];

/// Records kept when the account goes, with the fields that tie them to the person removed:
/// (collection, field holding the user's id, other personal fields to remove). A view or a
/// share stays counted; a report on someone else's post stays for the moderation history.
pub const KEPT_ANONYMISED: &[(&str, &str, &[&str])] = &[
    ("views", "userId", &[]),
    ("shares", "userId", &[]),
    ("reports", "reporterId", &["reporterName", "reporterEmail"]),
];

fn records(db: &Db, collection: &str) -> mongodb::Collection<Document> {
    db.database().collection(collection)
}

/// The distinct values of the id field `field` in the documents of `collection` matching
/// `filter`.
pub async fn ids_in(
    db: &Db,
    collection: &str,
    filter: Document,
    field: &str,
) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = records(db, collection)
        .find(filter)
        .projection(doc! { field: 1 })
        .await
        .db_context("reading an account's records")?
        .try_collect()
        .await
        .db_context("reading an account's records")?;
    let mut ids: Vec<ObjectId> = docs
        .iter()
        .filter_map(|d| d.get_object_id(field).ok())
        .collect();
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// The documents of `collection` matching `filter`.
pub async fn find_in(db: &Db, collection: &str, filter: Document) -> DbResult<Vec<Document>> {
    records(db, collection)
        .find(filter)
        .await
        .db_context("reading an account's records")?
        .try_collect()
        .await
        .db_context("reading an account's records")
}

/// Deletes the documents of `collection` matching `filter`; returns how many. Removed follows,
/// blocks and bookmarks are reported to the write observer one by one (the read index keeps
/// them per user).
pub async fn delete_in(db: &Db, collection: &str, filter: Document) -> DbResult<u64> {
    let reported = if super::observer::follows_records_of(collection) {
        find_in(db, collection, filter.clone()).await?
    } else {
        Vec::new()
    };
    let res = records(db, collection)
        .delete_many(filter)
        .await
        .db_context("deleting an account's records")?;
    for record in &reported {
        if let Some(change) = super::observer::removal_of(collection, record) {
            db.changed(change).await;
        }
    }
    Ok(res.deleted_count)
}

/// Removes `field` (holding `user`) and `personal` from the matching documents of `collection`,
/// marking them anonymised; returns how many.
pub async fn anonymise_in(
    db: &Db,
    collection: &str,
    field: &str,
    user: ObjectId,
    personal: &[&str],
) -> DbResult<u64> {
    let mut unset = doc! { field: "" };
    for f in personal {
        unset.insert(*f, "");
    }
    let res = records(db, collection)
        .update_many(
            doc! { field: user },
            doc! { "$unset": unset, "$set": { "anonymisedAt": now() } },
        )
        .await
        .db_context("anonymising an account's records")?;
    Ok(res.modified_count)
}

/// Remembers that `user` was removed by `by`.
pub async fn bury(db: &Db, user: ObjectId, by: ObjectId, at: DateTime) -> DbResult<()> {
    records(db, TOMBSTONES)
        .update_one(
            doc! { "_id": user },
            doc! { "$set": { "deletedAt": at, "deletedBy": by } },
        )
        .upsert(true)
        .await
        .db_context("recording a removed account")?;
    Ok(())
}

/// Whether `user` is a removed account.
pub async fn is_buried(db: &Db, user: ObjectId) -> DbResult<bool> {
    let found = records(db, TOMBSTONES)
        .find_one(doc! { "_id": Bson::ObjectId(user) })
        .await
        .db_context("checking removed accounts")?;
    Ok(found.is_some())
}
