//! `GET /api/admin/contact-messages?page&limit` (administrators) → {messages, totalMessages,
//! totalPages, page, limit}: newest first, 10 per page by default.

use actix_web::{web, HttpResponse};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::routes::paging::PageParams;
use crate::services::contact::{self, ContactView};
use crate::state::AppState;

/// `{messages, totalMessages, totalPages, page, limit}`: a page of contact messages.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactMessages {
    pub messages: Vec<ContactView>,
    pub total_messages: u64,
    pub total_pages: u64,
    pub page: u64,
    pub limit: i64,
}

#[tracing::instrument(skip(state, _admin))]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<PageParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.resolve()?;
    let (messages, total) = contact::page(&state, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(ContactMessages {
        messages,
        total_messages: total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
