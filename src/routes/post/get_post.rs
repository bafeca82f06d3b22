//! Reading one post by its slug: `GET /api/post/public/{slug}` (guests), `GET /api/post/{slug}`
//! (signed-in users; a guest gets the guest view) and `GET /api/public/post/{slug}` → {post}.
//! Posts the caller may not see answer 404 'Post not found', like posts that do not exist.
//! For a signed-in reader each poll block also carries their choice (`userVote`, `userVotes`),
//! so a vote stays marked after a reload.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{render_one_for, visible_to, MSG_INVALID_SLUG, MSG_POST_NOT_FOUND};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{posts, votes};
use crate::state::AppState;

/// Longest slug worth looking up.
const MAX_LOOKUP_LEN: usize = 200;

#[tracing::instrument(skip(state, viewer))]
pub async fn get_post(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    slug: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let slug = slug.trim();
    if slug.is_empty() || slug == "undefined" || slug == "null" {
        return Err(ApiError::bad_request(MSG_INVALID_SLUG));
    }
    if slug.len() > MAX_LOOKUP_LEN {
        return Err(ApiError::not_found(MSG_POST_NOT_FOUND));
    }
    let post = posts::find_by_slug(&state.db, slug)
        .await?
        .filter(|p| visible_to(p, viewer.0.as_ref()))
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let post_id = post.id;
    let mut view = render_one_for(&state.db, viewer.0.as_ref(), post).await?;
    if let Some(me) = viewer.0.as_ref() {
        for block in view.blocks.iter_mut().filter(|b| b.kind == "poll") {
            let choices = votes::choices_of(&state.db, post_id, &block.id, me.user.id).await?;
            let multiple = block
                .data
                .get("multiple")
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false);
            if let Some(data) = block.data.as_object_mut() {
                let single = if multiple {
                    None
                } else {
                    choices.first().copied()
                };
                data.insert("userVote".into(), json!(single));
                data.insert("userVotes".into(), json!(choices));
            }
        }
    }
    Ok(HttpResponse::Ok().json(json!({ "post": view })))
}
