//! `DELETE /api/post/delete/{postId}` → {message}: the author or an administrator (others 403).
//! The post's likes, bookmarks, comments, appeals and media uses go with it.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{may_manage, visible_to, MSG_NOT_POST_OWNER, MSG_POST_NOT_FOUND};
use crate::auth::AuthUser;
use crate::domain::post::PostStatus;
use crate::error::{ApiError, ApiResult};
use crate::extract::object_id;
use crate::live;
use crate::persistence::{media, post_appeals, posts, user_directory};
use crate::state::AppState;

pub const MSG_POST_DELETED: &str = "Post deleted successfully";

#[tracing::instrument(skip(state, me))]
pub async fn delete(
    state: web::Data<AppState>,
    me: AuthUser,
    post_id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&post_id, "post id")?;
    let post = posts::find_by_id(&state.db, id)
        .await?
        .filter(|p| visible_to(p, Some(&me)))
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if !may_manage(&post, &me) {
        return Err(ApiError::forbidden(MSG_NOT_POST_OWNER));
    }
    let deleted = posts::delete(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if deleted.status == PostStatus::Published {
        user_directory::add_to_total_posts(&state.db, deleted.author, -1).await?;
    }
    post_appeals::delete_for_post(&state.db, id).await?;
    media::release_unused(&state.db, &state.settings.server.media_dir, id, &[]).await?;
    live::post_counts_updated(&state);
    Ok(HttpResponse::Ok().json(json!({ "message": MSG_POST_DELETED, "postId": id.to_hex() })))
}
