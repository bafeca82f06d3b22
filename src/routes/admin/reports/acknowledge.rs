//! `POST /api/admin/acknowledge-report/{id}` (the reported post's author) → {message, report}:
//! the author says they have seen the report (`isAcknowledged`); anyone else, administrators
//! included, 403. Repeating it is harmless. Administrators hear `reportAcknowledged`.

use actix_web::{web, HttpResponse};

use super::{public_view, report_id, MSG_NOT_FOUND};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::persistence::reports;
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_ACKNOWLEDGED: &str = "Report acknowledged";
pub const MSG_NOT_AUTHOR: &str = "Only the author of the reported post can acknowledge this report";

#[tracing::instrument(skip(state, me), fields(user = %me.id_hex()))]
pub async fn acknowledge(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = report_id(&id)?;
    let report = reports::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if report.author_id != me.user.id {
        return Err(ApiError::forbidden(MSG_NOT_AUTHOR));
    }
    let updated = reports::acknowledge(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if !report.is_acknowledged {
        let at = updated.acknowledged_at.map(iso).unwrap_or_default();
        live::report_acknowledged(&state.realtime, &id.to_hex(), &at);
    }
    Ok(HttpResponse::Ok().json(super::ReportAnswer {
        message: MSG_ACKNOWLEDGED.to_string(),
        report: public_view(&updated),
    }))
}
