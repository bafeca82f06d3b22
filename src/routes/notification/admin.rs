//! `POST /api/notification/admin` {userId, content, navigateTo?} (administrators) → 201
//! {message, notification}: a notice to one user, stored and pushed to their tabs.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;

use super::{
    check_length, navigate_to, present, NotificationSentAnswer, MSG_INVALID_USER,
    MSG_MISSING_USER_OR_CONTENT,
};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::inbox;
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
    let notification = inbox::send_admin_notice(&state, &me, user, &content, navigate_to).await?;
    Ok(HttpResponse::Created().json(NotificationSentAnswer {
        message: MSG_SENT,
        notification,
    }))
}
