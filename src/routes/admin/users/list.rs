//! `GET /api/user/get-all-user?page&limit&search&sortField&sortOrder` (seed 000) and
//! `GET /api/admin/users?page&limit` (seed 001), administrators only →
//! {users, total, totalUsers, totalPages, page, limit}. Both families get both total keys.
//! Defaults: page 1, 10 per page, sorted by name ascending; `search` matches name or email
//! (case-insensitive, literal); `sortField` is one of name, email, createdAt, role, totalPosts,
//! blocked.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::routes::admin::ListParams;
use crate::services::admin_users::{self, AdminUserView};
use crate::state::AppState;

/// Sortable fields: name as sent, stored field.
pub const SORT_FIELDS: &[(&str, &str)] = &[
    ("name", "name"),
    ("email", "email"),
    ("createdAt", "createdAt"),
    ("role", "role"),
    ("totalPosts", "totalPosts"),
    ("blocked", "blocked"),
];

/// `{users, total, totalUsers, totalPages, page, limit}` (`total` and `totalUsers` are the same
/// count, for both API families).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UsersAnswer {
    pub users: Vec<AdminUserView>,
    pub total: u64,
    pub total_users: u64,
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
    let sort = query.sort(SORT_FIELDS, "name")?;
    let pattern = query.search_pattern()?;
    let (users, total) =
        admin_users::page(&state, pattern.as_deref(), sort, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(UsersAnswer {
        users,
        total,
        total_users: total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}
