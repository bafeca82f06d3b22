//! `GET /api/category/all-category` → {categories}: every category, by name. Open to guests.

use actix_web::{web, HttpResponse};

use super::CategoriesAnswer;
use crate::error::ApiResult;
use crate::persistence::categories;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn all_category(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let all = categories::list_all(&state.db).await?;
    Ok(HttpResponse::Ok().json(CategoriesAnswer::of(&all)))
}
