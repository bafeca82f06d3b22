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

pub const COLLECTION: &str = "posts";
/// What a duplicate slug is reported as.
pub const DUPLICATE_SLUG: &str = "A post with this slug";
/// Collections holding per-post engagement, removed with the post: (collection, post field).
pub const DEPENDENT_RECORDS: [(&str, &str); 13] = [
    ("likes", "postId"),
    ("bookmarks", "postId"),
    ("comments", "postId"),
    ("comments", "post"),
    ("views", "postId"),
    ("view_windows", "postId"),
    ("shares", "postId"),
    ("share_windows", "postId"),
    ("reading_times", "postId"),
    ("poll_votes", "postId"),
    ("comment_reactions", "postId"),
    ("reports", "postId"),
    ("report_locks", "postId"),
];
/// How many posts sharing one timestamp a page may carry beyond its limit to stay gap-free when
/// the client sends only `after` (see `list`).
pub const MAX_TIE_EXTENSION: i64 = 500;
/// The trending refresh stores a new score only when it moved by more than this fraction of the
/// stored one (or the stored one is zero), so old posts, whose scores decay slowly, are not
/// rewritten every round.
pub const TRENDING_TOLERANCE: f64 = 0.005;
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
}

fn default_language() -> String {
    "en".to_string()
}

/// How a list is ordered. Every order ends with `_id` so it is total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKind {
    Newest,
    Oldest,
    Trending,
    Popular,
}

impl SortKind {
    /// Sort keys and directions (1 ascending, -1 descending).
    fn keys(self) -> &'static [(&'static str, i32)] {
        match self {
            SortKind::Newest => &[("createdAt", -1), ("_id", -1)],
            SortKind::Oldest => &[("createdAt", 1), ("_id", 1)],
            SortKind::Trending => &[("trendingScore", -1), ("createdAt", -1), ("_id", -1)],
            SortKind::Popular => &[
                ("likesCount", -1),
                ("views", -1),
                ("createdAt", -1),
                ("_id", -1),
            ],
        }
    }

    fn sort_doc(self) -> Document {
        let mut d = Document::new();
        for (k, dir) in self.keys() {
            d.insert(*k, *dir);
        }
        d
    }

    fn reversed_sort_doc(self) -> Document {
        let mut d = Document::new();
        for (k, dir) in self.keys() {
            d.insert(*k, -dir);
        }
        d
    }

    fn value_of(post: &Post, key: &str) -> Bson {
        match key {
            "createdAt" => Bson::DateTime(post.created_at),
            "_id" => Bson::ObjectId(post.id),
            "trendingScore" => Bson::Double(post.trending_score),
            "likesCount" => Bson::Int64(post.likes_count),
            "views" => Bson::Int64(post.views),
            _ => Bson::Null,
        }
    }
}

/// Where a page starts: after the item with this `createdAt` (and, when known, this `_id`), or
/// after skipping whole pages.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageRequest {
    pub after: Option<DateTime>,
    pub after_id: Option<ObjectId>,
    pub skip: u64,
    pub limit: i64,
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

/// Slugs in use that are `base` or `base-<n>`.
pub async fn slugs_like(db: &Db, base: &str) -> DbResult<Vec<String>> {
    let pattern = format!("^{}(-[0-9]+)?$", crate::domain::search::escape_regex(base));
    let docs: Vec<Document> = db
        .database()
        .collection::<Document>(COLLECTION)
        .find(doc! { "slug": { "$regex": pattern } })
        .projection(doc! { "slug": 1 })
        .await
        .db_context("reading similar slugs")?
        .try_collect()
        .await
        .db_context("reading similar slugs")?;
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

/// Keyset condition: strictly after the anchor values in the order of `keys`.
fn after_anchor(keys: &[(&str, i32)], values: &[Bson]) -> Document {
    let mut branches = Vec::with_capacity(keys.len());
    for i in 0..keys.len() {
        let mut branch = Document::new();
        for j in 0..i {
            branch.insert(keys[j].0, values[j].clone());
        }
        let op = if keys[i].1 < 0 { "$lt" } else { "$gt" };
        branch.insert(keys[i].0, doc! { op: values[i].clone() });
        branches.push(branch);
    }
    doc! { "$or": branches }
}

fn and(a: Document, b: Document) -> Document {
    doc! { "$and": [a, b] }
}

async fn find(
    db: &Db,
    filter: Document,
    sort: Document,
    skip: u64,
    limit: i64,
) -> DbResult<Vec<Post>> {
    collection(db)
        .find(filter)
        .sort(sort)
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing posts")?
        .try_collect()
        .await
        .db_context("reading posts")
}

/// One page of the posts matching `filter`, in `sort` order.
///
/// With `after` (the `createdAt` of the last item received) the page holds only items after it:
/// for time orders, strictly older (newest first) or newer (oldest first); ties are broken by
/// `_id` when `after_id` is given. Without `after_id`, a page never ends inside a group of equal
/// timestamps: it stops before the group, or carries the whole group (up to `MAX_TIE_EXTENSION`)
/// when the group starts the page, so the next `after` neither repeats nor skips anything. For score orders, the anchor is the post with
/// that `createdAt` (and `_id`), and the page continues after it in score order.
pub async fn list(
    db: &Db,
    filter: Document,
    sort: SortKind,
    page: PageRequest,
) -> DbResult<Vec<Post>> {
    let keys = sort.keys();
    let time_order = matches!(sort, SortKind::Newest | SortKind::Oldest);
    let cmp = if sort == SortKind::Oldest {
        "$gt"
    } else {
        "$lt"
    };
    if time_order {
        if let (Some(after), Some(after_id)) = (page.after, page.after_id) {
            let anchor = after_anchor(keys, &[Bson::DateTime(after), Bson::ObjectId(after_id)]);
            return find(db, and(filter, anchor), sort.sort_doc(), 0, page.limit).await;
        }
        let first = match page.after {
            Some(after) => and(filter.clone(), doc! { "createdAt": { cmp: after } }),
            None => filter.clone(),
        };
        let mut posts = find(db, first, sort.sort_doc(), page.skip, page.limit).await?;
        // Numbered pages (skip) keep their size. A cursor page never ends inside a group of
        // equal timestamps: it stops before the group, or, when the group fills the whole page,
        // it carries the rest of the group.
        let full = i64::try_from(posts.len()).unwrap_or(i64::MAX) >= page.limit;
        if let (true, 0, Some(last)) = (full, page.skip, posts.last().cloned()) {
            let ties = and(
                filter,
                doc! { "createdAt": last.created_at, "_id": { cmp: last.id } },
            );
            let id_order = if sort == SortKind::Oldest { 1 } else { -1 };
            let rest = find(db, ties, doc! { "_id": id_order }, 0, MAX_TIE_EXTENSION).await?;
            if !rest.is_empty() {
                let group_start = posts
                    .iter()
                    .position(|p| p.created_at == last.created_at)
                    .unwrap_or(0);
                if group_start > 0 {
                    posts.truncate(group_start);
                } else {
                    posts.extend(rest);
                }
            }
        }
        return Ok(posts);
    }
    let Some(after) = page.after else {
        return find(db, filter, sort.sort_doc(), page.skip, page.limit).await;
    };
    // Score orders: find the anchor post, then continue after it.
    let mut at = doc! { "createdAt": after };
    if let Some(id) = page.after_id {
        at.insert("_id", id);
    }
    let anchor = collection(db)
        .find_one(and(filter.clone(), at))
        .sort(sort.reversed_sort_doc())
        .await
        .db_context("loading a list anchor")?;
    let cond = match anchor {
        Some(a) => {
            let values: Vec<Bson> = keys
                .iter()
                .map(|(k, _)| SortKind::value_of(&a, k))
                .collect();
            after_anchor(keys, &values)
        }
        // The anchor is gone (deleted or hidden since): continue with older posts.
        None => doc! { "createdAt": { "$lt": after } },
    };
    find(db, and(filter, cond), sort.sort_doc(), 0, page.limit).await
}

/// One page of every post matching `filter` in `sort` order (any status, blocked too), without
/// their blocks, and how many match: the administrators' list.
pub async fn page_without_blocks(
    db: &Db,
    filter: Document,
    sort: Document,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<Post>, u64)> {
    let projection = doc! { "blocks": 0, "searchText": 0 };
    super::page_of(&collection(db), filter, sort, Some(projection), skip, limit).await
}

/// The listable posts created in `[from, to)`, newest first, without their blocks, at most
/// `limit` (the daily post email's candidates).
pub async fn listable_between(
    db: &Db,
    from: DateTime,
    to: DateTime,
    limit: i64,
) -> DbResult<Vec<Post>> {
    let mut filter = listable();
    filter.insert("createdAt", doc! { "$gte": from, "$lt": to });
    let projection = doc! { "blocks": 0, "searchText": 0 };
    let sort = doc! { "createdAt": -1, "_id": -1 };
    Ok(
        super::page_of(&collection(db), filter, sort, Some(projection), 0, limit)
            .await?
            .0,
    )
}

/// The posts with these ids (those that still exist), without their blocks, read
/// `CHUNK` ids per query.
pub async fn find_many_without_blocks(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<Post>> {
    const CHUNK: usize = 1000;
    let mut found = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        let page: Vec<Post> = collection(db)
            .find(doc! { "_id": { "$in": chunk } })
            .projection(doc! { "blocks": 0, "searchText": 0 })
            .await
            .db_context("loading posts")?
            .try_collect()
            .await
            .db_context("reading posts")?;
        found.extend(page);
    }
    Ok(found)
}

/// How many posts match.
pub async fn count(db: &Db, filter: Document) -> DbResult<u64> {
    collection(db)
        .count_documents(filter)
        .await
        .db_context("counting posts")
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

/// Deletes a post and the engagement records that belong to it; returns the deleted post.
pub async fn delete(db: &Db, id: ObjectId) -> DbResult<Option<Post>> {
    let deleted = collection(db)
        .find_one_and_delete(doc! { "_id": id })
        .await
        .db_context("deleting a post")?;
    if deleted.is_some() {
        db.changed(Change::Posts(vec![id])).await;
        // Bookmarks are reported one by one (they sit in their users' lists).
        super::likes::remove_marks_of_post(db, super::bookmarks::BOOKMARK, id).await?;
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

/// What the trending score is computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrendingInput {
    pub id: ObjectId,
    pub created_at: DateTime,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
    pub bookmarks: i64,
    pub views: i64,
    /// The score stored now.
    pub stored: f64,
}

impl TrendingInput {
    pub fn of(post: &Post) -> Self {
        Self {
            id: post.id,
            created_at: post.created_at,
            likes: post.likes_count,
            comments: post.comments_count,
            shares: post.share_count,
            bookmarks: post.bookmarks_count,
            views: post.views,
            stored: post.trending_score,
        }
    }

    /// The trending score: engagement points over a power of age, as in news aggregators.
    pub fn score(&self, at: DateTime) -> f64 {
        let points = 3.0 * self.likes as f64
            + 4.0 * self.comments as f64
            + 5.0 * self.shares as f64
            + 2.0 * self.bookmarks as f64
            + 0.2 * self.views as f64;
        let age_ms = (at.timestamp_millis() - self.created_at.timestamp_millis()).max(0);
        let age_hours = age_ms as f64 / 3_600_000.0;
        (points.max(0.0) + 1.0) / (age_hours + 2.0).powf(1.5)
    }
}

/// The trending score of a post at `at`.
pub fn trending_score(post: &Post, at: DateTime) -> f64 {
    TrendingInput::of(post).score(at)
}

/// The scores among these that moved enough to be stored (see `trending_moved`).
pub fn moved_scores(
    inputs: impl IntoIterator<Item = TrendingInput>,
    at: DateTime,
) -> Vec<(ObjectId, f64)> {
    inputs
        .into_iter()
        .filter_map(|i| {
            let score = i.score(at);
            trending_moved(i.stored, score).then_some((i.id, score))
        })
        .collect()
}

/// Whether a recomputed trending score differs enough from the stored one to be stored.
pub fn trending_moved(stored: f64, fresh: f64) -> bool {
    if stored == 0.0 {
        return fresh != 0.0;
    }
    ((fresh - stored) / stored).abs() > TRENDING_TOLERANCE
}

/// Stores new trending scores; returns how many were stored.
pub async fn store_trending(db: &Db, scores: Vec<(ObjectId, f64)>) -> DbResult<u64> {
    let mut stored = Vec::with_capacity(scores.len());
    for (id, score) in scores {
        let res = collection(db)
            .update_one(
                doc! { "_id": id },
                doc! { "$set": { "trendingScore": score } },
            )
            .await
            .db_context("storing a trending score")?;
        if res.matched_count == 1 {
            stored.push((id, score));
        }
    }
    let count = stored.len() as u64;
    if !stored.is_empty() {
        db.changed(Change::TrendingScores(stored)).await;
    }
    Ok(count)
}

/// Recomputes the trending score of every published post by reading the collection, and stores
/// those that moved (see `trending_moved`); returns how many were stored. The read index offers a
/// way that does not read every post.
pub async fn refresh_trending(db: &Db, at: DateTime) -> DbResult<u64> {
    let mut cursor = collection(db)
        .find(doc! { "status": PostStatus::Published.as_str() })
        .projection(doc! { "blocks": 0, "searchText": 0 })
        .await
        .db_context("reading posts for trending")?;
    let mut inputs = Vec::new();
    while let Some(post) = cursor
        .try_next()
        .await
        .db_context("reading posts for trending")?
    {
        inputs.push(TrendingInput::of(&post));
    }
    store_trending(db, moved_scores(inputs, at)).await
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

/// Stores the vote counts of a poll block (`set`: `blocks.<n>.data.options.<m>.votes` → count),
/// if block `index` still has `block_id`; the caller holds the post's lock.
pub async fn store_poll_counts(
    db: &Db,
    id: ObjectId,
    index: usize,
    block_id: &str,
    set: Document,
) -> DbResult<()> {
    let res = collection(db)
        .update_one(
            doc! { "_id": id, format!("blocks.{index}.id"): block_id },
            doc! { "$set": set },
        )
        .await
        .db_context("storing poll counts")?;
    if res.matched_count == 1 {
        db.changed(Change::Posts(vec![id])).await;
    }
    Ok(())
}

/// Every post, as a stream, for rebuilding what is derived from them.
pub async fn stream_all(db: &Db) -> DbResult<mongodb::Cursor<Post>> {
    collection(db)
        .find(doc! {})
        .await
        .db_context("reading every post")
}

/// A post counter the engagement API keeps, each the number of its records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    Likes,
    Bookmarks,
    Views,
    Shares,
    Comments,
}

impl Counter {
    /// The stored field.
    pub fn field(self) -> &'static str {
        match self {
            Counter::Likes => "likesCount",
            Counter::Bookmarks => "bookmarksCount",
            Counter::Views => "views",
            Counter::Shares => "shareCount",
            Counter::Comments => "commentsCount",
        }
    }

    fn value_of(self, post: &Post) -> i64 {
        match self {
            Counter::Likes => post.likes_count,
            Counter::Bookmarks => post.bookmarks_count,
            Counter::Views => post.views,
            Counter::Shares => post.share_count,
            Counter::Comments => post.comments_count,
        }
    }
}

/// Where per-post locks live: `{_id: postId, token, at}`.
pub const LOCKS: &str = "post_locks";
/// A lock older than this is taken to be abandoned (its holder crashed) and may be taken over.
pub const LOCK_STALE_MS: i64 = 10_000;
/// How long a writer waits for a post's lock before writing without it.
pub const LOCK_WAIT_MS: u64 = 10_000;

/// Runs `work` while holding the post's lock, so engagement writes to one post happen one at a
/// time on every node. FerretDB v1 applies each update as read-modify-write of the whole
/// document, so two simultaneous `$inc`s (or `$set`s of different fields) can lose one another;
/// serialising the writers through a unique `_id` insert (which is atomic) prevents that. The
/// work runs on its own task, so a request that goes away mid-way still releases the lock.
pub async fn with_post_lock<T, F>(db: &Db, post: ObjectId, work: F) -> DbResult<T>
where
    T: Send + 'static,
    F: std::future::Future<Output = DbResult<T>> + Send + 'static,
{
    let db = db.clone();
    let task = tokio::spawn(async move {
        let locks = db.database().collection::<Document>(LOCKS);
        let token = ObjectId::new();
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(LOCK_WAIT_MS);
        let mut held = false;
        while std::time::Instant::now() < deadline {
            match locks
                .insert_one(doc! { "_id": post, "token": token, "at": now() })
                .await
            {
                Ok(_) => {
                    held = true;
                    break;
                }
                Err(e) if is_duplicate_key(&e) => {
                    let stale = DateTime::from_millis(now().timestamp_millis() - LOCK_STALE_MS);
                    locks
                        .delete_one(doc! { "_id": post, "at": { "$lt": stale } })
                        .await
                        .db_context("clearing an abandoned post lock")?;
                    let pause = rand::random::<u64>() % 8 + 2;
                    tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
                }
                Err(e) => return Err(e).db_context("locking a post"),
            }
        }
        if !held {
            tracing::warn!(%post, "post lock not acquired in time; writing without it");
        }
        let result = work.await;
        if held {
            locks
                .delete_one(doc! { "_id": post, "token": token })
                .await
                .db_context("unlocking a post")?;
        }
        result
    });
    task.await
        .map_err(|e| DbError::Other(anyhow::anyhow!("post lock task failed: {e}")))?
}

/// Sets a post counter to the number of `collection` documents matching `filter`, under the
/// post's lock. Returns the new value (`None`: no such post). Counting the records, rather than
/// adding to the stored number, keeps the counter equal to the records whatever happened before
/// (and so never below zero).
///
/// When the recount fails (the database went away between the record's write and this), the
/// record is stored but the counter is not: the recount is then retried in the background until
/// the database answers again, so the counter comes back to its records without waiting for the
/// post's next change.
pub async fn sync_counter(
    db: &Db,
    id: ObjectId,
    counter: Counter,
    collection_name: &'static str,
    filter: Document,
) -> DbResult<Option<i64>> {
    let result = sync_counter_once(db, id, counter, collection_name, filter.clone()).await;
    if result.is_err() {
        spawn_counter_repair(db.clone(), id, counter, collection_name, filter);
    }
    result
}

/// Recount attempts after a failed one (with doubling waits up to 5 s: about ten minutes).
const COUNTER_REPAIR_ATTEMPTS: u32 = 125;

fn spawn_counter_repair(
    db: Db,
    id: ObjectId,
    counter: Counter,
    collection_name: &'static str,
    filter: Document,
) {
    tokio::spawn(async move {
        let mut wait = std::time::Duration::from_millis(250);
        for _ in 0..COUNTER_REPAIR_ATTEMPTS {
            tokio::time::sleep(wait).await;
            match sync_counter_once(&db, id, counter, collection_name, filter.clone()).await {
                Ok(_) => {
                    tracing::info!(post = %id, counter = counter.field(), "post counter repaired");
                    return;
                }
                Err(e) => tracing::debug!(post = %id, error = %e, "post counter not repaired yet"),
            }
            wait = (wait * 2).min(std::time::Duration::from_secs(5));
        }
        tracing::warn!(post = %id, "a post counter could not be repaired; the post's next change recounts it");
    });
}

async fn sync_counter_once(
    db: &Db,
    id: ObjectId,
    counter: Counter,
    collection_name: &'static str,
    filter: Document,
) -> DbResult<Option<i64>> {
    let inner = db.clone();
    with_post_lock(db, id, async move {
        let count = inner
            .database()
            .collection::<Document>(collection_name)
            .count_documents(filter)
            .await
            .db_context("counting engagement records")?;
        let count = i64::try_from(count).unwrap_or(i64::MAX);
        let updated = collection(&inner)
            .update_one(
                doc! { "_id": id },
                doc! { "$set": { counter.field(): count } },
            )
            .await
            .db_context("updating a post counter")?;
        if updated.matched_count == 1 {
            inner.changed(Change::Posts(vec![id])).await;
        }
        Ok((updated.matched_count == 1).then_some(count))
    })
    .await
}

/// Reads one counter of a post (`None`: no such post).
pub async fn counter(db: &Db, id: ObjectId, counter: Counter) -> DbResult<Option<i64>> {
    let found = collection(db)
        .find_one(doc! { "_id": id })
        .projection(doc! { "blocks": 0, "searchText": 0 })
        .await
        .db_context("reading a post counter")?;
    Ok(found.map(|p| counter.value_of(&p)))
}
