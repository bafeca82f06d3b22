//! `GET /api/user/feedback/all?page&limit` (administrators; limit 50) → {feedbacks, total, page,
//! totalPages}: everyone's feedback, newest first, with who gave it.

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use serde_json::{json, Value};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::{feedback, users};
use crate::routes::notification::PageQuery;
use crate::routes::user::iso;
use crate::state::AppState;

pub const DEFAULT_LIMIT: i64 = 50;
pub const MAX_LIMIT: i64 = 200;

#[tracing::instrument(skip_all)]
pub async fn feedback_all(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<PageQuery>,
) -> ApiResult<HttpResponse> {
    let (page, limit, skip) = query.resolve(DEFAULT_LIMIT, MAX_LIMIT);
    let (items, total) = feedback::list(&state.db, skip, limit).await?;
    let ids: Vec<_> = items.iter().map(|f| f.user_id).collect();
    let people: HashMap<_, _> = users::find_many(&state.db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let feedbacks: Vec<Value> = items
        .iter()
        .map(|f| {
            json!({
                "_id": f.id.to_hex(),
                "rating": f.rating,
                "message": f.message,
                "createdAt": iso(f.created_at),
                "user": people.get(&f.user_id).map(|u| json!({
                    "_id": u.id.to_hex(), "name": u.name, "email": u.email, "avatar": u.avatar,
                })),
            })
        })
        .collect();
    Ok(HttpResponse::Ok().json(json!({
        "feedbacks": feedbacks,
        "total": total,
        "page": page,
        "totalPages": total.div_ceil(limit as u64),
    })))
}
