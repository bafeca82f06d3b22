//! `GET /api/admin/audit-log?page&limit&action&actorId&targetId` (administrators) →
//! {logs, total, totalPages, page, limit}: every administrator action, newest first. Each entry
//! is {_id, actor {_id, name, email}, action, targetType, targetId, targetLabel, details,
//! createdAt}.

use actix_web::{web, HttpResponse};
use mongodb::bson::Document;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{present, PageParams};
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::extract::object_id;
use crate::persistence::audit_log::{self, AuditEntry};
use crate::routes::user::iso;
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

fn view(e: &AuditEntry) -> Value {
    json!({
        "_id": e.id.to_hex(),
        "actor": { "_id": e.actor_id.to_hex(), "name": e.actor_name, "email": e.actor_email },
        "action": e.action,
        "targetType": e.target_type,
        "targetId": e.target_id,
        "targetLabel": e.target_label,
        "details": e.details,
        "createdAt": iso(e.created_at),
    })
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
    let logs: Vec<Value> = entries.iter().map(view).collect();
    Ok(HttpResponse::Ok().json(json!({
        "logs": logs,
        "total": total,
        "totalPages": paging.total_pages(total),
        "page": paging.page,
        "limit": paging.limit,
    })))
}
