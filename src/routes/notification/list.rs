//! `GET /api/notification/notifications?page&limit` (limit 20) → {notifications, total, page,
//! totalPages, unreadCount}: the caller's notifications, newest first.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{signed_in, view, PageQuery, DEFAULT_LIMIT, MAX_LIMIT};
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::persistence::notifications;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn list(
    state: web::Data<AppState>,
    user: MaybeUser,
    query: web::Query<PageQuery>,
) -> ApiResult<HttpResponse> {
    let me = signed_in(user)?;
    let (page, limit, skip) = query.resolve(DEFAULT_LIMIT, MAX_LIMIT);
    let (items, total) = notifications::list_for_user(&state.db, me.user.id, skip, limit).await?;
    let unread = notifications::count_unread(&state.db, me.user.id).await?;
    let items: Vec<_> = items.iter().map(view).collect();
    Ok(HttpResponse::Ok().json(json!({
        "notifications": items,
        "total": total,
        "page": page,
        "totalPages": total.div_ceil(limit as u64),
        "unreadCount": unread,
    })))
}
