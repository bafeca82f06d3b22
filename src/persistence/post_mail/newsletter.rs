//! Email-only subscribers of an author (double opt-in): pending until the link is followed.

use super::*;

/// An email-only subscriber of an author.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewsletterSubscriber {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub author_id: ObjectId,
    /// Lower-cased.
    pub email: String,
    /// `pending` until the address is confirmed, then `confirmed`; `unsubscribed` after.
    pub status: String,
    /// SHA-256 of the confirmation token in the link (the token itself is never stored).
    #[serde(default)]
    pub token_hash: Option<String>,
    #[serde(default)]
    pub token_expires_at: Option<DateTime>,
    pub created_at: DateTime,
    #[serde(default)]
    pub confirmed_at: Option<DateTime>,
}

/// Reads an author's subscriber by address.
pub async fn subscriber(
    db: &Db,
    author: ObjectId,
    email: &str,
) -> DbResult<Option<NewsletterSubscriber>> {
    newsletter(db)
        .find_one(doc! { "authorId": author, "email": email })
        .await
        .db_context("reading a newsletter subscriber")
}

/// Stores a pending subscription's new token (creating the subscriber when new). A confirmed
/// subscriber is left alone (`false`).
pub async fn start_pending(
    db: &Db,
    author: ObjectId,
    email: &str,
    token_hash: &str,
    expires: DateTime,
) -> DbResult<bool> {
    let r = newsletter(db)
        .update_one(
            doc! { "authorId": author, "email": email, "status": { "$ne": "confirmed" } },
            doc! {
                "$set": { "status": "pending", "tokenHash": token_hash, "tokenExpiresAt": expires },
                "$setOnInsert": { "_id": ObjectId::new(), "createdAt": now() },
            },
        )
        .upsert(true)
        .await;
    match r {
        Ok(_) => Ok(true),
        // The address is confirmed already: the upsert's insert met the unique index.
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("storing a newsletter subscriber"),
    }
}

/// The outcome of a confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    Confirmed(ObjectId),
    Expired,
    Unknown,
}

/// Confirms the pending subscriber whose token hashes to `token_hash`; the token is used up.
pub async fn confirm(db: &Db, token_hash: &str) -> DbResult<Confirmation> {
    let at = now();
    let found = newsletter(db)
        .find_one_and_update(
            doc! { "tokenHash": token_hash, "status": "pending" },
            doc! {
                "$set": { "tokenHash": mongodb::bson::Bson::Null },
            },
        )
        .await
        .db_context("confirming a newsletter subscriber")?;
    let Some(sub) = found else {
        return Ok(Confirmation::Unknown);
    };
    if sub.token_expires_at.is_none_or(|e| e < at) {
        return Ok(Confirmation::Expired);
    }
    newsletter(db)
        .update_one(
            doc! { "_id": sub.id },
            doc! { "$set": { "status": "confirmed", "confirmedAt": at } },
        )
        .await
        .db_context("confirming a newsletter subscriber")?;
    Ok(Confirmation::Confirmed(sub.author_id))
}

/// Ends a subscriber's subscription.
pub async fn unsubscribe_subscriber(db: &Db, id: ObjectId) -> DbResult<bool> {
    let r = newsletter(db)
        .update_one(
            doc! { "_id": id },
            doc! { "$set": { "status": "unsubscribed", "tokenHash": mongodb::bson::Bson::Null } },
        )
        .await
        .db_context("unsubscribing")?;
    Ok(r.matched_count == 1)
}

/// The next batch of an author's confirmed subscribers after `after`, by id.
pub async fn confirmed_after(
    db: &Db,
    author: ObjectId,
    after: Option<ObjectId>,
    limit: i64,
) -> DbResult<Vec<NewsletterSubscriber>> {
    let mut filter = doc! { "authorId": author, "status": "confirmed" };
    if let Some(a) = after {
        filter.insert("_id", doc! { "$gt": a });
    }
    newsletter(db)
        .find(filter)
        .sort(doc! { "_id": 1 })
        .limit(limit)
        .await
        .db_context("listing newsletter subscribers")?
        .try_collect()
        .await
        .db_context("reading newsletter subscribers")
}

/// Moves a pending subscriber's token expiry (tests and operators).
pub async fn set_token_expiry(
    db: &Db,
    author: ObjectId,
    email: &str,
    at: DateTime,
) -> DbResult<()> {
    newsletter(db)
        .update_one(
            doc! { "authorId": author, "email": email },
            doc! { "$set": { "tokenExpiresAt": at } },
        )
        .await
        .db_context("moving a token's expiry")?;
    Ok(())
}
