//! `PATCH /api/post/update/{slug}` → {message, post}: the author or an administrator (others 403).
//! Only the fields sent change; the slug stays, so links keep working. A draft or scheduled post
//! that becomes published takes the current time as its `createdAt`, so it enters the feeds at
//! the top.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::input::{
    parse_audience, parse_lang, parse_post_type, parse_publish_at, parse_title, parse_visibility,
    requested_status, tags_of, PendingImages, PostBody,
};
use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::domain::block_media::media_in_use;
use crate::domain::blocks::{carry_poll_votes, reading_time_minutes};
use crate::domain::post::PostStatus;
use crate::domain::revisions::Reason;
use crate::domain::search::search_text_for;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::posts::{Post, PostEdit};
use crate::persistence::{media, now, posts, user_directory};
use crate::post_view::PostView;
use crate::services::posts::{managed_post, render_one_for, MSG_POST_NOT_FOUND};
use crate::services::revisions;
use crate::state::AppState;

pub const MSG_POST_UPDATED: &str = "Post updated successfully";

/// `{message, post}`: the post as changed.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct PostUpdatedAnswer {
    message: &'static str,
    post: PostView,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn update(
    state: web::Data<AppState>,
    me: AuthUser,
    slug: web::Path<String>,
    body: ApiJson<PostBody>,
) -> ApiResult<HttpResponse> {
    let current = managed_post(super::find_by_slug(&state, slug.trim()).await?, &me)?;
    let (view, _) = apply(&state, &me, current, body.into_inner(), false).await?;
    Ok(HttpResponse::Ok().json(PostUpdatedAnswer {
        message: MSG_POST_UPDATED,
        post: view,
    }))
}

/// Applies `body` to `current` (which `me` may manage) and saves a revision (answered with the
/// post when one was saved): the update route,
/// and restoring a revision (`restored`), which sends the revision's content as the body.
pub async fn apply(
    state: &web::Data<AppState>,
    me: &AuthUser,
    current: Post,
    body: PostBody,
    restored: bool,
) -> ApiResult<(PostView, Option<revisions::RevisionSummary>)> {
    body.check_uploads(false)?;

    let at = now();
    let title = match body.title.as_deref() {
        Some(t) => parse_title(Some(t))?,
        None => current.title.clone(),
    };
    let mut blocks = body.blocks()?;
    if let Some(b) = blocks.as_mut() {
        carry_poll_votes(b, &current.blocks);
    }
    let mut thumbnail = body.thumbnail()?;
    let tags = tags_of(&body)?;
    let category = body.category(&state.db).await?;
    let post_type = parse_post_type(body.post_type.as_deref())?;
    let visibility = parse_visibility(body.visibility.as_deref())?;
    let language = parse_lang(body.language.as_deref())?;
    let status = requested_status(&body)?.unwrap_or(current.status);
    if status != PostStatus::Draft || current.status != PostStatus::Draft {
        // Only drafts change with write:drafts alone; what readers see needs publish:posts.
        crate::services::api_keys::require_scope(me, "publish:posts")?;
    }
    let publish_at = match status {
        PostStatus::Scheduled => {
            let keep = body.publish_at.is_none() && current.status == PostStatus::Scheduled;
            Some(match (keep, current.publish_at) {
                (true, Some(when)) => when,
                _ => parse_publish_at(body.publish_at.as_deref(), at)?,
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
    let audience = parse_audience(body.audience.as_deref())?.unwrap_or(current.audience);
    let search_text = search_text_for(&title, final_tags, final_blocks, audience);
    let reading_time = reading_time_minutes(final_blocks);
    let mut in_use = media_in_use(final_thumb.as_deref(), final_blocks);
    in_use.extend(revisions::media_in_use(state, current.id).await?);
    let edit = PostEdit {
        updated_at: at,
        category,
        post_type,
        visibility,
        is_featured: body.is_featured,
        is_pinned: body.is_pinned,
        language,
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
    if let Some(send) = body.email_subscribers {
        crate::jobs::announce::store_email_choice(state, post.id, send).await;
    }
    if !before.is_listable() {
        crate::jobs::announce::post_became_visible(state, &post, body.email_subscribers).await;
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
    } else if body.autosave == Some(true) {
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
