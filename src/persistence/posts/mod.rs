//! The `posts` collection: content, metadata, counters, a normalised `searchText`, a stored
//! `trendingScore`, and the keyset paging every list uses.
//!
//! Every write of a post goes through this module and ends by reporting the changed posts to the
//! database's observer (`Db::changed`), which keeps the read and search indexes. Write posts only
//! through functions here, so that no code path can leave the indexes behind.

use crate::domain::image_variants::ImageMeta;
use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::observer::Change;
use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbError, DbResult};
use crate::domain::blocks::Block;
use crate::domain::post::{Audience, PostStatus, PostType, Visibility};

mod counters;
mod edit;
mod figures;
mod imported;
mod paging;
mod trending;
pub use counters::*;
pub use edit::*;
pub use figures::*;
pub use imported::*;
pub use paging::*;
pub use trending::*;

pub const COLLECTION: &str = "posts";
/// What a duplicate slug is reported as.
pub const DUPLICATE_SLUG: &str = "A post with this slug";
/// Collections holding per-post engagement, removed with the post: (collection, post field).
/// Bookmarks are not among them: they are removed one by one after the post, so each reader's
/// list hears of it (`services::deletion`); nor are reports, kept as moderation history with the
/// revisions they pinned (`services::deletion`).
pub const DEPENDENT_RECORDS: [(&str, &str); 11] = [
    ("likes", "postId"),
    ("comments", "post"),
    ("views", "postId"),
    ("view_windows", "postId"),
    ("shares", "postId"),
    ("share_windows", "postId"),
    ("reading_times", "postId"),
    ("poll_votes", "postId"),
    ("comment_reactions", "postId"),
    ("report_locks", "postId"),
    (super::series::PART_CLAIMS, "_id"),
];
/// Scheduled posts published per round at most.
pub const MAX_DUE_PER_ROUND: i64 = 1000;

/// A stored post.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Post {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    pub slug: String,
    pub title: String,
    /// Kept in the database in the shape `blocks::storage` gives them (tables without nested arrays).
    #[serde(default, with = "crate::domain::blocks::storage")]
    pub blocks: Vec<Block>,
    #[serde(default)]
    pub thumbnail: Option<String>,
    /// The thumbnail's size and resized variants when it is a stored picture.
    #[serde(default)]
    pub thumbnail_image: Option<ImageMeta>,
    pub author: ObjectId,
    #[serde(default)]
    pub category: Option<ObjectId>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub post_type: PostType,
    #[serde(default)]
    pub visibility: Visibility,
    /// Everyone, or the author's subscribers only.
    #[serde(default)]
    pub audience: Audience,
    #[serde(default)]
    pub is_featured: bool,
    #[serde(default)]
    pub is_pinned: bool,
    #[serde(default)]
    pub is_published: bool,
    #[serde(default = "default_language")]
    pub language: String,
    #[serde(default)]
    pub status: PostStatus,
    #[serde(default)]
    pub publish_at: Option<DateTime>,
    #[serde(default)]
    pub published_at: Option<DateTime>,
    #[serde(default)]
    pub blocked: bool,
    #[serde(default)]
    pub likes_count: i64,
    #[serde(default)]
    pub bookmarks_count: i64,
    #[serde(default)]
    pub views: i64,
    #[serde(default)]
    pub share_count: i64,
    #[serde(default)]
    pub comments_count: i64,
    /// Estimated minutes.
    #[serde(default)]
    pub reading_time: i64,
    /// Lowercased title, tags and block text; what search matches.
    #[serde(default)]
    pub search_text: String,
    #[serde(default)]
    pub trending_score: f64,
    pub created_at: DateTime,
    pub updated_at: DateTime,
    /// When its content last changed after its publication (beyond the grace period): what
    /// readers see as "Edited", feeds as `<updated>` and JSON-LD as `dateModified`.
    #[serde(default)]
    pub edited_at: Option<DateTime>,
    /// The series it is a part of (at most one).
    #[serde(default)]
    pub series_id: Option<ObjectId>,
    /// Where an imported post came from (absent on posts written here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported_from: Option<ImportedFrom>,
    /// `{author}:{source}:{sourceId}` of an imported post ([`import_key`]): the one field the
    /// importer looks its entries up by, top-level so that the store answers it from an index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_key: Option<String>,
}

/// The key an imported post is found by: its author, the platform and its id there.
pub fn import_key(author: ObjectId, source: &str, source_id: &str) -> String {
    format!("{}:{source}:{source_id}", author.to_hex())
}

/// The archive or feed a post was imported from: the platform, the post's id there and its
/// address there (kept as the canonical link).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportedFrom {
    pub source: String,
    pub source_id: String,
    #[serde(default)]
    pub url: Option<String>,
    /// The import that wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_id: Option<ObjectId>,
}

fn default_language() -> String {
    "en".to_string()
}

fn collection(db: &Db) -> Collection<Post> {
    db.database().collection(COLLECTION)
}

/// Unique slug, and one index per list: the public feeds, an author's posts, tags, categories,
/// trending, popular, and the scheduler's due posts.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let models = [
        unique_index(doc! { "slug": 1 }, "slug_unique"),
        index(
            doc! { "status": 1, "visibility": 1, "blocked": 1, "createdAt": -1, "_id": -1 },
            "listable_newest",
        ),
        index(
            doc! { "author": 1, "createdAt": -1, "_id": -1 },
            "author_newest",
        ),
        index(doc! { "tags": 1, "createdAt": -1, "_id": -1 }, "tag_newest"),
        index(
            doc! { "category": 1, "createdAt": -1, "_id": -1 },
            "category_newest",
        ),
        index(
            doc! { "trendingScore": -1, "createdAt": -1, "_id": -1 },
            "trending",
        ),
        index(
            doc! { "likesCount": -1, "views": -1, "createdAt": -1, "_id": -1 },
            "popular",
        ),
        index(doc! { "status": 1, "publishAt": 1 }, "scheduled_due"),
        index(doc! { "importKey": 1 }, "import_key"),
    ];
    super::create_indexes(&collection(db), models, "creating post indexes").await?;
    Ok(())
}

/// The filter of posts anyone may find in lists and search: published, Public, not blocked.
pub fn listable() -> Document {
    doc! { "status": PostStatus::Published.as_str(), "visibility": Visibility::Public.as_str(), "blocked": false }
}

impl Post {
    /// Whether the post matches [`listable`]: it shows in public lists, search and the
    /// following feeds.
    pub fn is_listable(&self) -> bool {
        self.status == PostStatus::Published
            && self.visibility == Visibility::Public
            && !self.blocked
    }
}

/// Inserts a post; a taken slug is `DbError::Duplicate`.
pub async fn insert(db: &Db, post: &Post) -> DbResult<()> {
    match collection(db).insert_one(post).await {
        Ok(_) => {
            db.changed(Change::Posts(vec![post.id])).await;
            Ok(())
        }
        Err(e) if is_duplicate_key(&e) => Err(DbError::Duplicate(DUPLICATE_SLUG)),
        Err(e) => Err(e).db_context("inserting a post"),
    }
}

/// Inserts `posts` with one write; answers the positions of those refused because their slug
/// was taken meanwhile (the others are stored).
pub async fn insert_all(db: &Db, posts: &[Post]) -> DbResult<std::collections::HashSet<usize>> {
    let refused = super::insert_new(&collection(db), posts, "inserting posts").await?;
    let stored: Vec<ObjectId> = posts
        .iter()
        .enumerate()
        .filter(|(i, _)| !refused.contains(i))
        .map(|(_, p)| p.id)
        .collect();
    if !stored.is_empty() {
        db.changed(Change::Posts(stored)).await;
    }
    Ok(refused)
}

/// Which of `slugs` are in use, as a set (one lookup by the slug index).
pub async fn slugs_taken(db: &Db, slugs: &[String]) -> DbResult<std::collections::HashSet<String>> {
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! { "slug": { "$in": slugs } })
        .projection(doc! { "slug": 1 })
        .await
        .db_context("reading slugs in use")?
        .try_collect()
        .await
        .db_context("reading slugs in use")?;
    Ok(docs
        .into_iter()
        .filter_map(|d| d.get_str("slug").ok().map(str::to_string))
        .collect())
}

/// Finds a post by slug.
pub async fn find_by_slug(db: &Db, slug: &str) -> DbResult<Option<Post>> {
    collection(db)
        .find_one(doc! { "slug": slug })
        .await
        .db_context("loading a post by slug")
}

/// Finds a post by id.
pub async fn find_by_id(db: &Db, id: ObjectId) -> DbResult<Option<Post>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("loading a post")
}

/// The id, title and slug of each of `ids` that exists (for lists that name the post).
pub async fn titles(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<(ObjectId, String, String)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let found: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! { "_id": { "$in": ids } })
        .projection(doc! { "title": 1, "slug": 1 })
        .await
        .db_context("loading post titles")?
        .try_collect()
        .await
        .db_context("reading post titles")?;
    Ok(found
        .iter()
        .filter_map(|d| {
            Some((
                d.get_object_id("_id").ok()?,
                d.get_str("title").unwrap_or_default().to_string(),
                d.get_str("slug").unwrap_or_default().to_string(),
            ))
        })
        .collect())
}

/// Sets fields and returns the post as it was before (`None`: no such post).
pub async fn update_returning_before(
    db: &Db,
    id: ObjectId,
    set: Document,
) -> DbResult<Option<Post>> {
    let before = collection(db)
        .find_one_and_update(doc! { "_id": id }, doc! { "$set": set })
        .return_document(ReturnDocument::Before)
        .await
        .db_context("updating a post")?;
    if before.is_some() {
        db.changed(Change::Posts(vec![id])).await;
    }
    Ok(before)
}

/// Moves a post from series `from` (`None`: none) to `to`; false when it was not in `from`
/// (another request moved it first).
pub async fn set_series(
    db: &Db,
    id: ObjectId,
    from: Option<ObjectId>,
    to: Option<ObjectId>,
) -> DbResult<bool> {
    let done = collection(db)
        .update_one(
            doc! { "_id": id, "seriesId": from },
            doc! { "$set": { "seriesId": to } },
        )
        .await
        .db_context("moving a post between series")?;
    if done.modified_count == 1 {
        db.changed(Change::Posts(vec![id])).await;
    }
    Ok(done.modified_count == 1)
}

/// Records that a published post's content was edited at `at`.
pub async fn mark_edited(db: &Db, id: ObjectId, at: DateTime) -> DbResult<()> {
    collection(db)
        .update_one(doc! { "_id": id }, doc! { "$set": { "editedAt": at } })
        .await
        .db_context("recording a post's edit")?;
    db.changed(Change::Posts(vec![id])).await;
    Ok(())
}

/// Blocks or unblocks a post; returns the updated post.
pub async fn set_blocked(db: &Db, id: ObjectId, blocked: bool) -> DbResult<Option<Post>> {
    let updated = collection(db)
        .find_one_and_update(
            doc! { "_id": id },
            doc! { "$set": { "blocked": blocked, "updatedAt": now() } },
        )
        .return_document(ReturnDocument::After)
        .await
        .db_context("blocking a post")?;
    if updated.is_some() {
        db.changed(Change::Posts(vec![id])).await;
    }
    Ok(updated)
}

/// Deletes a post and the engagement records that belong to it (its bookmarks, reported one by
/// one, are removed by the caller: `services::deletion`); returns the deleted post.
pub async fn delete(db: &Db, id: ObjectId) -> DbResult<Option<Post>> {
    let deleted = collection(db)
        .find_one_and_delete(doc! { "_id": id })
        .await
        .db_context("deleting a post")?;
    if deleted.is_some() {
        db.changed(Change::Posts(vec![id])).await;
        for (name, field) in DEPENDENT_RECORDS {
            db.database()
                .collection::<Document>(name)
                .delete_many(doc! { field: id })
                .await
                .db_context("deleting a post's engagement records")?;
        }
    }
    Ok(deleted)
}

/// The scheduled posts whose time has come (at most `MAX_DUE_PER_ROUND`), found by reading the
/// collection: what the scheduler uses when the read index cannot say.
pub async fn due_ids(db: &Db, at: DateTime) -> DbResult<Vec<ObjectId>> {
    Ok(find(
        db,
        doc! { "status": PostStatus::Scheduled.as_str(), "publishAt": { "$lte": at } },
        doc! { "publishAt": 1 },
        0,
        MAX_DUE_PER_ROUND,
    )
    .await?
    .into_iter()
    .map(|p| p.id)
    .collect())
}

/// Publishes the given scheduled posts whose time has come (`candidates`, from `due_ids` or the
/// read index; each is checked again here). Each becomes published with `createdAt` set to its
/// scheduled time, so it takes its place in the feeds. Returns the posts published now.
pub async fn publish_due(db: &Db, candidates: &[ObjectId], at: DateTime) -> DbResult<Vec<Post>> {
    let mut published = Vec::new();
    for &id in candidates {
        let Some(post) = find_by_id(db, id).await? else {
            continue;
        };
        if post.status != PostStatus::Scheduled || post.publish_at.is_some_and(|p| p > at) {
            continue;
        }
        let when = post.publish_at.unwrap_or(at);
        let updated = collection(db)
            .find_one_and_update(
                doc! { "_id": post.id, "status": PostStatus::Scheduled.as_str() },
                doc! { "$set": {
                    "status": PostStatus::Published.as_str(),
                    "isPublished": true,
                    "createdAt": when,
                    "publishedAt": when,
                    "updatedAt": at,
                } },
            )
            .return_document(ReturnDocument::After)
            .await
            .db_context("publishing a scheduled post")?;
        // `None`: the author changed it meanwhile; nothing to do.
        if let Some(p) = updated {
            published.push(p);
        }
    }
    if !published.is_empty() {
        db.changed(Change::Posts(published.iter().map(|p| p.id).collect()))
            .await;
    }
    Ok(published)
}

/// Clears a deleted category from the posts that used it.
pub async fn clear_category(db: &Db, category: ObjectId) -> DbResult<()> {
    let ids: Vec<ObjectId> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! { "category": category })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("finding the posts of a deleted category")?
        .try_collect::<Vec<Document>>()
        .await
        .db_context("finding the posts of a deleted category")?
        .iter()
        .filter_map(|d| d.get_object_id("_id").ok())
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    collection(db)
        .update_many(
            doc! { "_id": { "$in": &ids } },
            doc! { "$set": { "category": Bson::Null } },
        )
        .await
        .db_context("clearing a deleted category from posts")?;
    db.changed(Change::Posts(ids)).await;
    Ok(())
}

/// Every post, as a stream, for rebuilding what is derived from them.
pub async fn stream_all(db: &Db) -> DbResult<mongodb::Cursor<Post>> {
    collection(db)
        .find(doc! {})
        .await
        .db_context("reading every post")
}
