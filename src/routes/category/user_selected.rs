//! `GET /api/category/user-selected` → {categories}: the signed-in user's selection, in the order
//! chosen.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::categories;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn user_selected(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(categories::selection_of(&state, me.user.id).await?))
}
