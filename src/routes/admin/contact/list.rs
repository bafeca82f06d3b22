//! `GET /api/admin/contact-messages?page&limit` (administrators) → {messages, totalMessages,
//! totalPages, page, limit}: newest first, 10 per page by default.

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};

use super::view;
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::contact_messages;
use crate::routes::admin::PageParams;
use crate::state::AppState;

#[tracing::instrument(skip(state, _admin))]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let (found, total) = contact_messages::page(&state.db, paging.skip, paging.limit).await?;
    let messages: Vec<Value> = found.iter().map(view).collect();
    Ok(HttpResponse::Ok().json(json!({
        "messages": messages,
        "totalMessages": total,
        "totalPages": paging.total_pages(total),
        "page": paging.page,
        "limit": paging.limit,
    })))
}
