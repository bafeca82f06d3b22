//! `GET /api/admin/reports/{id}` (the reported post's author, or an administrator) → {report,
//! messages}: one report, for the page where the author reads it and acknowledges it
//! (`/acknowledge/{reportId}`). The author gets the report as authors see it (never who filed
//! it), administrators as their list shows it. `messages` are what administrators told the
//! author about it — the author's notifications linking to `/acknowledge/{id}` (the forward
//! and every notice), newest first, `{_id, content, read, createdAt}`. Anyone else: 403.

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};

use super::{admin_view_of, public_view, report_id, MSG_NOT_FOUND};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{notifications, reports};
use crate::routes::user::iso;
use crate::state::AppState;

pub const MSG_NOT_YOURS: &str =
    "Only the author of the reported post or an administrator can read this report";

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
    let messages: Vec<Value> = notifications::linking_to(&state.db, report.author_id, &link)
        .await?
        .iter()
        .map(|n| {
            json!({
                "_id": n.id.to_hex(),
                "content": n.content,
                "read": n.read,
                "createdAt": iso(n.created_at),
            })
        })
        .collect();
    let view = if is_author {
        public_view(&report)
    } else {
        admin_view_of(&state.db, &report).await?
    };
    Ok(HttpResponse::Ok().json(json!({ "report": view, "messages": messages })))
}
