//! `GET /api/admin/jobs/{id}` (administrators) → {job}: where a background job (retrying failed
//! emails, broadcasting a notice) stands: `{_id, kind, status (queued | running | done |
//! failed), done, total, message, results, createdAt, updatedAt}`.

use actix_web::{web, HttpResponse};

use crate::auth::AdminUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::services::jobs::admin_tasks;
use crate::state::AppState;

pub const MSG_JOB_NOT_FOUND: &str = "Job not found";

/// `{job}`.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct JobAnswer {
    #[schema(value_type = Object)]
    job: serde_json::Value,
}

#[tracing::instrument(skip(state, _admin))]
pub async fn job(
    state: web::Data<AppState>,
    _admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "job id")?;
    let job = admin_tasks::find(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_JOB_NOT_FOUND))?;
    Ok(HttpResponse::Ok().json(JobAnswer {
        job: admin_tasks::job_view(&job),
    }))
}
