//! `POST /api/comment/reaction/{commentId}` {reactionType} → {reactions, reacted}: toggles the
//! caller's reaction of that type (default `like`) on a comment. `reactions` maps each type to
//! the ids of the users who reacted so. Adding one is refused on a blocked comment and across a
//! block with the comment's or the post's author; taking one back is always allowed.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::{load_with_post, reactions_view};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::comments;
use crate::services::activity::record_activity;
use crate::services::engagement::ensure_not_blocked;
use crate::state::AppState;

/// The reactions a comment can get.
pub const REACTION_TYPES: [&str; 6] = ["like", "love", "laugh", "wow", "sad", "angry"];
pub const MSG_COMMENT_BLOCKED: &str = "This comment has been blocked";

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReactionBody {
    #[serde(default)]
    reaction_type: Option<String>,
}

/// `{commentId, reactions, reacted, reactionType}`: the comment's reactions (type → user ids)
/// after the toggle, and whether the caller's reaction is now on.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReactionAnswer {
    comment_id: String,
    reactions: std::collections::BTreeMap<String, Vec<String>>,
    reacted: bool,
    reaction_type: String,
}

#[tracing::instrument(skip(state, me, req, body))]
pub async fn reaction(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    comment_id: web::Path<String>,
    body: ApiJson<ReactionBody>,
) -> ApiResult<HttpResponse> {
    crate::counting::limit_user(
        &state.counting(),
        &req,
        &me,
        crate::ratelimit::Action::Comment,
    )
    .await?;
    let kind = body
        .into_inner()
        .reaction_type
        .map(|t| t.trim().to_lowercase())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "like".to_string());
    if !REACTION_TYPES.contains(&kind.as_str()) {
        return Err(ApiError::bad_request(format!(
            "reactionType must be one of: {}",
            REACTION_TYPES.join(", ")
        )));
    }
    let (comment, post) = load_with_post(&state.db, &comment_id, Some(&me)).await?;
    let already = comments::reactions_of(&state.db, &[comment.id])
        .await?
        .remove(&comment.id)
        .and_then(|r| r.get(&kind).map(|users| users.contains(&me.user.id)))
        .unwrap_or(false);
    if !already {
        if comment.blocked {
            return Err(ApiError::forbidden(MSG_COMMENT_BLOCKED));
        }
        ensure_not_blocked(&state.db, me.user.id, comment.user).await?;
        ensure_not_blocked(&state.db, me.user.id, post.author).await?;
    }
    let reacted = comments::toggle_reaction(&state.db, &comment, me.user.id, &kind).await?;
    if reacted && !already {
        record_activity(
            &state,
            me.user.id,
            "reaction",
            &format!("Reacted with {kind} to a comment on \"{}\"", post.title),
            Some(post.id),
            Some(comment.user),
        )
        .await;
    }
    let reactions = comments::reactions_of(&state.db, &[comment.id])
        .await?
        .remove(&comment.id)
        .unwrap_or_default();
    Ok(HttpResponse::Ok().json(ReactionAnswer {
        comment_id: comment.id.to_hex(),
        reactions: reactions_view(reactions),
        reacted,
        reaction_type: kind,
    }))
}
