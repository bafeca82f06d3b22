//! `POST /api/admin/acknowledge-report/{id}` (the reported post's author) → {message, report}:
//! the author says they have seen the report (`isAcknowledged`); anyone else, administrators
//! included, 403. Repeating it is harmless. Administrators hear `reportAcknowledged`.

use actix_web::{web, HttpResponse};

use super::report_id;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::reports;
use crate::state::AppState;

pub const MSG_ACKNOWLEDGED: &str = "Report acknowledged";

#[tracing::instrument(skip(state, me), fields(user = %me.id_hex()))]
pub async fn acknowledge(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = report_id(&id)?;
    let report = reports::acknowledge(&state, &me, id).await?;
    Ok(HttpResponse::Ok().json(super::ReportAnswer {
        message: MSG_ACKNOWLEDGED.to_string(),
        report,
    }))
}
