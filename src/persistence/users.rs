//! The `users` collection: identities, profiles, roles and the session epoch.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::observer::Change;
use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbError, DbResult};

pub const COLLECTION: &str = "users";

/// A user's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    #[default]
    User,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Admin => "admin",
        }
    }
}

pub use crate::domain::eligibility::MilestoneOverride;

/// A stored user.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub name: String,
    /// Trimmed and lowercased; unique.
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_hash: Option<String>,
    #[serde(default)]
    pub role: Role,
    #[serde(default)]
    pub blocked: bool,
    #[serde(default)]
    pub is_account_verified: bool,
    #[serde(default)]
    pub avatar: Option<String>,
    #[serde(default)]
    pub bio: Option<String>,
    #[serde(default)]
    pub region: Option<String>,
    #[serde(default)]
    pub website: Option<String>,
    #[serde(default)]
    pub location: Option<String>,
    /// Raised whenever every outstanding token must stop working (password reset, block).
    #[serde(default)]
    pub token_version: i64,
    #[serde(default)]
    pub consent: Option<bool>,
    #[serde(default)]
    pub consent_at: Option<DateTime>,
    #[serde(default)]
    pub total_posts: i64,
    #[serde(default)]
    pub is_eligible_for_subscription: bool,
    #[serde(default)]
    pub bypass_subscription_criteria: bool,
    #[serde(default)]
    pub milestone_override: MilestoneOverride,
    /// The user does not want the daily post email (unsubscribed by its link or in settings).
    #[serde(default)]
    pub daily_post_opt_out: bool,
    pub created_at: DateTime,
    pub updated_at: DateTime,
}

/// What a new account starts with.
pub struct NewUser {
    pub name: String,
    pub email: String,
    pub password_hash: Option<String>,
    pub is_account_verified: bool,
    pub avatar: Option<String>,
}

/// Profile fields a user may change about themselves; `None` leaves a field as it is.
#[derive(Debug, Default)]
pub struct ProfileChanges {
    pub name: Option<String>,
    pub avatar: Option<Option<String>>,
    pub bio: Option<Option<String>>,
    pub region: Option<Option<String>>,
    pub website: Option<Option<String>>,
    pub location: Option<Option<String>>,
    /// Whether the user wants the daily post email.
    pub daily_post_email: Option<bool>,
}

fn collection(db: &Db) -> Collection<User> {
    db.database().collection(COLLECTION)
}

/// Normalises an email for storage and comparison.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Unique email.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let email = unique_index(doc! { "email": 1 }, "email_unique");
    let created = index(doc! { "createdAt": -1 }, "created_at");
    super::create_indexes(&collection(db), [email, created], "creating user indexes").await?;
    Ok(())
}

/// Inserts a new user; a taken email is `DbError::Duplicate("email")`.
pub async fn create(db: &Db, new: NewUser) -> DbResult<User> {
    let at = now();
    let user = User {
        id: ObjectId::new(),
        name: new.name,
        email: normalize_email(&new.email),
        password_hash: new.password_hash,
        role: Role::User,
        blocked: false,
        is_account_verified: new.is_account_verified,
        avatar: new.avatar,
        bio: None,
        region: None,
        website: None,
        location: None,
        token_version: 0,
        consent: None,
        consent_at: None,
        total_posts: 0,
        is_eligible_for_subscription: false,
        bypass_subscription_criteria: false,
        milestone_override: MilestoneOverride::default(),
        daily_post_opt_out: false,
        created_at: at,
        updated_at: at,
    };
    match collection(db).insert_one(&user).await {
        Ok(_) => {
            db.changed(Change::Users(vec![user.id])).await;
            Ok(user)
        }
        Err(e) if is_duplicate_key(&e) => Err(DbError::Duplicate("An account with this email")),
        Err(e) => Err(e).db_context("inserting a user"),
    }
}

/// Finds a user by id.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<User>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a user by id")
}

/// Finds a user by email (normalised here).
pub async fn find_by_email(db: &Db, email: &str) -> DbResult<Option<User>> {
    collection(db)
        .find_one(doc! { "email": normalize_email(email) })
        .await
        .db_context("loading a user by email")
}

/// Every user, as a stream (for building the user search index).
pub async fn stream_all(db: &Db) -> DbResult<mongodb::Cursor<User>> {
    collection(db)
        .find(doc! {})
        .await
        .db_context("reading every user")
}

/// Finds the users with these ids (in no particular order).
pub async fn find_many(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<User>> {
    use futures_util::TryStreamExt;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    collection(db)
        .find(doc! { "_id": { "$in": ids } })
        .await
        .db_context("loading users by id")?
        .try_collect()
        .await
        .db_context("reading users")
}

/// Every change of a user goes through here (or `create`, `delete`), which reports it.
async fn update_returning(db: &Db, id: ObjectId, update: Document) -> DbResult<Option<User>> {
    let updated = collection(db)
        .find_one_and_update(doc! { "_id": id }, update)
        .return_document(ReturnDocument::After)
        .await
        .db_context("updating a user")?;
    if updated.is_some() {
        db.changed(Change::Users(vec![id])).await;
    }
    Ok(updated)
}

/// Applies profile changes and returns the updated user.
pub async fn update_profile(
    db: &Db,
    id: ObjectId,
    changes: ProfileChanges,
) -> DbResult<Option<User>> {
    let mut set = doc! { "updatedAt": now() };
    if let Some(name) = changes.name {
        set.insert("name", name);
    }
    let optional = [
        ("avatar", changes.avatar),
        ("bio", changes.bio),
        ("region", changes.region),
        ("website", changes.website),
        ("location", changes.location),
    ];
    for (field, value) in optional {
        if let Some(value) = value {
            set.insert(field, value);
        }
    }
    if let Some(wanted) = changes.daily_post_email {
        set.insert("dailyPostOptOut", !wanted);
    }
    update_returning(db, id, doc! { "$set": set }).await
}

/// Marks the account's email as verified.
pub async fn mark_verified(db: &Db, id: ObjectId) -> DbResult<Option<User>> {
    update_returning(
        db,
        id,
        doc! { "$set": { "isAccountVerified": true, "updatedAt": now() } },
    )
    .await
}

/// Stores a new password hash and ends every outstanding session.
pub async fn set_password(db: &Db, id: ObjectId, password_hash: &str) -> DbResult<Option<User>> {
    update_returning(
        db,
        id,
        doc! {
            "$set": { "passwordHash": password_hash, "updatedAt": now() },
            "$inc": { "tokenVersion": 1_i64 },
        },
    )
    .await
}

/// Ends every outstanding session of the user (their tokens stop working).
pub async fn end_sessions(db: &Db, id: ObjectId) -> DbResult<Option<User>> {
    update_returning(
        db,
        id,
        doc! { "$set": { "updatedAt": now() }, "$inc": { "tokenVersion": 1_i64 } },
    )
    .await
}

/// Blocks or unblocks a user; blocking ends every outstanding session.
pub async fn set_blocked(db: &Db, id: ObjectId, blocked: bool) -> DbResult<Option<User>> {
    let mut update = doc! { "$set": { "blocked": blocked, "updatedAt": now() } };
    if blocked {
        update.insert("$inc", doc! { "tokenVersion": 1_i64 });
    }
    update_returning(db, id, update).await
}

/// Sets a user's role.
pub async fn set_role(db: &Db, id: ObjectId, role: Role) -> DbResult<Option<User>> {
    update_returning(
        db,
        id,
        doc! { "$set": { "role": role.as_str(), "updatedAt": now() } },
    )
    .await
}

/// Changes the block state only if it is still `from`; blocking ends every outstanding session.
/// `None`: no such user, or someone changed it meanwhile.
pub async fn toggle_blocked(db: &Db, id: ObjectId, from: bool) -> DbResult<Option<User>> {
    let mut update = doc! { "$set": { "blocked": !from, "updatedAt": now() } };
    if !from {
        update.insert("$inc", doc! { "tokenVersion": 1_i64 });
    }
    let updated = collection(db)
        .find_one_and_update(doc! { "_id": id, "blocked": from }, update)
        .return_document(ReturnDocument::After)
        .await
        .db_context("blocking a user")?;
    if updated.is_some() {
        db.changed(Change::Users(vec![id])).await;
    }
    Ok(updated)
}

/// Changes the role only if it is still `from`. `None`: no such user, or someone changed it
/// meanwhile.
pub async fn change_role(db: &Db, id: ObjectId, from: Role, to: Role) -> DbResult<Option<User>> {
    let updated = collection(db)
        .find_one_and_update(
            doc! { "_id": id, "role": from.as_str() },
            doc! { "$set": { "role": to.as_str(), "updatedAt": now() } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("changing a user's role")?;
    if updated.is_some() {
        db.changed(Change::Users(vec![id])).await;
    }
    Ok(updated)
}

/// Administrators who are not blocked, leaving out `except`.
pub async fn count_active_admins(db: &Db, except: Option<ObjectId>) -> DbResult<u64> {
    let mut filter = doc! { "role": Role::Admin.as_str(), "blocked": { "$ne": true } };
    if let Some(id) = except {
        filter.insert("_id", doc! { "$ne": id });
    }
    collection(db)
        .count_documents(filter)
        .await
        .db_context("counting administrators")
}

/// How many accounts match `filter`.
pub async fn count(db: &Db, filter: Document) -> DbResult<u64> {
    collection(db)
        .count_documents(filter)
        .await
        .db_context("counting users")
}

/// How many accounts were created since `since`.
pub async fn count_created_since(db: &Db, since: DateTime) -> DbResult<u64> {
    count(db, doc! { "createdAt": { "$gte": since } }).await
}

/// How many accounts there are.
pub async fn count_all(db: &Db) -> DbResult<u64> {
    count(db, doc! {}).await
}

/// One page of the users matching `filter` in `sort` order, and how many match.
pub async fn page(
    db: &Db,
    filter: Document,
    sort: Document,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<User>, u64)> {
    super::page_of(&collection(db), filter, sort, None, skip, limit).await
}

/// One page of the users whose name or email matches the regular expression `pattern`
/// (case-insensitive; every user when `None`) in `sort` order, and how many match.
pub async fn page_by_name_or_email(
    db: &Db,
    pattern: Option<&str>,
    sort: crate::domain::params::SortBy,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<User>, u64)> {
    let mut filter = Document::new();
    if let Some(pattern) = pattern {
        filter.insert(
            "$or",
            vec![
                doc! { "name": { "$regex": pattern, "$options": "i" } },
                doc! { "email": { "$regex": pattern, "$options": "i" } },
            ],
        );
    }
    page(db, filter, super::sort_document(sort), skip, limit).await
}

/// Who receives the daily post email: verified, not blocked, not unsubscribed.
fn daily_post_recipient_filter() -> Document {
    doc! {
        "isAccountVerified": true,
        "blocked": { "$ne": true },
        "dailyPostOptOut": { "$ne": true },
    }
}

/// The ids of every user who receives the daily post email, in id order: one pass over the
/// users (their documents are read a batch at a time by [`daily_post_recipients_among`]).
pub async fn daily_post_recipient_ids(db: &Db) -> DbResult<Vec<ObjectId>> {
    use futures_util::TryStreamExt;
    let found: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(daily_post_recipient_filter())
        .projection(doc! { "_id": 1 })
        .sort(doc! { "_id": 1 })
        .await
        .db_context("listing daily email recipients")?
        .try_collect()
        .await
        .db_context("reading daily email recipients")?;
    Ok(found
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect())
}

/// Those of `ids` who still receive the daily post email, in id order (found by id).
pub async fn daily_post_recipients_among(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<User>> {
    use futures_util::TryStreamExt;
    let mut filter = daily_post_recipient_filter();
    filter.insert("_id", doc! { "$in": ids });
    let mut found: Vec<User> = collection(db)
        .find(filter)
        .await
        .db_context("loading daily email recipients")?
        .try_collect()
        .await
        .db_context("reading daily email recipients")?;
    found.sort_by_key(|u| u.id);
    Ok(found)
}

/// Stops (or restarts) the daily post email for a user; `None`: no such user.
pub async fn set_daily_post_opt_out(
    db: &Db,
    id: ObjectId,
    opt_out: bool,
) -> DbResult<Option<User>> {
    update_returning(
        db,
        id,
        doc! { "$set": { "dailyPostOptOut": opt_out, "updatedAt": now() } },
    )
    .await
}

/// Records the cookie consent choice.
pub async fn set_consent(db: &Db, id: ObjectId, consent: bool) -> DbResult<Option<User>> {
    update_returning(
        db,
        id,
        doc! { "$set": { "consent": consent, "consentAt": now(), "updatedAt": now() } },
    )
    .await
}

/// Sets the subscription switches an administrator controls (and the stored verdict);
/// `None` leaves one as it is.
pub async fn set_subscription_flags(
    db: &Db,
    id: ObjectId,
    is_eligible: Option<bool>,
    bypass: Option<bool>,
) -> DbResult<Option<User>> {
    let mut set = doc! { "updatedAt": now() };
    if let Some(v) = is_eligible {
        set.insert("isEligibleForSubscription", v);
    }
    if let Some(v) = bypass {
        set.insert("bypassSubscriptionCriteria", v);
    }
    update_returning(db, id, doc! { "$set": set }).await
}

/// Replaces a user's milestone override (all four null resets it).
pub async fn set_milestone_override(
    db: &Db,
    id: ObjectId,
    o: &MilestoneOverride,
) -> DbResult<Option<User>> {
    update_returning(
        db,
        id,
        doc! { "$set": {
            "milestoneOverride": {
                "followerCount": o.follower_count,
                "postCount": o.post_count,
                "engagementRate": o.engagement_rate,
                "accountAgeDays": o.account_age_days,
            },
            "updatedAt": now(),
        } },
    )
    .await
}

/// Deletes a user.
pub async fn delete(db: &Db, id: ObjectId) -> DbResult<bool> {
    let res = collection(db)
        .delete_one(doc! { "_id": id })
        .await
        .db_context("deleting a user")?;
    db.changed(Change::Users(vec![id])).await;
    Ok(res.deleted_count == 1)
}
