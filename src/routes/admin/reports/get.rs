//! `GET /api/admin/reports/{id}` (the reported post's author, or an administrator) → {report,
//! messages}: one report, for the page where the author reads it and acknowledges it
//! (`/acknowledge/{reportId}`). The author gets the report as authors see it (never who filed
//! it), administrators as their list shows it. `messages` are what administrators told the
//! author about it — the author's notifications linking to `/acknowledge/{id}` (the forward
//! and every notice), newest first, `{_id, content, read, createdAt}`. Anyone else: 403.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use super::report_id;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::reports::{self, EitherReport, ReportMessage};
use crate::state::AppState;

/// `{report, messages}`: the report (as authors or as administrators see it) and what
/// administrators told the author about it, newest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportDetail {
    pub report: EitherReport,
    pub messages: Vec<ReportMessage>,
    /// For administrators: the post as the reporter saw it (its pinned revision), also after
    /// the post was edited or deleted.
    pub evidence: Option<crate::services::revisions::Evidence>,
}

#[tracing::instrument(skip(state, me), fields(user = %me.id_hex()))]
pub async fn get(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = report_id(&id)?;
    let (view, messages, evidence) = reports::detail(&state, &me, id).await?;
    Ok(HttpResponse::Ok().json(ReportDetail {
        report: view,
        messages,
        evidence,
    }))
}
