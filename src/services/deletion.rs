//! The one way a post is deleted: the author's delete, the administrators' and the removal of an
//! account all go through [`delete_post`].

use actix_web::web;
use mongodb::bson::oid::ObjectId;

use crate::auth::AuthUser;
use crate::domain::post::PostStatus;
use crate::error::{ApiError, ApiResult};
use crate::persistence::posts::{self, Post};
use crate::persistence::{media, post_appeals, user_directory};
use crate::state::AppState;

pub const MSG_POST_DELETED: &str = "Post deleted successfully";

/// Deletes a post with everything that belongs to it (engagement records, comments, appeals,
/// reports, media uses), keeps its author's published count right, and sends everyone the new
/// post counts and `post.deleted` to the webhooks. Returns the deleted post (`None`: it was already gone).
pub async fn delete_post(state: &web::Data<AppState>, id: ObjectId) -> ApiResult<Option<Post>> {
    let deleted = delete_post_quietly(state, id).await?;
    if let Some(post) = &deleted {
        super::counts::post_counts_updated(state, post.author, post.is_listable());
        let data = super::webhooks::post_data(state, post);
        super::webhooks::emit(state, "post.deleted", Some(post.author), data);
    }
    Ok(deleted)
}

/// [`delete_post`] without the post-counts announcement, for callers that delete many posts at
/// once (an account's removal) and announce once at the end.
pub async fn delete_post_quietly(state: &AppState, id: ObjectId) -> ApiResult<Option<Post>> {
    let Some(deleted) = posts::delete(&state.db, id).await? else {
        return Ok(None);
    };
    // Bookmarks are removed and reported one by one (they sit in their users' lists).
    crate::persistence::likes::remove_marks_of_post(
        &state.db,
        crate::persistence::bookmarks::BOOKMARK,
        id,
    )
    .await?;
    if deleted.status == PostStatus::Published {
        user_directory::add_to_total_posts(&state.db, deleted.author, -1).await?;
    }
    post_appeals::delete_for_post(&state.db, id).await?;
    // Reports stay as moderation history, with the revision each reporter saw.
    crate::persistence::reports::mark_post_deleted(&state.db, id).await?;
    crate::persistence::post_revisions::delete_for_deleted_post(&state.db, id).await?;
    super::series::forget_post(state, &deleted).await;
    // The pictures that evidence shows stay with it.
    let evidence_media = crate::persistence::post_revisions::media_of(&state.db, id).await?;
    media::release_unused(
        &state.db,
        &state.settings.server.media_dir,
        id,
        &evidence_media,
    )
    .await?;
    Ok(Some(deleted))
}

/// `{message, postId}`: which post was removed.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostDeletedAnswer {
    pub message: &'static str,
    pub post_id: String,
}

impl PostDeletedAnswer {
    pub fn of(id: ObjectId) -> Self {
        PostDeletedAnswer {
            message: MSG_POST_DELETED,
            post_id: id.to_hex(),
        }
    }
}

/// Deletes post `id`, which `me` may manage (`services::posts::managed_post`'s 403 and 404); an
/// administrator's deletion of someone else's post is recorded in the audit log with `route`.
pub async fn delete_managed(
    state: &web::Data<AppState>,
    me: &AuthUser,
    id: ObjectId,
    route: &str,
) -> ApiResult<()> {
    let post = crate::services::posts::managed_by_id(state, me, id).await?;
    delete_post(state, id)
        .await?
        .ok_or_else(|| ApiError::not_found(crate::services::posts::MSG_POST_NOT_FOUND))?;
    if post.author != me.user.id {
        crate::audit::record(
            state,
            me,
            crate::audit::Action::PostDelete,
            crate::audit::Target::post(&post),
            serde_json::json!({ "route": route }),
        )
        .await;
    }
    Ok(())
}
