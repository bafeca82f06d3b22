//! `POST /api/notification/reply` {notificationId, content} → 201 {notification}: the addressee
//! of an administrator's notice answers the administrator who sent it (an `admin_reply`, pushed
//! to the sender's tabs). Only `admin` notices can be answered; anything else is a 400.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{
    check_length, notification_id, present, signed_in, NotificationAnswer,
    MSG_MISSING_ID_OR_CONTENT,
};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::inbox;
use crate::state::AppState;

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
    Ok(HttpResponse::Created().json(NotificationAnswer {
        notification: inbox::reply(&state, &me, id, &content).await?,
    }))
}
