//! `GET /api/admin/posts?page&limit&search&sortField&sortOrder` (administrators) →
//! {posts, totalCount, totalPages, page, limit}: every post, drafts, scheduled, private and
//! blocked ones included, with its author's name and its blocked flag. Defaults (seed 001 §9):
//! page 1, 10 per page, sorted by title ascending; `sortField` is title, createdAt, views or
//! likes; `search` matches the title or the author's name (case-insensitive, literal).

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::routes::admin::ListParams;
use crate::services::admin_posts::{self, AdminPostView};
use crate::state::AppState;

/// Sortable fields: name as sent, stored field.
pub const SORT_FIELDS: &[(&str, &str)] = &[
    ("title", "title"),
    ("createdAt", "createdAt"),
    ("views", "views"),
    ("likes", "likesCount"),
];

/// `{posts, totalCount, totalPages, page, limit}`: a page of every post.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPostsAnswer {
    pub posts: Vec<AdminPostView>,
    pub total_count: u64,
    pub total_pages: u64,
    pub page: u64,
    pub limit: i64,
}

#[tracing::instrument(skip(state, _admin))]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<ListParams>,
) -> ApiResult<HttpResponse> {
    let paging = query.paging.resolve()?;
    let sort = query.sort(SORT_FIELDS, "title")?;
    let pattern = query.search_pattern()?;
    let (posts, total) =
        admin_posts::page(&state, pattern.as_deref(), sort, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(AdminPostsAnswer {
        posts,
        total_count: total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
