//! Post views: `view_windows` holds one document per (post, viewer) with the time its last view
//! was counted (unique index), so a viewer counts once per `VIEW_WINDOW_MS`; `views` holds one
//! event per counted view for the per-day analytics.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;

use super::posts::{self, Counter};
use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "views";
pub const WINDOWS: &str = "view_windows";
/// A viewer's views of one post count once per this many milliseconds (30 minutes).
pub const VIEW_WINDOW_MS: i64 = 30 * 60 * 1000;

fn events(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

fn windows(db: &Db) -> Collection<Document> {
    db.database().collection(WINDOWS)
}

/// One window per (post, viewer); events by post and time.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    windows(db)
        .create_index(unique_index(
            doc! { "postId": 1, "viewer": 1 },
            "post_viewer_unique",
        ))
        .await
        .db_context("creating view window indexes")?;
    events(db)
        .create_index(index(doc! { "postId": 1, "createdAt": -1 }, "post_created"))
        .await
        .db_context("creating view indexes")?;
    Ok(())
}

/// Of `users`, those who have opened `post` while signed in (their view window exists: one
/// query on the unique index).
pub async fn opened_by(
    db: &Db,
    post: ObjectId,
    users: &[ObjectId],
) -> DbResult<std::collections::HashSet<ObjectId>> {
    if users.is_empty() {
        return Ok(Default::default());
    }
    // How `counting::Reader::key` names a signed-in reader.
    let keys: Vec<String> = users
        .iter()
        .map(|u| format!("user:{}", u.to_hex()))
        .collect();
    let docs: Vec<Document> = futures_util::TryStreamExt::try_collect(
        windows(db)
            .find(doc! { "postId": post, "viewer": { "$in": keys } })
            .projection(doc! { "viewer": 1 })
            .await
            .db_context("reading who opened a post")?,
    )
    .await
    .db_context("reading who opened a post")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_str("viewer").ok())
        .filter_map(|v| v.strip_prefix("user:"))
        .filter_map(|hex| ObjectId::parse_str(hex).ok())
        .collect())
}

/// Claims a counted view for this viewer if their last counted view of the post is older than
/// the window; returns whether this view counts.
pub async fn claim(db: &Db, post: ObjectId, viewer: &str) -> DbResult<bool> {
    claim_window(db, WINDOWS, post, viewer, VIEW_WINDOW_MS).await
}

/// Claims a counted action of `viewer` on `post` in the windows collection `collection` (one
/// document per (post, viewer), unique) if their last counted one is older than `window_ms`;
/// returns whether this one counts. Of simultaneous claims one wins: an expired window is
/// deleted, then a new one inserted under the unique index, both atomic writes.
pub async fn claim_window(
    db: &Db,
    collection: &str,
    post: ObjectId,
    viewer: &str,
    window_ms: i64,
) -> DbResult<bool> {
    let windows = db.database().collection::<Document>(collection);
    let at = now();
    let window_start = DateTime::from_millis(at.timestamp_millis() - window_ms);
    windows
        .delete_one(
            doc! { "postId": post, "viewer": viewer, "countedAt": { "$lte": window_start } },
        )
        .await
        .db_context("closing a counting window")?;
    // The unique index settles races; this check keeps repeats harmless even before it exists.
    let open = windows
        .find_one(doc! { "postId": post, "viewer": viewer })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("reading a counting window")?;
    if open.is_some() {
        return Ok(false);
    }
    match windows
        .insert_one(doc! { "postId": post, "viewer": viewer, "countedAt": at })
        .await
    {
        Ok(_) => Ok(true),
        Err(e) if is_duplicate_key(&e) => Ok(false),
        Err(e) => Err(e).db_context("opening a counting window"),
    }
}

/// Records a counted view and recounts the post's `views`; returns the new count (`None`: no
/// such post).
pub async fn record(
    db: &Db,
    post: ObjectId,
    viewer: &str,
    user: Option<ObjectId>,
) -> DbResult<Option<i64>> {
    events(db)
        .insert_one(doc! { "postId": post, "viewer": viewer, "userId": user, "createdAt": now() })
        .await
        .db_context("recording a view")?;
    posts::sync_counter(
        db,
        post,
        Counter::Views,
        COLLECTION,
        doc! { "postId": post },
    )
    .await
}

/// When each counted view of these posts happened since `since`.
pub async fn times_for_posts(
    db: &Db,
    posts: &[ObjectId],
    since: DateTime,
) -> DbResult<Vec<DateTime>> {
    super::creation_times(&events(db), "postId", posts, since, "listing views").await
}
