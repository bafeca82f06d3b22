//! `POST /api/notification/reply` {notificationId, content} → 201 {notification}: the addressee
//! of an administrator's notice answers the administrator who sent it (an `admin_reply`, pushed
//! to the sender's tabs). Only `admin` notices can be answered; anything else is a 400.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{
    check_length, notification_id, present, signed_in, NotificationAnswer, NotificationView,
    MSG_MISSING_ID_OR_CONTENT, MSG_NOT_FOUND,
};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::notifications::{self, Kind};
use crate::services::notify::{notify, NotificationInput};
use crate::state::AppState;

pub const MSG_NO_SENDER: &str = "This notification has no sender to reply to";
pub const MSG_REPLY_BLOCKED: &str = "You cannot reply to this user";
pub const MSG_ONLY_ADMIN_NOTICES: &str = "Only notices from an administrator can be replied to";

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplyBody {
    notification_id: Option<String>,
    content: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn reply(
    state: web::Data<AppState>,
    user: MaybeUser,
    body: ApiJson<ReplyBody>,
) -> ApiResult<HttpResponse> {
    let me = signed_in(user)?;
    let body = body.into_inner();
    let (Some(raw_id), Some(content)) = (
        present(body.notification_id.as_deref()),
        present(body.content.as_deref()),
    ) else {
        return Err(ApiError::bad_request(MSG_MISSING_ID_OR_CONTENT));
    };
    check_length(&content)?;
    let id = notification_id(&raw_id)?;
    let original = notifications::find_owned(&state.db, id, me.user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if original.kind != Kind::Admin {
        return Err(ApiError::bad_request(MSG_ONLY_ADMIN_NOTICES));
    }
    let sender = original
        .sender_id
        .filter(|s| *s != me.user.id)
        .ok_or_else(|| ApiError::bad_request(MSG_NO_SENDER))?;
    let mut input = NotificationInput::new(sender, Some(me.user.id), Kind::AdminReply, &content);
    input.post_id = original.post_id;
    input.reply_to = Some(original.id);
    input.navigate_to = Some(format!(
        "/message-box?type=admin&id={}",
        original.id.to_hex()
    ));
    let notification = notify(&state, input)
        .await?
        .ok_or_else(|| ApiError::forbidden(MSG_REPLY_BLOCKED))?;
    Ok(HttpResponse::Created().json(NotificationAnswer {
        notification: NotificationView::of(&notification),
    }))
}
