//! `GET /api/admin/audit-log?page&limit&action&actorId&targetId` (administrators) →
//! {logs, total, totalPages, page, limit}: every administrator action, newest first. Each entry
//! is {_id, actor {_id, name, email}, action, targetType, targetId, targetLabel, details,
//! createdAt}.

use actix_web::{web, HttpResponse};
use mongodb::bson::Document;
use serde::{Deserialize, Serialize};

use crate::auth::AdminUser;
use crate::domain::params::object_id;
use crate::domain::params::present_param as present;
use crate::error::ApiResult;
use crate::persistence::audit_log::{self, AuditEntry};
use crate::post_view::iso;
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

/// An administrator action.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditView {
    #[serde(rename = "_id")]
    pub id: String,
    pub actor: AuditActor,
    pub action: String,
    pub target_type: String,
    pub target_id: Option<String>,
    pub target_label: Option<String>,
    /// What the action changed; its keys depend on the action.
    #[schema(value_type = Object)]
    pub details: Document,
    pub created_at: String,
}

/// The administrator who acted.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuditActor {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: String,
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

fn view(e: &AuditEntry) -> AuditView {
    AuditView {
        id: e.id.to_hex(),
        actor: AuditActor {
            id: e.actor_id.to_hex(),
            name: e.actor_name.clone(),
            email: e.actor_email.clone(),
        },
        action: e.action.clone(),
        target_type: e.target_type.clone(),
        target_id: e.target_id.clone(),
        target_label: e.target_label.clone(),
        details: e.details.clone(),
        created_at: iso(e.created_at),
    }
}

#[tracing::instrument(skip(state, _admin))]
pub async fn audit_log(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<AuditQuery>,
) -> ApiResult<HttpResponse> {
    let paging = query.paging.resolve()?;
    let mut filter = Document::new();
    if let Some(action) = present(query.action.as_deref()) {
        filter.insert("action", action);
    }
    if let Some(actor) = present(query.actor_id.as_deref()) {
        filter.insert("actorId", object_id(actor, "actorId")?);
    }
    if let Some(target) = present(query.target_id.as_deref()) {
        filter.insert("targetId", target);
    }
    let (entries, total) = audit_log::page(&state.db, filter, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(AuditAnswer {
        logs: entries.iter().map(view).collect(),
        total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
