//! `GET /api/admin/subscriptions/plans?page&limit&status&includeDeleted` → `{plans, count,
//! total, page, totalPages}` (every author's plans, newest first, 10 a page) and `PATCH
//! /api/admin/subscriptions/plan/status {planId, status}` → `{message, plan}`.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::audit::{record, Action};
use crate::auth::AdminUser;
use crate::domain::money::PlanStatus;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, Sent};
use crate::persistence::plans;
use crate::routes::paging::PageParams;
use crate::routes::subscription::plans::{plan_target, StatusValue, MSG_DELETED_PLAN};
use crate::routes::subscription::{load_plan, plan_view, plan_views, PlanAnswer, PlanView};
use crate::services::billing::mode;
use crate::state::AppState;

pub const MSG_BAD_INCLUDE_DELETED: &str = "includeDeleted must be true or false";

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct PlanQuery {
    #[serde(flatten)]
    #[param(ignore)]
    pub paging: PageParams,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub include_deleted: Option<String>,
}

/// `{plans, count, total, page, totalPages, mode}`: a page of every author's plans.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AllPlansAnswer {
    pub plans: Vec<PlanView>,
    pub count: usize,
    pub total: u64,
    pub page: u64,
    pub total_pages: u64,
    pub mode: String,
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn list(
    state: web::Data<AppState>,
    admin: AdminUser,
    query: web::Query<PlanQuery>,
) -> ApiResult<HttpResponse> {
    let paging = query.paging.resolve()?;
    let status = query
        .status
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| PlanStatus::parse(&Value::String(s.into())))
        .transpose()?;
    let include_deleted = match query.include_deleted.as_deref().map(str::trim) {
        None | Some("") | Some("true") => true,
        Some("false") => false,
        Some(_) => return Err(ApiError::bad_request(MSG_BAD_INCLUDE_DELETED)),
    };
    let all: Vec<_> = plans::all(&state.db)
        .await?
        .into_iter()
        .filter(|p| status.is_none_or(|s| p.status == s))
        .filter(|p| include_deleted || !p.is_deleted)
        .collect();
    let total = all.len() as u64;
    let shown: Vec<_> = all
        .into_iter()
        .skip(usize::try_from(paging.skip).unwrap_or(usize::MAX))
        .take(usize::try_from(paging.limit).unwrap_or(0))
        .collect();
    let plans = plan_views(&state.db, &shown, mode(&state)).await?;
    Ok(HttpResponse::Ok().json(AllPlansAnswer {
        count: plans.len(),
        plans,
        total,
        page: paging.page,
        total_pages: paging.total_pages(total),
        mode: mode(&state).to_string(),
    }))
}

/// `{planId, status}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanStatusBody {
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub plan_id: Sent<PlanIdText>,
    #[serde(default)]
    #[schema(value_type = PlanStatus, required = true)]
    pub status: Sent<StatusValue>,
}

crate::text_field! {
    /// `planId`: the plan's id as sent (looked up by the handler).
    PlanIdText = "planId";
}

impl PlanStatusBody {
    /// The plan id and the status, checked in the documented order.
    pub fn validate(&self) -> ApiResult<(String, PlanStatus)> {
        let plan_id = self.plan_id.value()?;
        let status = match self.status.value()? {
            Some(s) => s.0,
            None => PlanStatus::parse(&Value::Null)?,
        };
        let plan_id = plan_id.ok_or_else(|| {
            ApiError::bad_request(crate::routes::subscription::subscribe::MSG_MISSING_PLAN_ID)
        })?;
        Ok((plan_id.0.clone(), status))
    }
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn set_status(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: Body<PlanStatusBody>,
) -> ApiResult<HttpResponse> {
    let (plan_id, status) = body.read()?.validate()?;
    let plan = load_plan(&state.db, &plan_id).await?;
    if plan.is_deleted {
        return Err(ApiError::conflict(MSG_DELETED_PLAN));
    }
    let plan = plans::set_status(&state.db, plan.id, status)
        .await?
        .ok_or_else(|| ApiError::not_found(crate::routes::subscription::MSG_PLAN_NOT_FOUND))?;
    let details = json!({ "status": status.as_str() });
    record(
        &state,
        &admin.0,
        Action::PlanStatus,
        plan_target(&plan),
        details,
    )
    .await;
    let done = if status == PlanStatus::Active {
        "activated"
    } else {
        "deactivated"
    };
    Ok(HttpResponse::Ok().json(PlanAnswer {
        message: format!("Plan {done}"),
        plan: plan_view(&plan, mode(&state), None),
        mode: mode(&state).to_string(),
    }))
}
