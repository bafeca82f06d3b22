//! `GET /api/admin/reports?page&limit` (administrators) → {reports, total, totalPages, page,
//! limit}: newest first, each with the post's title, the reporter and the author.

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};

use super::{admin_view, people_of};
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::reports;
use crate::routes::admin::PageParams;
use crate::state::AppState;

#[tracing::instrument(skip(state, _admin))]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let (found, total) = reports::page(&state.db, paging.skip, paging.limit).await?;
    let people = people_of(&state.db, &found).await?;
    let items: Vec<Value> = found.iter().map(|r| admin_view(r, &people)).collect();
    Ok(HttpResponse::Ok().json(json!({
        "reports": items,
        "total": total,
        "totalPages": paging.total_pages(total),
        "page": paging.page,
        "limit": paging.limit,
    })))
}
