//! `POST /api/admin/replies/send-notification` {reportId, subject, message} (administrators) →
//! {message, notification, emailSent}: tells the reported post's author about the report, as an
//! administrator's notification (linking to `/acknowledge/{reportId}`) and an email (logged and
//! re-sendable). The notification is stored even when the mail cannot go out now (`emailSent:
//! false`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::report_id;
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::routes::admin::contact::{line_field, text_field, MAX_MESSAGE_LEN, MAX_SUBJECT_LEN};
use crate::services::notifications::NotificationView;
use crate::services::reports;
use crate::state::AppState;

/// `{message, notification, emailSent}`: the notice is stored; `emailSent` says whether the
/// mail went out now.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoticeAnswer {
    pub message: String,
    /// The author's new notification, as the notification list shows it.
    pub notification: NotificationView,
    pub email_sent: bool,
}

pub const MSG_SENT: &str = "Notification sent to the author";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoticeBody {
    #[serde(default)]
    report_id: Option<String>,
    #[serde(default)]
    subject: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

#[tracing::instrument(skip(state, admin, body), fields(admin = %admin.0.id_hex()))]
pub async fn send_notification(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: ApiJson<NoticeBody>,
) -> ApiResult<HttpResponse> {
    let AdminUser(admin) = admin;
    let body = body.into_inner();
    let raw_id = body
        .report_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad_request("reportId is required"))?;
    let id = report_id(raw_id)?;
    let subject = line_field(body.subject.as_deref(), "Subject", MAX_SUBJECT_LEN)?;
    let text = text_field(body.message.as_deref(), "Message", MAX_MESSAGE_LEN)?;
    let (notification, sent) = reports::send_notice(&state, &admin, id, &subject, &text).await?;
    Ok(HttpResponse::Ok().json(NoticeAnswer {
        message: MSG_SENT.to_string(),
        notification,
        email_sent: sent,
    }))
}
