//! `POST /api/post/post-create` → 201 {post}. Blocks must be a non-empty array ('Blocks are
//! required'); `blob:` addresses are refused; data-URL images are stored in the media store; the
//! slug comes from the title, with `-2`, `-3`... when it is taken.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;

use super::input::{
    parse_audience, parse_lang, parse_post_type, parse_publish_at, parse_title, parse_visibility,
    requested_status, tags_of, PendingImages, PostBody,
};
use super::PostAnswer;
use crate::auth::AuthUser;
use crate::domain::blocks::reading_time_minutes;
use crate::domain::post::PostStatus;
use crate::domain::revisions::Reason;
use crate::domain::search::search_text_for;
use crate::domain::slug::post_slug_base;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::persistence::posts::{self, Post};
use crate::persistence::{media, now, user_directory};
use crate::services::posts::render_one_for;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(author = %me.user.id))]
pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<PostBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    body.check_uploads(true)?;
    let title = parse_title(body.title.as_deref())?;
    let mut blocks = body.blocks()?.unwrap_or_default();
    let mut thumbnail = body.thumbnail()?.flatten();
    let tags = tags_of(&body)?.unwrap_or_default();
    let category = body.category(&state.db).await?.flatten();
    let at = now();
    let status = requested_status(&body)?.unwrap_or(PostStatus::Published);
    if status != PostStatus::Draft {
        // A key that writes drafts publishes only with publish:posts too.
        crate::services::api_keys::require_scope(&me, "publish:posts")?;
    }
    let publish_at = match status {
        PostStatus::Scheduled => Some(parse_publish_at(body.publish_at.as_deref(), at)?),
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
    let audience = parse_audience(body.audience.as_deref())?.unwrap_or_default();
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
        post_type: parse_post_type(body.post_type.as_deref())?.unwrap_or_default(),
        visibility: parse_visibility(body.visibility.as_deref())?.unwrap_or_default(),
        is_featured: body.is_featured.unwrap_or(false),
        is_pinned: body.is_pinned.unwrap_or(false),
        is_published: published,
        language: parse_lang(body.language.as_deref())?.unwrap_or_else(|| "en".to_string()),
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
    if let Err(e) =
        crate::services::post_write::insert_with_free_slug(&state, &mut post, &base).await
    {
        let _ = media::release_unused(&state.db, dir, id, &[]).await;
        return Err(e);
    }
    if published {
        user_directory::add_to_total_posts(&state.db, me.user.id, 1).await?;
    }
    crate::services::webhooks::post_changed(&state, None, &post);
    crate::services::counts::post_counts_updated(&state, me.user.id, post.is_listable());
    if let Some(send) = body.email_subscribers {
        crate::jobs::announce::store_email_choice(&state, post.id, send).await;
    }
    crate::jobs::announce::post_became_visible(
        &state,
        &post,
        Some(body.email_subscribers.unwrap_or(true)),
    )
    .await;
    let reason = if published {
        Reason::Published
    } else {
        Reason::Created
    };
    crate::services::revisions::record(&state, &post, Some(me.user.id), reason).await?;
    let view = render_one_for(&state, Some(&me), post).await?;
    Ok(HttpResponse::Created().json(PostAnswer::of(&view)?))
}
