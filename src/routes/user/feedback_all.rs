//! `GET /api/user/feedback/all?page&limit` (administrators; limit 50) → {feedbacks, total, page,
//! totalPages}: everyone's feedback, newest first, with who gave it.

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::{feedback, users};
use crate::routes::paging::PageQuery;
use crate::routes::user::feedback_submit::FeedbackView;
use crate::state::AppState;

pub const DEFAULT_LIMIT: i64 = 50;
pub const MAX_LIMIT: i64 = 200;

/// Who wrote a feedback entry.
#[derive(Serialize, utoipa::ToSchema)]
pub struct FeedbackAuthor {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    email: String,
    avatar: Option<String>,
}

/// A feedback entry with its author (`null` when the account is gone).
#[derive(Serialize, utoipa::ToSchema)]
pub struct FeedbackEntry {
    #[serde(flatten)]
    feedback: FeedbackView,
    user: Option<FeedbackAuthor>,
}

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
    let (items, total) = feedback::list(&state.db, skip, limit).await?;
    let ids: Vec<_> = items.iter().map(|f| f.user_id).collect();
    let people: HashMap<_, _> = users::find_many(&state.db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let feedbacks: Vec<FeedbackEntry> = items
        .iter()
        .map(|f| FeedbackEntry {
            feedback: FeedbackView::of(f),
            user: people.get(&f.user_id).map(|u| FeedbackAuthor {
                id: u.id.to_hex(),
                name: u.name.clone(),
                email: u.email.clone(),
                avatar: u.avatar.clone(),
            }),
        })
        .collect();
    Ok(HttpResponse::Ok().json(FeedbacksAnswer {
        feedbacks,
        total,
        page,
        total_pages: total.div_ceil(limit as u64),
    }))
}
