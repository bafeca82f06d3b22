//! `GET /api/admin/reports/{id}` (the reported post's author, or an administrator) → {report,
//! messages}: one report, for the page where the author reads it and acknowledges it
//! (`/acknowledge/{reportId}`). The author gets the report as authors see it (never who filed
//! it), administrators as their list shows it. `messages` are what administrators told the
//! author about it — the author's notifications linking to `/acknowledge/{id}` (the forward
//! and every notice), newest first, `{_id, content, read, createdAt}`. Anyone else: 403.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use super::{admin_view_of, public_view, report_id, AdminReportView, ReportView, MSG_NOT_FOUND};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{notifications, reports};
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_NOT_YOURS: &str =
    "Only the author of the reported post or an administrator can read this report";

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

/// A report as the caller may see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum EitherReport {
    Author(ReportView),
    Admin(Box<AdminReportView>),
}

/// A notification the author received about a report.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportMessage {
    #[serde(rename = "_id")]
    pub id: String,
    pub content: String,
    pub read: bool,
    pub created_at: String,
}

#[tracing::instrument(skip(state, me), fields(user = %me.id_hex()))]
pub async fn get(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = report_id(&id)?;
    let report = reports::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let is_author = report.author_id == me.user.id;
    if !is_author && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_YOURS));
    }
    let link = format!("/acknowledge/{}", id.to_hex());
    let messages: Vec<ReportMessage> =
        notifications::linking_to(&state.db, report.author_id, &link)
            .await?
            .iter()
            .map(|n| ReportMessage {
                id: n.id.to_hex(),
                content: n.content.clone(),
                read: n.read,
                created_at: iso(n.created_at),
            })
            .collect();
    let (view, evidence) = if is_author {
        (EitherReport::Author(public_view(&report)), None)
    } else {
        let evidence = match report.revision_id {
            Some(revision) => crate::services::revisions::evidence(&state, revision).await?,
            None => None,
        };
        (
            EitherReport::Admin(Box::new(admin_view_of(&state, &report).await?)),
            evidence,
        )
    };
    Ok(HttpResponse::Ok().json(ReportDetail {
        report: view,
        messages,
        evidence,
    }))
}
