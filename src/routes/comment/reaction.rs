//! `POST /api/comment/reaction/{commentId}` {reactionType} → {reactions, reacted}: toggles the
//! caller's reaction of that type (default `like`) on a comment. `reactions` maps each type to
//! the ids of the users who reacted so. Adding one is refused on a blocked comment and across a
//! block with the comment's or the post's author; taking one back is always allowed.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::comments;
use crate::state::AppState;

/// The reactions a comment can get.
pub const REACTION_TYPES: [&str; 6] = ["like", "love", "laugh", "wow", "sad", "angry"];

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
    let toggled = comments::toggle_reaction(&state, &me, &comment_id, &kind).await?;
    Ok(HttpResponse::Ok().json(ReactionAnswer {
        comment_id: toggled.comment_id.to_hex(),
        reactions: toggled.reactions,
        reacted: toggled.reacted,
        reaction_type: kind,
    }))
}
