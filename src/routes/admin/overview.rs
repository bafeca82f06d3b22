//! `GET /api/admin/overview` (administrators) → `{online {count, users, guests}, today {since,
//! signups, posts, reports, contactMessages}, unreadContactMessages, openReports,
//! pendingAppeals, totals {users, posts}}`: the figures the dashboard's overview opens with.
//! "Today" is the current UTC day; `posts` counts posts published today, `unreadContactMessages`
//! those not handled, `openReports` those not reviewed.

use actix_web::{web, HttpResponse};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::services::overview;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn overview(state: web::Data<AppState>, admin: AdminUser) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(overview::overview(&state).await?))
}
