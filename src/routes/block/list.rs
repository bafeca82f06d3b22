//! `GET /api/block/list` → {users}: the people the caller blocked, most recent block first, each
//! `{_id, name, avatar, blockedAt}` (a deleted account reads as "Deleted user"), so settings can
//! offer Unblock.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::{blocks, user_directory};
use crate::post_view::iso;
use crate::post_view::DELETED_AUTHOR;
use crate::state::AppState;

/// Someone the caller blocked.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlockedUser {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    avatar: Option<String>,
    blocked_at: String,
}

/// `{users}`: everyone the caller blocked.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct BlockedAnswer {
    users: Vec<BlockedUser>,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let blocked = blocks::blocked_by(&state.db, me.user.id).await?;
    let ids: Vec<_> = blocked.iter().map(|(id, _)| *id).collect();
    let cards = user_directory::authors(&state.db, &ids).await?;
    let users: Vec<_> = blocked
        .iter()
        .map(|(id, at)| {
            let card = cards.get(id);
            BlockedUser {
                id: id.to_hex(),
                name: card.map_or(DELETED_AUTHOR, |c| c.name.as_str()).to_string(),
                avatar: card.and_then(|c| c.avatar.clone()),
                blocked_at: iso(*at),
            }
        })
        .collect();
    Ok(HttpResponse::Ok().json(BlockedAnswer { users }))
}
