//! `GET /api/admin/audit-log?page&limit&action&actorId&targetId` (administrators) →
//! {logs, total, totalPages, page, limit}: every administrator action, newest first. Each entry
//! is {_id, actor {_id, name, email}, action, targetType, targetId, targetLabel, details,
//! createdAt}.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::audit::{self, AuditFilter, AuditView};
use crate::auth::AdminUser;
use crate::domain::params::object_id;
use crate::domain::params::present_param as present;
use crate::error::ApiResult;
use crate::routes::paging::PageParams;
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AuditQuery {
    #[serde(flatten)]
    #[param(ignore)]
    pub paging: PageParams,
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default)]
    pub actor_id: Option<String>,
    #[serde(default)]
    pub target_id: Option<String>,
}

/// `{logs, total, totalPages, page, limit}`: a page of the audit log, newest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditAnswer {
    pub logs: Vec<AuditView>,
    pub total: u64,
    pub total_pages: u64,
    pub page: u64,
    pub limit: i64,
}

#[tracing::instrument(skip(state, _admin))]
pub async fn audit_log(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<AuditQuery>,
) -> ApiResult<HttpResponse> {
    let paging = query.paging.resolve()?;
    let filter = AuditFilter {
        action: present(query.action.as_deref()).map(str::to_string),
        actor: present(query.actor_id.as_deref())
            .map(|actor| object_id(actor, "actorId"))
            .transpose()?,
        target: present(query.target_id.as_deref()).map(str::to_string),
    };
    let (logs, total) = audit::page(&state, filter, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(AuditAnswer {
        logs,
        total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
