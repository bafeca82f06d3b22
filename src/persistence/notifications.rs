//! The `notifications` collection: what a user is told about (likes, bookmarks, comments,
//! replies, administrator notices and replies, appeals). Sender name and avatar and the post's
//! title are copied in when the notification is created, so a list needs no joins and still reads
//! well after the post or sender is gone.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "notifications";
/// Most notifications an administrator sees in one user's history.
pub const HISTORY_LIMIT: i64 = 200;

/// What a notification is about (`type` on the wire, seed 000 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Like,
    Bookmark,
    Comment,
    Reply,
    Admin,
    AdminReply,
    Appeal,
    /// A subscription event for an author (a new subscriber, a cancellation, a refund).
    Subscription,
    /// An author the addressee follows published a post.
    NewPost,
    /// A reader tipped the addressee for one of their posts.
    Tip,
}

impl Kind {
    /// Every kind, in the order of the specification.
    pub const ALL: [Self; 10] = [
        Self::Like,
        Self::Bookmark,
        Self::Comment,
        Self::Reply,
        Self::Admin,
        Self::AdminReply,
        Self::Appeal,
        Self::Subscription,
        Self::NewPost,
        Self::Tip,
    ];

    /// The name stored and sent as `type`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Like => "like",
            Self::Bookmark => "bookmark",
            Self::Comment => "comment",
            Self::Reply => "reply",
            Self::Admin => "admin",
            Self::AdminReply => "admin_reply",
            Self::Appeal => "appeal",
            Self::Subscription => "subscription",
            Self::NewPost => "new_post",
            Self::Tip => "tip",
        }
    }

    /// Whether an administrator wrote it (the inbox's `type=admin`).
    pub const fn is_from_admin(self) -> bool {
        matches!(self, Self::Admin | Self::AdminReply)
    }
}

/// A stored notification.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The addressee.
    pub user_id: ObjectId,
    #[serde(rename = "type")]
    pub kind: Kind,
    #[serde(default)]
    pub content: String,
    #[serde(default)]
    pub read: bool,
    #[serde(default)]
    pub navigate_to: Option<String>,
    #[serde(default)]
    pub sender_id: Option<ObjectId>,
    #[serde(default)]
    pub sender_name: Option<String>,
    #[serde(default)]
    pub sender_avatar: Option<String>,
    #[serde(default)]
    pub post_id: Option<ObjectId>,
    #[serde(default)]
    pub post_title: Option<String>,
    /// The notification this one answers (replies).
    #[serde(default)]
    pub reply_to: Option<ObjectId>,
    pub created_at: DateTime,
}

fn collection(db: &Db) -> Collection<Notification> {
    db.database().collection(COLLECTION)
}

/// A user's list by date, their unread ones, and what a user sent (an account's removal).
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let by_user = index(doc! { "userId": 1, "createdAt": -1 }, "user_created");
    let unread = index(doc! { "userId": 1, "read": 1 }, "user_read");
    let by_sender = index(doc! { "senderId": 1 }, "sender");
    super::create_indexes(
        &collection(db),
        [by_user, unread, by_sender],
        "creating notification indexes",
    )
    .await?;
    Ok(())
}

/// How many notifications of `kind` about `post` reached `user` since `since`.
pub async fn count_about_since(
    db: &Db,
    user: ObjectId,
    post: ObjectId,
    kind: Kind,
    since: DateTime,
) -> DbResult<u64> {
    let kind = mongodb::bson::to_bson(&kind).unwrap_or_default();
    collection(db)
        .count_documents(doc! {
            "userId": user,
            "createdAt": { "$gte": since },
            "type": kind,
            "postId": post,
        })
        .await
        .db_context("counting notifications")
}

/// Stores one notification.
pub async fn insert(db: &Db, notification: &Notification) -> DbResult<()> {
    collection(db)
        .insert_one(notification)
        .await
        .db_context("storing a notification")?;
    Ok(())
}

/// Stores notifications whose `_id` says what they are about (a new post's notice to one
/// reader), each unless it is stored already; returns the positions of those stored before.
pub async fn insert_new(
    db: &Db,
    notifications: &[Notification],
) -> DbResult<std::collections::HashSet<usize>> {
    super::insert_new(&collection(db), notifications, "storing notifications").await
}

/// One page of a user's notifications of the given kinds (every kind when `kinds` is empty),
/// newest first, and how many such notifications they have in all.
pub async fn list_for_user(
    db: &Db,
    user: ObjectId,
    kinds: &[Kind],
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<Notification>, u64)> {
    let mut filter = doc! { "userId": user };
    if !kinds.is_empty() {
        let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        filter.insert("type", doc! { "$in": names });
    }
    let items = collection(db)
        .find(filter.clone())
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing notifications")?
        .try_collect()
        .await
        .db_context("reading notifications")?;
    let total = collection(db)
        .count_documents(filter)
        .await
        .db_context("counting notifications")?;
    Ok((items, total))
}

/// A user's most recent notifications (administrators' history view).
pub async fn history(db: &Db, user: ObjectId) -> DbResult<Vec<Notification>> {
    collection(db)
        .find(doc! { "userId": user })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .limit(HISTORY_LIMIT)
        .await
        .db_context("loading a notification history")?
        .try_collect()
        .await
        .db_context("reading a notification history")
}

/// A user's notifications that link to `navigate_to` (the notices about one report), newest
/// first.
pub async fn linking_to(db: &Db, user: ObjectId, navigate_to: &str) -> DbResult<Vec<Notification>> {
    collection(db)
        .find(doc! { "userId": user, "navigateTo": navigate_to })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .limit(HISTORY_LIMIT)
        .await
        .db_context("loading the notifications of a link")?
        .try_collect()
        .await
        .db_context("reading the notifications of a link")
}

/// How many unread notifications a user has.
pub async fn count_unread(db: &Db, user: ObjectId) -> DbResult<u64> {
    collection(db)
        .count_documents(doc! { "userId": user, "read": false })
        .await
        .db_context("counting unread notifications")
}

/// A notification, only if `user` is its addressee.
pub async fn find_owned(db: &Db, id: ObjectId, user: ObjectId) -> DbResult<Option<Notification>> {
    collection(db)
        .find_one(doc! { "_id": id, "userId": user })
        .await
        .db_context("loading a notification")
}

/// Marks one of `user`'s notifications read; returns it as it was before (so `read` says whether
/// this changed it), `None` when it is not theirs.
pub async fn mark_read(db: &Db, id: ObjectId, user: ObjectId) -> DbResult<Option<Notification>> {
    collection(db)
        .find_one_and_update(
            doc! { "_id": id, "userId": user },
            doc! { "$set": { "read": true } },
        )
        .return_document(ReturnDocument::Before)
        .await
        .db_context("marking a notification read")
}

/// Marks all of `user`'s notifications read; returns how many changed.
pub async fn mark_all_read(db: &Db, user: ObjectId) -> DbResult<u64> {
    let res = collection(db)
        .update_many(
            doc! { "userId": user, "read": false },
            doc! { "$set": { "read": true } },
        )
        .await
        .db_context("marking notifications read")?;
    Ok(res.modified_count)
}

/// Deletes one of `user`'s notifications; returns it, or `None` when it is not theirs.
pub async fn delete_owned(db: &Db, id: ObjectId, user: ObjectId) -> DbResult<Option<Notification>> {
    collection(db)
        .find_one_and_delete(doc! { "_id": id, "userId": user })
        .await
        .db_context("deleting a notification")
}

/// Ids of every account that can receive a broadcast: not blocked, and not `except`.
pub async fn broadcast_audience(db: &Db, except: ObjectId) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(super::users::COLLECTION)
        .find(doc! { "_id": { "$ne": except }, "blocked": { "$ne": true } })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("listing broadcast recipients")?
        .try_collect()
        .await
        .db_context("reading broadcast recipients")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect())
}

/// Ids of every administrator (appeal notifications).
pub async fn admin_ids(db: &Db) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(super::users::COLLECTION)
        .find(doc! { "role": "admin", "blocked": { "$ne": true } })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("listing administrators")?
        .try_collect()
        .await
        .db_context("reading administrators")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect())
}
