//! Posts as readers see them: rendering (authors and categories filled in, blocks unlocked for
//! who may read them), who may see or manage a post, and how list queries (page, limit, after,
//! category, tag) become database filters; and the administrators' list of every post.

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::auth::AuthUser;
use crate::domain::params::{object_id, page_limit, page_number, present_param};
use crate::domain::post::{Audience, PostStatus, Visibility};
use crate::error::{ApiError, ApiResult};
use crate::feeds::cards::ReadError;
use crate::persistence::posts;
use crate::persistence::{categories, graph, user_directory, Db};
use crate::state::AppState;

/// A category named in a list filter or a post that does not exist.
pub const MSG_CATEGORY_NOT_FOUND: &str = "Category not found";
pub const MSG_POST_NOT_FOUND: &str = "Post not found";
pub const MSG_INVALID_SLUG: &str = "Invalid post slug";
pub const MSG_SUBSCRIBERS_ONLY: &str = "This post is for subscribers only";
pub const MSG_SIGN_IN_REQUIRED: &str = "You must be signed in to access this feature.";
pub const MSG_NOT_POST_OWNER: &str = "Only the author of this post or an administrator can do that";
/// Default page size of post lists and search.
pub const DEFAULT_LIMIT: i64 = 12;
/// Default page size of the following feed.
pub const FOLLOWING_LIMIT: i64 = 50;
/// No list returns more than this many posts per page (beyond the tie rule of `posts::list`).
pub const MAX_LIMIT: i64 = 50;
/// Most authors a search of the administrators' list by author name considers.
const MAX_NAME_MATCHES: i64 = 1000;
pub use crate::persistence::posts::{PageRequest, Post, SortKind};
pub use crate::post_view::{AuthorView, CardView, CategoryRef, PostView};

/// Shows posts with their authors and categories filled in.
pub async fn render(db: &Db, posts: Vec<Post>) -> ApiResult<Vec<PostView>> {
    let mut author_ids: Vec<ObjectId> = posts.iter().map(|p| p.author).collect();
    author_ids.sort();
    author_ids.dedup();
    let mut category_ids: Vec<ObjectId> = posts.iter().filter_map(|p| p.category).collect();
    category_ids.sort();
    category_ids.dedup();
    let authors = user_directory::authors(db, &author_ids).await?;
    let cats: HashMap<ObjectId, CategoryRef> = categories::find_many(db, &category_ids)
        .await?
        .into_iter()
        .map(|c| {
            (
                c.id,
                CategoryRef {
                    id: c.id.to_hex(),
                    name: c.name,
                    slug: c.slug,
                },
            )
        })
        .collect();
    Ok(posts
        .into_iter()
        .map(|p| {
            let author = match authors.get(&p.author) {
                Some(a) => AuthorView {
                    id: a.id.to_hex(),
                    name: a.name.clone(),
                    avatar: a.avatar.clone(),
                },
                None => AuthorView::deleted(&p.author.to_hex()),
            };
            let category = p.category.and_then(|id| cats.get(&id).cloned());
            PostView {
                author,
                category,
                card: CardView::of(&p),
            }
        })
        .collect())
}

/// The authors among these whose subscribers-only posts `me` may read: themselves, every author
/// for administrators, and the authors they hold a subscription to now.
async fn readable_authors(
    db: &Db,
    me: &AuthUser,
    authors: &[ObjectId],
) -> crate::persistence::DbResult<Vec<ObjectId>> {
    if me.is_admin() {
        return Ok(authors.to_vec());
    }
    let others: Vec<ObjectId> = authors
        .iter()
        .copied()
        .filter(|a| *a != me.user.id)
        .collect();
    let mut readable = if others.is_empty() {
        Vec::new()
    } else {
        crate::persistence::subscriptions::authors_with_access(db, me.user.id, &others).await?
    };
    if authors.contains(&me.user.id) {
        readable.push(me.user.id);
    }
    Ok(readable)
}

/// Opens the locked posts among `views` that `viewer` may read: their author, administrators,
/// and readers with a subscription giving access to the author now.
pub async fn unlock_for(
    db: &Db,
    viewer: Option<&AuthUser>,
    views: &mut [PostView],
) -> ApiResult<()> {
    let Some(me) = viewer else {
        return Ok(());
    };
    if views.iter().all(|v| !v.card.locked) {
        return Ok(());
    }
    let mut authors: Vec<ObjectId> = views
        .iter()
        .filter(|v| v.card.locked)
        .filter_map(|v| ObjectId::parse_str(&v.author.id).ok())
        .collect();
    authors.sort();
    authors.dedup();
    let readable = readable_authors(db, me, &authors).await?;
    for view in views.iter_mut().filter(|v| v.card.locked) {
        let author = ObjectId::parse_str(&view.author.id).ok();
        if author.is_some_and(|a| readable.contains(&a)) {
            if let Some(blocks) = view.card.sealed_blocks.take() {
                view.card.blocks = blocks;
            }
            view.card.locked = false;
        }
    }
    Ok(())
}

/// The same for posts rendered from the read index (JSON): a locked post the viewer may read
/// gets its blocks from the index's sealed copy.
pub async fn unlock_raw(
    state: &AppState,
    gen: &crate::feeds::keys::Gen,
    viewer: Option<&AuthUser>,
    posts: Vec<Box<RawValue>>,
) -> Result<Vec<Box<RawValue>>, ReadError> {
    let Some(me) = viewer else {
        return Ok(posts);
    };
    if !posts.iter().any(|p| p.get().contains("\"locked\":true")) {
        return Ok(posts);
    }
    let mut values: Vec<Option<serde_json::Value>> = posts
        .iter()
        .map(|p| {
            p.get()
                .contains("\"locked\":true")
                .then(|| serde_json::from_str(p.get()).ok())
                .flatten()
        })
        .collect();
    let author_of = |v: &serde_json::Value| {
        v["author"]["_id"]
            .as_str()
            .and_then(|a| ObjectId::parse_str(a).ok())
    };
    let mut authors: Vec<ObjectId> = values.iter().flatten().filter_map(author_of).collect();
    authors.sort();
    authors.dedup();
    let readable = readable_authors(&state.db, me, &authors).await?;
    let opened: Vec<ObjectId> = values
        .iter()
        .flatten()
        .filter(|v| author_of(v).is_some_and(|a| readable.contains(&a)))
        .filter_map(|v| {
            v["_id"]
                .as_str()
                .and_then(|id| ObjectId::parse_str(id).ok())
        })
        .collect();
    if opened.is_empty() {
        return Ok(posts);
    }
    let sealed = state.feeds.sealed_blocks(gen, &opened).await?;
    let mut out = Vec::with_capacity(posts.len());
    for (raw, value) in posts.into_iter().zip(values.iter_mut()) {
        let Some(value) = value.as_mut() else {
            out.push(raw);
            continue;
        };
        let id = value["_id"]
            .as_str()
            .and_then(|id| ObjectId::parse_str(id).ok());
        let blocks = id
            .and_then(|id| opened.iter().position(|o| *o == id))
            .and_then(|i| sealed.get(i).cloned().flatten())
            .and_then(|b| serde_json::from_str::<serde_json::Value>(&b).ok());
        match blocks {
            Some(blocks) => {
                value["blocks"] = blocks;
                value["locked"] = serde_json::Value::Bool(false);
                match serde_json::to_string(value).map(RawValue::from_string) {
                    Ok(Ok(opened)) => out.push(opened),
                    _ => out.push(raw),
                }
            }
            None => out.push(raw),
        }
    }
    Ok(out)
}

/// Whether `viewer` may read the blocks of `post`.
pub async fn may_read_blocks(db: &Db, viewer: Option<&AuthUser>, post: &Post) -> ApiResult<bool> {
    if post.audience == Audience::Everyone {
        return Ok(true);
    }
    let Some(me) = viewer else {
        return Ok(false);
    };
    Ok(readable_authors(db, me, &[post.author])
        .await?
        .contains(&post.author))
}

/// Shows one post as `viewer` may read it.
pub async fn render_one_for(
    state: &AppState,
    viewer: Option<&AuthUser>,
    post: Post,
) -> ApiResult<PostView> {
    let mut views = vec![render_one(state, post).await?];
    unlock_for(&state.db, viewer, &mut views).await?;
    views
        .pop()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("rendering a post gave nothing")))
}

/// Shows one post (a subscribers-only post locked), with its author's and category's cards from
/// the cache when it can answer (read by `_id` otherwise).
pub async fn render_one(state: &AppState, post: Post) -> ApiResult<PostView> {
    if state.feeds.current().is_some() {
        let categories: Vec<ObjectId> = post.category.into_iter().collect();
        let authors = [post.author];
        let cards = futures_util::try_join!(
            state.feeds.author_cards(&authors),
            state.feeds.category_cards(&categories)
        );
        match cards {
            Ok((authors, cats)) => {
                return Ok(PostView {
                    author: authors
                        .get(&post.author)
                        .cloned()
                        .unwrap_or_else(|| AuthorView::deleted(&post.author.to_hex())),
                    category: post.category.and_then(|c| cats.get(&c).cloned()),
                    card: CardView::of(&post),
                })
            }
            Err(ReadError::Db(e)) => return Err(e.into()),
            Err(ReadError::Index(_)) => {}
        }
    }
    render(&state.db, vec![post])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("rendering a post gave nothing")))
}

/// What decides who may read a post by its address (from a record or a stored card).
pub struct Access<'a> {
    pub author: ObjectId,
    /// `PostStatus::as_str`.
    pub status: &'a str,
    /// `Visibility::as_str`.
    pub visibility: &'a str,
    pub blocked: bool,
}

impl Access<'_> {
    /// Drafts and scheduled posts only their author; blocked posts only the author and
    /// administrators; Private posts only the author and administrators; Public and Unlisted
    /// posts anyone.
    pub fn visible_to(&self, viewer: Option<&AuthUser>) -> bool {
        let is_author = viewer.is_some_and(|v| v.user.id == self.author);
        let is_admin = viewer.is_some_and(AuthUser::is_admin);
        if self.status != PostStatus::Published.as_str() {
            return is_author;
        }
        if self.blocked {
            return is_author || is_admin;
        }
        if self.visibility == Visibility::Private.as_str() {
            return is_author || is_admin;
        }
        true
    }
}

/// Whether the viewer may read the post by its address (`Access::visible_to`).
pub fn visible_to(post: &Post, viewer: Option<&AuthUser>) -> bool {
    Access {
        author: post.author,
        status: post.status.as_str(),
        visibility: post.visibility.as_str(),
        blocked: post.blocked,
    }
    .visible_to(viewer)
}

/// Whether the user may change or delete the post.
pub fn may_manage(post: &Post, me: &AuthUser) -> bool {
    me.user.id == post.author || me.is_admin()
}

/// A post the caller asks to change or delete. Permission is checked before visibility: the
/// author and administrators manage it whatever its status (a draft or a scheduled post of
/// someone else included); anyone else gets 403 when they can read it and 404 when they cannot,
/// so hidden posts stay indistinguishable from missing ones.
pub fn managed_post(found: Option<Post>, me: &AuthUser) -> ApiResult<Post> {
    match found {
        Some(post) if may_manage(&post, me) => Ok(post),
        Some(post) if visible_to(&post, Some(me)) => Err(ApiError::forbidden(MSG_NOT_POST_OWNER)),
        _ => Err(ApiError::not_found(MSG_POST_NOT_FOUND)),
    }
}

/// [`managed_post`] for the post of id `id`.
pub async fn managed_by_id(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<Post> {
    managed_post(posts::find_by_id(&state.db, id).await?, me)
}

/// The filter of posts a viewer may find in a list: the listable ones (minus authors hidden by a
/// block between them and the viewer), plus, where `include_own`, every post of the viewer.
pub async fn list_filter(
    db: &Db,
    viewer: Option<&AuthUser>,
    include_own: bool,
    extra: Document,
) -> ApiResult<Document> {
    list_filter_for(db, viewer.map(|v| v.user.id), include_own, extra).await
}

/// [`list_filter`] for a viewer known by id.
pub async fn list_filter_for(
    db: &Db,
    viewer: Option<ObjectId>,
    include_own: bool,
    extra: Document,
) -> ApiResult<Document> {
    let mut parts = vec![extra];
    match viewer {
        Some(me) => {
            if include_own {
                parts.push(doc! { "$or": [posts::listable(), { "author": me }] });
            } else {
                parts.push(posts::listable());
            }
            let hidden = graph::hidden_from(db, me).await?;
            if !hidden.is_empty() {
                parts.push(doc! { "author": { "$nin": hidden } });
            }
        }
        None => parts.push(posts::listable()),
    }
    parts.retain(|d| !d.is_empty());
    Ok(match parts.len() {
        1 => parts.remove(0),
        _ => doc! { "$and": parts },
    })
}

/// The query parameters lists share. Everything arrives as text and is checked here, so a bad
/// value gets a message naming it.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    #[serde(default)]
    pub page: Option<String>,
    #[serde(default)]
    pub limit: Option<String>,
    #[serde(default)]
    pub after: Option<String>,
    #[serde(default)]
    pub after_id: Option<String>,
    #[serde(default)]
    pub tag: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub author_id: Option<String>,
    #[serde(default)]
    pub author_ids: Option<String>,
    #[serde(default)]
    pub query: Option<String>,
    #[serde(default)]
    pub search: Option<String>,
    #[serde(default)]
    pub sort: Option<String>,
}

/// A parameter's text, treating "", "null" and "undefined" as absent.
fn present(v: &Option<String>) -> Option<&str> {
    present_param(v.as_deref())
}

/// Parses a cursor timestamp: ISO-8601, or milliseconds since the epoch.
pub fn parse_after(raw: &str) -> ApiResult<DateTime> {
    if let Ok(ms) = raw.parse::<i64>() {
        return Ok(DateTime::from_millis(ms));
    }
    chrono::DateTime::parse_from_rfc3339(raw)
        .map(|t| DateTime::from_millis(t.timestamp_millis()))
        .map_err(|_| {
            ApiError::bad_request(
                "after must be the createdAt (ISO-8601) of the last post received",
            )
        })
}

impl ListQuery {
    /// The page asked for: `page` (from 1) or the `after` cursor, and a limit capped at 50.
    pub fn page_request(&self, default_limit: i64) -> ApiResult<(PageRequest, u64)> {
        let limit = page_limit(self.limit.as_deref(), default_limit, MAX_LIMIT)?;
        let page = page_number(self.page.as_deref(), 100_000)?;
        let after = present(&self.after).map(parse_after).transpose()?;
        let after_id = present(&self.after_id)
            .map(|id| object_id(id, "afterId"))
            .transpose()?;
        let skip = if after.is_some() {
            0
        } else {
            (page - 1) * u64::try_from(limit).unwrap_or(0)
        };
        Ok((
            PageRequest {
                after,
                after_id,
                skip,
                limit,
            },
            page,
        ))
    }

    pub fn tag(&self) -> Option<String> {
        present(&self.tag).and_then(crate::domain::tags::normalize_tag)
    }

    pub fn author_id(&self) -> ApiResult<Option<ObjectId>> {
        Ok(present(&self.author_id)
            .map(|id| object_id(id, "authorId"))
            .transpose()?)
    }

    /// `authorIds`: a comma-separated list of user ids.
    pub fn author_ids(&self) -> ApiResult<Vec<ObjectId>> {
        let Some(raw) = present(&self.author_ids) else {
            return Ok(Vec::new());
        };
        let ids: Vec<ObjectId> = raw
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|id| object_id(id, "id in authorIds"))
            .collect::<Result<_, _>>()?;
        if ids.len() > 100 {
            return Err(ApiError::bad_request(
                "authorIds may name at most 100 authors",
            ));
        }
        Ok(ids)
    }

    pub fn query_text(&self) -> Option<&str> {
        present(&self.query)
    }

    pub fn search_text(&self) -> Option<&str> {
        present(&self.search)
    }

    pub fn sort_text(&self) -> Option<&str> {
        present(&self.sort)
    }

    /// A category filter by id or slug; an unknown category is a 404.
    pub async fn category_filter(&self, state: &AppState) -> ApiResult<Option<ObjectId>> {
        let Some(raw) = present(&self.category) else {
            return Ok(None);
        };
        find_category(state, raw)
            .await?
            .map(Some)
            .ok_or_else(|| ApiError::not_found(MSG_CATEGORY_NOT_FOUND))
    }
}

/// A category named by id or slug (`None`: there is none), from the cache of category cards
/// when it can answer.
pub async fn find_category(state: &AppState, raw: &str) -> ApiResult<Option<ObjectId>> {
    if state.feeds.current().is_some() {
        match state.feeds.find_category(raw).await {
            Ok(found) => return Ok(found),
            Err(ReadError::Db(e)) => return Err(e.into()),
            Err(ReadError::Index(_)) => {}
        }
    }
    let found = match ObjectId::parse_str(raw) {
        Ok(id) => categories::find_by_id(&state.db, id).await?,
        Err(_) => categories::find_by_slug(&state.db, raw).await?,
    };
    Ok(found.map(|c| c.id))
}

/// Finds a post by its slug: through the read index's slug map and then by `_id` when it can
/// answer (the collection is not scanned), else by the slug.
pub async fn find_by_slug(state: &AppState, slug: &str) -> ApiResult<Option<Post>> {
    if let Some(gen) = state.feeds.current() {
        match state.feeds.post_id_by_slug(&gen, slug).await {
            Ok(Some(id)) => return Ok(posts::find_by_id(&state.db, id).await?),
            Ok(None) => return Ok(None),
            Err(ReadError::Db(e)) => return Err(e.into()),
            Err(ReadError::Index(_)) => {}
        }
    }
    Ok(posts::find_by_slug(&state.db, slug).await?)
}

/// One page of every post (any status, blocked too) whose title or author's name matches the
/// regular expression `pattern` (case-insensitive; every post when `None`) in `sort` order,
/// without their blocks, and how many match: the administrators' list.
pub async fn admin_page(
    db: &Db,
    pattern: Option<&str>,
    sort: crate::domain::params::SortBy,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<Post>, u64)> {
    let mut filter = Document::new();
    if let Some(pattern) = pattern {
        let authors = user_directory::ids_by_name(db, pattern, MAX_NAME_MATCHES).await?;
        filter.insert(
            "$or",
            vec![
                doc! { "title": { "$regex": pattern, "$options": "i" } },
                doc! { "author": { "$in": authors } },
            ],
        );
    }
    let sort = crate::persistence::sort_document(sort);
    Ok(posts::page_without_blocks(db, filter, sort, skip, limit).await?)
}

/// Runs a list query: one page (opened for what the viewer may read) and the total.
pub async fn page_of(
    db: &Db,
    viewer: Option<&AuthUser>,
    filter: Document,
    sort: posts::SortKind,
    page: PageRequest,
) -> ApiResult<(Vec<PostView>, u64)> {
    let found = posts::list(db, filter.clone(), sort, page).await?;
    let total = posts::count(db, filter).await?;
    let mut views = render(db, found).await?;
    unlock_for(db, viewer, &mut views).await?;
    Ok((views, total))
}
