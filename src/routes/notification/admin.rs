//! `POST /api/notification/admin` {userId, content, navigateTo?} (administrators) → 201
//! {message, notification}: a notice to one user, stored and pushed to their tabs.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;
use serde_json::json;

use super::{
    check_length, navigate_to, present, NotificationSentAnswer, NotificationView, MSG_INVALID_USER,
    MSG_MISSING_USER_OR_CONTENT, MSG_USER_NOT_FOUND,
};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::notifications::Kind;
use crate::persistence::users;
use crate::services::notify::{notify, NotificationInput};
use crate::state::AppState;

pub const MSG_SENT: &str = "Notification sent";

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminNoticeBody {
    user_id: Option<String>,
    content: Option<String>,
    navigate_to: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn admin(
    state: web::Data<AppState>,
    AdminUser(me): AdminUser,
    body: ApiJson<AdminNoticeBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let user = present(body.user_id.as_deref()).filter(|u| u != "undefined");
    let (Some(user), Some(content)) = (user, present(body.content.as_deref())) else {
        return Err(ApiError::bad_request(MSG_MISSING_USER_OR_CONTENT));
    };
    check_length(&content)?;
    let navigate_to = navigate_to(body.navigate_to.as_deref())?;
    let user = ObjectId::parse_str(&user)
        .map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_USER))?;
    let addressee = users::find_by_id(&state.db, user)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    let mut input = NotificationInput::new(user, Some(me.user.id), Kind::Admin, &content);
    input.navigate_to = navigate_to;
    let notification = notify(&state, input).await?.ok_or_else(|| {
        ApiError::internal(anyhow::anyhow!("an administrator notice was suppressed"))
    })?;
    let details = json!({ "content": notification.content });
    audit::record(
        &state,
        &me,
        Action::NoticeSend,
        Target::user(&addressee),
        details,
    )
    .await;
    Ok(HttpResponse::Created().json(NotificationSentAnswer {
        message: MSG_SENT,
        notification: NotificationView::of(&notification),
    }))
}
