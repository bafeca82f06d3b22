//! `POST /api/admin/replies/send-notification` {reportId, subject, message} (administrators) →
//! {message, notification, emailSent}: tells the reported post's author about the report, as an
//! administrator's notification (linking to `/acknowledge/{reportId}`) and an email (logged and
//! re-sendable). The notification is stored even when the mail cannot go out now (`emailSent:
//! false`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::{report_id, MSG_NOT_FOUND};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::mail::{MailKind, Outgoing};
use crate::persistence::notifications::Kind;
use crate::persistence::{reports, users};
use crate::routes::admin::contact::{line_field, text_field, MAX_MESSAGE_LEN, MAX_SUBJECT_LEN};
use crate::services::notifications::NotificationView;
use crate::services::notify::{notify, NotificationInput};
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
pub const MSG_AUTHOR_GONE: &str = "The author of this post no longer has an account";

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
    let report = reports::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let author = users::find_by_id(&state.db, report.author_id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_AUTHOR_GONE))?;
    let link = format!("/acknowledge/{}", id.to_hex());
    let mut input = NotificationInput::new(
        author.id,
        Some(admin.user.id),
        Kind::Admin,
        &format!("{subject}: {text}"),
    );
    input.post_id = Some(report.post_id);
    input.navigate_to = Some(link.clone());
    let notification = notify(&state, input)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a report notice was suppressed")))?;
    let mail_body = format!(
        "Hello {},\n\n{text}\n\nThis is about your post \"{}\". Please acknowledge the report here:\n{}\n\n--\nThe Pressroom team\n",
        author.name,
        report.post_title,
        state.settings.public_link(&link),
    );
    let mail = Outgoing::new(MailKind::ReportNotice, &author.email, &subject, mail_body)
        .for_user(author.id);
    let sent = state.mailer.send_mail(mail).await.success;
    reports::count_notice(&state.db, id).await?;
    let target = Target::new("report", id.to_hex(), report.post_title.clone());
    let details = json!({ "subject": subject, "emailSent": sent });
    audit::record(&state, &admin, Action::ReportNotice, target, details).await;
    Ok(HttpResponse::Ok().json(NoticeAnswer {
        message: MSG_SENT.to_string(),
        notification: NotificationView::of(&notification),
        email_sent: sent,
    }))
}
