//! `PATCH /api/admin/reports/{id}` {forwardToAuthor} (administrators) → {message, report}: marks
//! a report reviewed; with `forwardToAuthor: true` the post's author is notified (once) with a
//! link to `/acknowledge/{reportId}`. Reviewing again may still forward it. The reporter may
//! report the post again once it is reviewed. Administrators hear `reportReviewed`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::report_id;
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::extract::parse_json;
use crate::services::reports::{self, AdminReportView};
use crate::state::AppState;

/// `{message, report}`: the report after a review, as administrators see it.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ReviewAnswer {
    pub message: String,
    pub report: AdminReportView,
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
    let report = reports::review(&state, &admin, id, forward).await?;
    let message = if report.forwarded_to_author {
        MSG_FORWARDED
    } else {
        MSG_REVIEWED
    };
    Ok(HttpResponse::Ok().json(ReviewAnswer {
        message: message.to_string(),
        report,
    }))
}
