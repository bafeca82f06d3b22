//! `POST /api/post/appeal/{postId}` {message} → 201 {message, appeal}: the author of a blocked post
//! asks administrators to lift the block. One pending appeal per post; administrators hear of it
//! at once (`newAppeal`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::live;
use crate::persistence::notifications::Kind;
use crate::persistence::{post_appeals, posts};
use crate::post_view::iso;
use crate::services::notify::{notify_admins, NotificationInput};
use crate::services::posts::{visible_to, MSG_POST_NOT_FOUND};
use crate::state::AppState;

pub const MAX_APPEAL_LEN: usize = 2000;
pub const MSG_APPEAL_SENT: &str = "Appeal submitted successfully";
pub const MSG_ONLY_AUTHOR_APPEALS: &str = "Only the author of this post can appeal";
pub const MSG_NOT_BLOCKED: &str = "This post is not blocked";
pub const MSG_APPEAL_PENDING: &str = "An appeal for this post is already pending";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct AppealBody {
    #[serde(default)]
    message: Option<String>,
}

/// An appeal as its author sees it.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppealView {
    #[serde(rename = "_id")]
    id: String,
    post_id: String,
    post_title: String,
    message: String,
    status: &'static str,
    created_at: String,
    /// The revision of the post appealed (pinned as evidence).
    revision_id: String,
}

/// `{message, appeal}`: the appeal as filed.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct AppealAnswer {
    message: &'static str,
    appeal: AppealView,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn appeal(
    state: web::Data<AppState>,
    me: AuthUser,
    post_id: web::Path<String>,
    body: ApiJson<AppealBody>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&post_id, "post id")?;
    let message = body
        .into_inner()
        .message
        .unwrap_or_default()
        .trim()
        .to_string();
    if message.is_empty() {
        return Err(ApiError::bad_request("Appeal message is required"));
    }
    if message.chars().count() > MAX_APPEAL_LEN {
        return Err(ApiError::bad_request(format!(
            "Appeal message must be at most {MAX_APPEAL_LEN} characters"
        )));
    }
    let post = posts::find_by_id(&state.db, id)
        .await?
        .filter(|p| visible_to(p, Some(&me)))
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if post.author != me.user.id {
        return Err(ApiError::forbidden(MSG_ONLY_AUTHOR_APPEALS));
    }
    if !post.blocked {
        return Err(ApiError::bad_request(MSG_NOT_BLOCKED));
    }
    if post_appeals::find_pending(&state.db, id).await?.is_some()
        || !post_appeals::claim_pending(&state.db, id).await?
    {
        return Err(ApiError::conflict(MSG_APPEAL_PENDING));
    }
    let appeal = match post_appeals::create(&state.db, id, &post.title, me.user.id, &message).await
    {
        Ok(a) => a,
        Err(e) => {
            post_appeals::release_pending(&state.db, id).await?;
            return Err(e.into());
        }
    };
    let revision =
        crate::services::revisions::pin_for(&state, &post, Some(me.user.id), "appeal", appeal.id)
            .await?;
    post_appeals::set_revision(&state.db, appeal.id, revision).await?;
    live::new_appeal(&state.realtime, &id.to_hex(), &post.title);
    let mut notice = NotificationInput::new(me.user.id, Some(me.user.id), Kind::Appeal, &message);
    notice.post_id = Some(id);
    notice.navigate_to = Some(format!("/post/{}", post.slug));
    notify_admins(&state, notice).await?;
    Ok(HttpResponse::Created().json(AppealAnswer {
        message: MSG_APPEAL_SENT,
        appeal: AppealView {
            id: appeal.id.to_hex(),
            post_id: id.to_hex(),
            post_title: appeal.post_title,
            message: appeal.message,
            status: "pending",
            created_at: iso(appeal.created_at),
            revision_id: revision.to_hex(),
        },
    }))
}
