//! `GET /api/category/all-category` → {categories}: every category, by name. Open to guests.

use actix_web::{web, HttpResponse};

use crate::error::ApiResult;
use crate::services::categories;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn all_category(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(categories::all(&state).await?))
}
