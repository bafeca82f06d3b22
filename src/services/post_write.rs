//! Writing a post: creating one from the editor ([`create`]) and changing one ([`update`], also
//! restoring a revision), with its pictures stored, its category looked up, its status, schedule
//! and counts kept, its revision saved and its readers told; and a new post's address: the slug
//! from its title (or the one it had elsewhere), with `-2`, `-3`... when taken. The editor's
//! create and the importer both insert through [`insert_with_free_slug`].

use std::collections::HashSet;

use actix_web::web;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::domain::block_media::media_in_use;
use crate::domain::blocks::{carry_poll_votes, reading_time_minutes, Block};
use crate::domain::post::{Audience, PostStatus, PostType, Visibility};
use crate::domain::revisions::Reason;
use crate::domain::search::search_text_for;
use crate::domain::slug::post_slug_base;
use crate::error::{ApiError, ApiResult};
use crate::persistence::posts::{self, Post, PostEdit};
use crate::persistence::{categories, media, now, user_directory, DbError};
use crate::post_view::PostView;
use crate::services::post_images::PendingImages;
use crate::services::posts::{render_one_for, MSG_CATEGORY_NOT_FOUND, MSG_POST_NOT_FOUND};
use crate::services::revisions::{self, RevisionSummary};
use crate::state::AppState;

pub const MSG_TITLE_REQUIRED: &str = "Title is required";

/// A post's fields as a writer sent them, checked (the HTTP layer reads them from the body;
/// `None` is "not sent": on an update the post keeps what it has).
#[derive(Debug, Default)]
pub struct PostInput {
    /// Required on create.
    pub title: Option<String>,
    pub blocks: Option<Vec<Block>>,
    /// `Some(None)` removes the picture; an address or a data URL still to be stored.
    pub thumbnail: Option<Option<String>>,
    /// A category's id or slug, still to be looked up; `Some(None)` removes it.
    pub category: Option<Option<String>>,
    pub tags: Option<Vec<String>>,
    pub post_type: Option<PostType>,
    pub visibility: Option<Visibility>,
    pub audience: Option<Audience>,
    pub language: Option<String>,
    pub status: Option<PostStatus>,
    /// When a scheduled post goes out (ISO-8601, in the future).
    pub publish_at: Option<String>,
    pub is_featured: Option<bool>,
    pub is_pinned: Option<bool>,
    /// Whether followers and subscribers get the post by email when it becomes visible.
    pub email_subscribers: Option<bool>,
    /// An autosave of the editor (kept as an autosave revision).
    pub autosave: Option<bool>,
}

/// The category named (by id, else by slug): `None` to remove it, "Category not found" when
/// there is none.
async fn category_of(state: &AppState, key: Option<&str>) -> ApiResult<Option<ObjectId>> {
    let Some(key) = key else { return Ok(None) };
    let found = match ObjectId::parse_str(key) {
        Ok(id) => categories::find_by_id(&state.db, id).await?,
        Err(_) => categories::find_by_slug(&state.db, key).await?,
    };
    found
        .map(|c| Some(c.id))
        .ok_or_else(|| ApiError::bad_request(MSG_CATEGORY_NOT_FOUND))
}

/// `publishAt` for a scheduled post: required, after `now`.
fn parse_publish_at(raw: Option<&str>, now: DateTime) -> ApiResult<DateTime> {
    let raw = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad_request("publishAt is required for a scheduled post"))?;
    let at = chrono::DateTime::parse_from_rfc3339(raw)
        .map_err(|_| ApiError::bad_request("publishAt must be an ISO-8601 date and time"))?;
    let at = DateTime::from_millis(at.timestamp_millis());
    if at <= now {
        return Err(ApiError::bad_request(
            "publishAt must be in the future for a scheduled post",
        ));
    }
    Ok(at)
}

/// Creates `me`'s post from `input` (published when no status is asked for): its pictures
/// stored (and released again when the post is not written), its slug the first free one from
/// its title; its author's counts, webhooks, announcements and first revision follow. Answers
/// the post as `me` sees it.
pub async fn create(
    state: &web::Data<AppState>,
    me: &AuthUser,
    input: PostInput,
) -> ApiResult<PostView> {
    let title = input
        .title
        .ok_or_else(|| ApiError::bad_request(MSG_TITLE_REQUIRED))?;
    let mut blocks = input.blocks.unwrap_or_default();
    let mut thumbnail = input.thumbnail.flatten();
    let category = category_of(state, input.category.flatten().as_deref()).await?;
    let at = now();
    let status = input.status.unwrap_or(PostStatus::Published);
    if status != PostStatus::Draft {
        // A key that writes drafts publishes only with publish:posts too.
        crate::services::api_keys::require_scope(me, "publish:posts")?;
    }
    let publish_at = match status {
        PostStatus::Scheduled => Some(parse_publish_at(input.publish_at.as_deref(), at)?),
        _ => None,
    };
    let images = PendingImages::decode(thumbnail.as_deref(), &mut blocks).await?;

    let id = ObjectId::new();
    let dir = &state.settings.server.media_dir;
    let thumbnail_image = match images
        .store(&state.db, dir, id, me.user.id, &mut thumbnail, &mut blocks)
        .await
    {
        Ok(meta) => meta,
        Err(e) => {
            let _ = media::release_unused(&state.db, dir, id, &[]).await;
            return Err(e);
        }
    };
    let published = status == PostStatus::Published;
    let audience = input.audience.unwrap_or_default();
    let tags = input.tags.unwrap_or_default();
    let mut post = Post {
        id,
        slug: String::new(),
        search_text: search_text_for(&title, &tags, &blocks, audience),
        audience,
        reading_time: reading_time_minutes(&blocks),
        title,
        blocks,
        thumbnail,
        thumbnail_image,
        author: me.user.id,
        category,
        tags,
        post_type: input.post_type.unwrap_or_default(),
        visibility: input.visibility.unwrap_or_default(),
        is_featured: input.is_featured.unwrap_or(false),
        is_pinned: input.is_pinned.unwrap_or(false),
        is_published: published,
        language: input.language.unwrap_or_else(|| "en".to_string()),
        status,
        publish_at,
        published_at: published.then_some(at),
        blocked: false,
        likes_count: 0,
        bookmarks_count: 0,
        views: 0,
        share_count: 0,
        comments_count: 0,
        trending_score: 0.0,
        created_at: at,
        updated_at: at,
        edited_at: None,
        series_id: None,
        imported_from: None,
        import_key: None,
    };
    post.trending_score = posts::trending_score(&post, at);

    let base = post_slug_base(&post.title);
    if let Err(e) = insert_with_free_slug(state, &mut post, &base).await {
        let _ = media::release_unused(&state.db, dir, id, &[]).await;
        return Err(e);
    }
    if published {
        user_directory::add_to_total_posts(&state.db, me.user.id, 1).await?;
    }
    crate::services::webhooks::post_changed(state, None, &post);
    crate::services::counts::post_counts_updated(state, me.user.id, post.is_listable());
    if let Some(send) = input.email_subscribers {
        crate::services::jobs::announce::store_email_choice(state, post.id, send).await;
    }
    crate::services::jobs::announce::post_became_visible(
        state,
        &post,
        Some(input.email_subscribers.unwrap_or(true)),
    )
    .await;
    let reason = if published {
        Reason::Published
    } else {
        Reason::Created
    };
    revisions::record(state, &post, Some(me.user.id), reason).await?;
    render_one_for(state, Some(me), post).await
}

/// Applies `input` to `current` (which `me` may manage): only what was sent changes, the slug
/// stays; a post that becomes published takes the time as its publication. Its pictures are
/// stored and those no longer used (by it or a revision) released; counts, series, webhooks,
/// announcements and the audit log follow, and a revision is saved (`restored` when the input
/// is a revision's content). Answers the post as `me` sees it and the revision saved, if any.
pub async fn update(
    state: &web::Data<AppState>,
    me: &AuthUser,
    current: Post,
    input: PostInput,
    restored: bool,
) -> ApiResult<(PostView, Option<RevisionSummary>)> {
    let at = now();
    let title = input.title.unwrap_or_else(|| current.title.clone());
    let mut blocks = input.blocks;
    if let Some(b) = blocks.as_mut() {
        carry_poll_votes(b, &current.blocks);
    }
    let mut thumbnail = input.thumbnail;
    let tags = input.tags;
    let category = match input.category {
        Some(key) => Some(category_of(state, key.as_deref()).await?),
        None => None,
    };
    let status = input.status.unwrap_or(current.status);
    if status != PostStatus::Draft || current.status != PostStatus::Draft {
        // Only drafts change with write:drafts alone; what readers see needs publish:posts.
        crate::services::api_keys::require_scope(me, "publish:posts")?;
    }
    let publish_at = match status {
        PostStatus::Scheduled => {
            let keep = input.publish_at.is_none() && current.status == PostStatus::Scheduled;
            Some(match (keep, current.publish_at) {
                (true, Some(when)) => when,
                _ => parse_publish_at(input.publish_at.as_deref(), at)?,
            })
        }
        _ => None,
    };
    let now_published = status == PostStatus::Published;
    let was_published = current.status == PostStatus::Published;

    // Images: decode everything first, then store.
    let blocks_sent = blocks.is_some();
    let mut block_buf = blocks.take().unwrap_or_default();
    let thumb_arg = thumbnail.clone().flatten();
    let images = PendingImages::decode(thumb_arg.as_deref(), &mut block_buf).await?;
    let mut stored_thumb = thumb_arg;
    let thumb_meta = images
        .store(
            &state.db,
            &state.settings.server.media_dir,
            current.id,
            current.author,
            &mut stored_thumb,
            &mut block_buf,
        )
        .await?;
    if blocks_sent {
        blocks = Some(block_buf);
    }
    if thumbnail.is_some() {
        thumbnail = Some(stored_thumb);
    }

    let final_blocks = blocks.as_ref().unwrap_or(&current.blocks);
    let final_tags = tags.as_ref().unwrap_or(&current.tags);
    let final_thumb = match &thumbnail {
        Some(t) => t.clone(),
        None => current.thumbnail.clone(),
    };
    let audience = input.audience.unwrap_or(current.audience);
    let search_text = search_text_for(&title, final_tags, final_blocks, audience);
    let reading_time = reading_time_minutes(final_blocks);
    let mut in_use = media_in_use(final_thumb.as_deref(), final_blocks);
    in_use.extend(revisions::media_in_use(state, current.id).await?);
    let edit = PostEdit {
        updated_at: at,
        category,
        post_type: input.post_type,
        visibility: input.visibility,
        is_featured: input.is_featured,
        is_pinned: input.is_pinned,
        language: input.language,
        publish_at,
        status,
        published_now: (now_published && !was_published).then_some(at),
        title,
        audience,
        search_text,
        reading_time,
        thumbnail: thumbnail.map(|_| (final_thumb, thumb_meta)),
        blocks,
        tags,
    };

    let before = posts::apply_edit(&state.db, current.id, &edit)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let delta = match (before.status == PostStatus::Published, now_published) {
        (false, true) => 1,
        (true, false) => -1,
        _ => 0,
    };
    user_directory::add_to_total_posts(&state.db, before.author, delta).await?;
    media::release_unused(
        &state.db,
        &state.settings.server.media_dir,
        current.id,
        &in_use,
    )
    .await?;
    let mut post = posts::find_by_id(&state.db, current.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if before.is_listable() != post.is_listable() || before.title != post.title {
        crate::services::series::part_visibility_changed(state, &post).await;
    }
    if revisions::is_reader_visible_edit(state, &before, &post, at) {
        posts::mark_edited(&state.db, post.id, at).await?;
        post.edited_at = Some(at);
    }
    crate::services::webhooks::post_changed(state, Some(&before), &post);
    if before.is_listable() != post.is_listable() {
        crate::services::counts::post_counts_updated(state, post.author, true);
    }
    if let Some(send) = input.email_subscribers {
        crate::services::jobs::announce::store_email_choice(state, post.id, send).await;
    }
    if !before.is_listable() {
        crate::services::jobs::announce::post_became_visible(state, &post, input.email_subscribers)
            .await;
    }
    if post.author != me.user.id {
        audit::record(
            state,
            me,
            Action::PostUpdate,
            Target::post(&post),
            json!({}),
        )
        .await;
    }
    let reason = if restored {
        Reason::Restored
    } else if was_published != now_published {
        if now_published {
            Reason::Published
        } else {
            Reason::Unpublished
        }
    } else if post.author != me.user.id {
        Reason::AdminEdit
    } else if input.autosave == Some(true) {
        Reason::Autosave
    } else {
        Reason::Saved
    };
    let saved = revisions::record(state, &post, Some(me.user.id), reason).await?;
    let summary = match saved {
        Some(r) => revisions::summaries(state, Some(&post), vec![r])
            .await?
            .pop(),
        None => None,
    };
    Ok((render_one_for(state, Some(me), post).await?, summary))
}

/// Attempts at a unique slug before giving up (each after a collision with a concurrent insert).
const SLUG_ATTEMPTS: usize = 5;
/// Candidates looked up at once after `base` itself: `base-2` to `base-33`, then the next 32.
const SLUG_PROBE: u64 = 32;
/// Batches of candidates tried before a random suffix is used.
const SLUG_PROBES: u64 = 8;

pub const MSG_NO_FREE_SLUG: &str = "Could not find a free address for this post; please try again";

/// The first free slug among `base`, `base-2`, `base-3`... : candidates are looked up a batch at
/// a time (in the read index's slug map when it can answer, else by the store's slug index), so
/// the cost does not grow with the number of posts. A suffix freed by a deleted post is used
/// again, as `base` itself is; past `SLUG_PROBES` full batches a random suffix is used.
pub async fn next_free_slug(state: &AppState, base: &str) -> ApiResult<String> {
    next_free_slug_besides(state, base, &HashSet::new()).await
}

/// [`next_free_slug`], counting `reserved` (slugs about to be written together) as taken.
pub async fn next_free_slug_besides(
    state: &AppState,
    base: &str,
    reserved: &HashSet<String>,
) -> ApiResult<String> {
    let mut batch = vec![base.to_string()];
    let mut next = 2;
    for _ in 0..=SLUG_PROBES {
        let taken = slugs_taken(state, &batch).await?;
        if let Some(free) = batch
            .iter()
            .zip(taken)
            .find(|(slug, taken)| !taken && !reserved.contains(*slug))
        {
            return Ok(free.0.clone());
        }
        batch = (next..next + SLUG_PROBE)
            .map(|n| format!("{base}-{n}"))
            .collect();
        next += SLUG_PROBE;
    }
    Ok(format!("{base}-{}", &ObjectId::new().to_hex()[18..]))
}

/// Which of `slugs` are taken, from the read index when it answers, else from the store.
async fn slugs_taken(state: &AppState, slugs: &[String]) -> ApiResult<Vec<bool>> {
    if let Some(gen) = state.feeds.current() {
        if let Ok(taken) = state.feeds.slugs_taken(&gen, slugs).await {
            return Ok(taken);
        }
    }
    let taken = posts::slugs_taken(&state.db, slugs).await?;
    Ok(slugs.iter().map(|s| taken.contains(s)).collect())
}

/// Inserts `post` under the first free slug from `base` (set on the post); a concurrent insert
/// of the same slug ends in a random suffix. Any other failure of the store is answered as is.
pub async fn insert_with_free_slug(state: &AppState, post: &mut Post, base: &str) -> ApiResult<()> {
    for attempt in 0..SLUG_ATTEMPTS {
        post.slug = if attempt == 0 {
            next_free_slug(state, base).await?
        } else {
            // Someone took the same slug a moment ago: a random suffix ends the race.
            format!("{base}-{}", &ObjectId::new().to_hex()[18..])
        };
        match posts::insert(&state.db, post).await {
            Ok(()) => return Ok(()),
            Err(DbError::Duplicate(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::conflict(MSG_NO_FREE_SLUG))
}
