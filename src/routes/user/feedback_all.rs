//! `GET /api/user/feedback/all?page&limit` (administrators; limit 50) → {feedbacks, total, page,
//! totalPages}: everyone's feedback, newest first, with who gave it.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::routes::paging::PageQuery;
use crate::services::feedback::{self, FeedbackEntry};
use crate::state::AppState;

pub const DEFAULT_LIMIT: i64 = 50;
pub const MAX_LIMIT: i64 = 200;

/// `{feedbacks, total, page, totalPages}`: one page of feedback, newest first.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedbacksAnswer {
    feedbacks: Vec<FeedbackEntry>,
    total: u64,
    page: u64,
    total_pages: u64,
}

#[tracing::instrument(skip_all)]
pub async fn feedback_all(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<PageQuery>,
) -> ApiResult<HttpResponse> {
    let (page, limit, skip) = query.resolve(DEFAULT_LIMIT, MAX_LIMIT);
    let (feedbacks, total) = feedback::page(&state, skip, limit).await?;
    Ok(HttpResponse::Ok().json(FeedbacksAnswer {
        feedbacks,
        total,
        page,
        total_pages: total.div_ceil(limit as u64),
    }))
}
