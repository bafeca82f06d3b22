//! Keyset paging of the posts: the sorts, the anchors of `after`, and the lists every feed reads
//! when the read index cannot answer.

use super::*;

/// How many posts sharing one timestamp a page may carry beyond its limit to stay gap-free when
/// the client sends only `after` (see `list`).
pub const MAX_TIE_EXTENSION: i64 = 500;
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

/// Keyset condition: strictly after the anchor values in the order of `keys`.
pub(super) fn after_anchor(keys: &[(&str, i32)], values: &[Bson]) -> Document {
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

pub(super) fn and(a: Document, b: Document) -> Document {
    doc! { "$and": [a, b] }
}

pub(super) async fn find(
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
    super::super::page_of(&collection(db), filter, sort, Some(projection), skip, limit).await
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
    collection(db)
        .find(filter)
        .projection(doc! { "blocks": 0, "searchText": 0 })
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .limit(limit)
        .await
        .db_context("listing posts of a period")?
        .try_collect()
        .await
        .db_context("reading posts of a period")
}

/// The posts with these ids (those that still exist), without their blocks, read
/// `CHUNK` ids per query.
pub async fn find_many_without_blocks(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<Post>> {
    find_many_projected(db, ids, Some(doc! { "blocks": 0, "searchText": 0 })).await
}

/// The posts with these ids (those that still exist), whole.
pub async fn find_many(db: &Db, ids: &[ObjectId]) -> DbResult<Vec<Post>> {
    find_many_projected(db, ids, None).await
}

async fn find_many_projected(
    db: &Db,
    ids: &[ObjectId],
    projection: Option<Document>,
) -> DbResult<Vec<Post>> {
    const CHUNK: usize = 1000;
    let mut found = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(CHUNK) {
        let page: Vec<Post> = collection(db)
            .find(doc! { "_id": { "$in": chunk } })
            .with_options(
                mongodb::options::FindOptions::builder()
                    .projection(projection.clone())
                    .build(),
            )
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

/// How many posts are published.
pub async fn count_published(db: &Db) -> DbResult<u64> {
    count(db, doc! { "status": "published" }).await
}

/// How many published posts were created since `since`.
pub async fn count_published_since(db: &Db, since: DateTime) -> DbResult<u64> {
    count(
        db,
        doc! { "status": "published", "createdAt": { "$gte": since } },
    )
    .await
}
