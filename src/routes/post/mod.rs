//! `/api/post/*`: writing, reading and listing posts. Shared here: how a post is shown, who may
//! see it, and how list queries (page, limit, after) are read.

pub mod all_posts;
pub mod analytics_post;
pub mod analytics_user;
pub mod appeal;
pub mod bookmark;
pub mod bookmark_status;
pub mod bookmarks;
pub mod count;
pub mod create;
pub mod delete;
pub mod following;
pub mod get_post;
pub mod input;
pub mod latest;
pub mod like;
pub mod public_posts;
pub mod search;
pub mod search_users;
pub mod share;
pub mod suggested;
pub mod time_spent;
pub mod trending;
pub mod update;
pub mod user_posts;
pub mod view;
pub mod vote;

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::domain::blocks::{plain_text_of, Block};
use crate::domain::post::{Audience, PostStatus, PostType, Visibility};
use crate::error::{ApiError, ApiResult};
use crate::extract::{object_id, page_limit, page_number, present_param};
use crate::persistence::posts::{self, PageRequest, Post};
use crate::persistence::{categories, graph, user_directory, Db};
use crate::routes::user::iso;

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
/// Characters of text in a post's excerpt.
pub const EXCERPT_LEN: usize = 200;
/// Name shown for posts whose author account is gone.
pub const DELETED_AUTHOR: &str = "Deleted user";

/// A post's author as shown with it.
#[derive(Debug, Serialize)]
pub struct AuthorView {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
}

/// A post's category as shown with it.
#[derive(Debug, Serialize)]
pub struct CategoryRef {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
}

/// A post as clients see it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostView {
    #[serde(rename = "_id")]
    pub id: String,
    pub slug: String,
    pub title: String,
    pub blocks: Vec<Block>,
    pub thumbnail: Option<String>,
    pub excerpt: String,
    pub author: AuthorView,
    pub category: Option<CategoryRef>,
    pub tags: Vec<String>,
    pub post_type: PostType,
    pub visibility: Visibility,
    /// `everyone` or `subscribers`.
    pub audience: Audience,
    /// True when the viewer may not read this subscribers-only post: `blocks` is empty and the
    /// title, thumbnail and excerpt are the teaser.
    pub locked: bool,
    /// The blocks of a locked post, kept here (never sent) until [`unlock_for`] decides.
    #[serde(skip)]
    pub sealed_blocks: Option<Vec<Block>>,
    pub is_featured: bool,
    pub is_pinned: bool,
    pub is_published: bool,
    pub language: String,
    pub status: PostStatus,
    pub publish_at: Option<String>,
    pub published_at: Option<String>,
    pub blocked: bool,
    pub likes_count: i64,
    pub bookmarks_count: i64,
    pub views: i64,
    pub share_count: i64,
    pub comments_count: i64,
    pub reading_time: i64,
    pub created_at: String,
    pub updated_at: String,
}

/// The first words of a post's text.
pub fn excerpt(blocks: &[Block]) -> String {
    let text = plain_text_of(
        &blocks
            .iter()
            .filter(|b| b.kind != "code")
            .cloned()
            .collect::<Vec<_>>(),
    );
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= EXCERPT_LEN {
        return text;
    }
    let mut cut: String = text.chars().take(EXCERPT_LEN).collect();
    if let Some(space) = cut.rfind(' ') {
        cut.truncate(space);
    }
    cut.push('…');
    cut
}

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
                None => AuthorView {
                    id: p.author.to_hex(),
                    name: DELETED_AUTHOR.to_string(),
                    avatar: None,
                },
            };
            let category = p.category.and_then(|id| {
                cats.get(&id).map(|c| CategoryRef {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    slug: c.slug.clone(),
                })
            });
            // A subscribers-only post is locked until `unlock_for` finds the viewer may read it,
            // so a path that forgets to ask shows the teaser, never the blocks.
            let locked = p.audience == Audience::Subscribers;
            let (blocks, sealed_blocks) = if locked {
                (Vec::new(), Some(p.blocks.clone()))
            } else {
                (p.blocks.clone(), None)
            };
            PostView {
                id: p.id.to_hex(),
                excerpt: excerpt(&p.blocks),
                slug: p.slug,
                title: p.title,
                blocks,
                audience: p.audience,
                locked,
                sealed_blocks,
                thumbnail: p.thumbnail,
                author,
                category,
                tags: p.tags,
                post_type: p.post_type,
                visibility: p.visibility,
                is_featured: p.is_featured,
                is_pinned: p.is_pinned,
                is_published: p.is_published,
                language: p.language,
                status: p.status,
                publish_at: p.publish_at.map(iso),
                published_at: p.published_at.map(iso),
                blocked: p.blocked,
                likes_count: p.likes_count,
                bookmarks_count: p.bookmarks_count,
                views: p.views,
                share_count: p.share_count,
                comments_count: p.comments_count,
                reading_time: p.reading_time,
                created_at: iso(p.created_at),
                updated_at: iso(p.updated_at),
            }
        })
        .collect())
}

/// Shows one post (a subscribers-only post locked).
pub async fn render_one(db: &Db, post: Post) -> ApiResult<PostView> {
    render(db, vec![post])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("rendering a post gave nothing")))
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
    let mut authors: Vec<ObjectId> = views
        .iter()
        .filter(|v| v.locked)
        .filter_map(|v| ObjectId::parse_str(&v.author.id).ok())
        .filter(|a| *a != me.user.id)
        .collect();
    if views.iter().all(|v| !v.locked) {
        return Ok(());
    }
    authors.sort();
    authors.dedup();
    let subscribed = if me.is_admin() {
        Vec::new()
    } else {
        crate::persistence::subscriptions::authors_with_access(db, me.user.id, &authors).await?
    };
    for view in views.iter_mut().filter(|v| v.locked) {
        let author = ObjectId::parse_str(&view.author.id).ok();
        let may_read = me.is_admin()
            || author == Some(me.user.id)
            || author.is_some_and(|a| subscribed.contains(&a));
        if may_read {
            if let Some(blocks) = view.sealed_blocks.take() {
                view.blocks = blocks;
            }
            view.locked = false;
        }
    }
    Ok(())
}

/// Whether `viewer` may read the blocks of `post`.
pub async fn may_read_blocks(db: &Db, viewer: Option<&AuthUser>, post: &Post) -> ApiResult<bool> {
    if post.audience == Audience::Everyone {
        return Ok(true);
    }
    let Some(me) = viewer else {
        return Ok(false);
    };
    if me.is_admin() || me.user.id == post.author {
        return Ok(true);
    }
    Ok(
        !crate::persistence::subscriptions::authors_with_access(db, me.user.id, &[post.author])
            .await?
            .is_empty(),
    )
}

/// Shows one post as `viewer` may read it.
pub async fn render_one_for(db: &Db, viewer: Option<&AuthUser>, post: Post) -> ApiResult<PostView> {
    let mut views = vec![render_one(db, post).await?];
    unlock_for(db, viewer, &mut views).await?;
    views
        .pop()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("rendering a post gave nothing")))
}

/// Whether the viewer may read the post by its address: drafts and scheduled posts only their
/// author; blocked posts only the author and administrators; Private posts only the author and
/// administrators; Public and Unlisted posts anyone.
pub fn visible_to(post: &Post, viewer: Option<&AuthUser>) -> bool {
    let is_author = viewer.is_some_and(|v| v.user.id == post.author);
    let is_admin = viewer.is_some_and(AuthUser::is_admin);
    if post.status != PostStatus::Published {
        return is_author;
    }
    if post.blocked {
        return is_author || is_admin;
    }
    match post.visibility {
        Visibility::Public | Visibility::Unlisted => true,
        Visibility::Private => is_author || is_admin,
    }
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
#[derive(Debug, Default, Deserialize)]
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
        present(&self.author_id)
            .map(|id| object_id(id, "authorId"))
            .transpose()
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
            .collect::<ApiResult<_>>()?;
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
    pub async fn category_filter(&self, db: &Db) -> ApiResult<Option<ObjectId>> {
        let Some(raw) = present(&self.category) else {
            return Ok(None);
        };
        let found = match ObjectId::parse_str(raw) {
            Ok(id) => categories::find_by_id(db, id).await?,
            Err(_) => categories::find_by_slug(db, raw).await?,
        };
        found
            .map(|c| Some(c.id))
            .ok_or_else(|| ApiError::not_found(super::category::MSG_CATEGORY_NOT_FOUND))
    }
}

/// Runs a list query: one page and the total.
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
