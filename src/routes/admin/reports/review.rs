//! `PATCH /api/admin/reports/{id}` {forwardToAuthor} (administrators) → {message, report}: marks
//! a report reviewed; with `forwardToAuthor: true` the post's author is notified (once) with a
//! link to `/acknowledge/{reportId}`. Reviewing again may still forward it. The reporter may
//! report the post again once it is reviewed. Administrators hear `reportReviewed`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::{admin_view_of, report_id, MSG_NOT_FOUND};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::parse_json;
use crate::live;
use crate::persistence::notifications::Kind;
use crate::persistence::reports;
use crate::services::notify::{notify, NotificationInput};
use crate::state::AppState;

/// `{message, report}`: the report after a review, as administrators see it.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ReviewAnswer {
    pub message: String,
    pub report: super::AdminReportView,
}

pub const MSG_REVIEWED: &str = "Report reviewed";
pub const MSG_FORWARDED: &str = "Report reviewed and forwarded to the author";

/// `{forwardToAuthor?}`, or no body: whether the post's author is told about the report.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewBody {
    /// Notify the post's author (once); `false` by default.
    #[serde(default)]
    forward_to_author: Option<bool>,
}

/// What the author is told when a report is forwarded.
pub fn forwarded_text(title: &str, reason: &str) -> String {
    format!(
        "Your post \"{title}\" was reported ({}). Please review it, and acknowledge the report once you have.",
        reason.replace('_', " ")
    )
}

#[tracing::instrument(skip(state, admin, body), fields(admin = %admin.0.id_hex()))]
pub async fn review(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let AdminUser(admin) = admin;
    let body: ReviewBody = if body.iter().all(u8::is_ascii_whitespace) {
        ReviewBody::default()
    } else {
        parse_json(&body)?
    };
    let forward = body.forward_to_author.unwrap_or(false);
    let id = report_id(&id)?;
    let report = reports::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let updated = reports::review(&state.db, &report, admin.user.id, forward)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let newly_forwarded = updated.forwarded_to_author && !report.forwarded_to_author;
    if newly_forwarded {
        let text = forwarded_text(&report.post_title, &report.reason);
        let mut input =
            NotificationInput::new(report.author_id, Some(admin.user.id), Kind::Admin, &text);
        input.post_id = Some(report.post_id);
        input.navigate_to = Some(format!("/acknowledge/{}", id.to_hex()));
        notify(&state, input).await?;
    }
    live::report_reviewed(&state.realtime, &id.to_hex(), updated.forwarded_to_author);
    let target = Target::new("report", id.to_hex(), report.post_title.clone());
    let details = json!({ "forwardToAuthor": forward, "forwarded": updated.forwarded_to_author });
    audit::record(&state, &admin, Action::ReportReview, target, details).await;
    let message = if updated.forwarded_to_author {
        MSG_FORWARDED
    } else {
        MSG_REVIEWED
    };
    Ok(HttpResponse::Ok().json(ReviewAnswer {
        message: message.to_string(),
        report: admin_view_of(&state, &updated).await?,
    }))
}
