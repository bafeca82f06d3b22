//! `GET /api/category/user-selected` → {categories}: the signed-in user's selection, in the order
//! chosen.

use actix_web::{web, HttpResponse};

use super::CategoriesAnswer;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::categories::{self, Category};
use crate::persistence::Db;
use crate::state::AppState;

/// The user's selected categories in selection order (deleted ones are skipped).
pub async fn selected(db: &Db, user: mongodb::bson::oid::ObjectId) -> ApiResult<Vec<Category>> {
    let ids = categories::selected_ids(db, user).await?;
    let found = categories::find_many(db, &ids).await?;
    Ok(ids
        .iter()
        .filter_map(|id| found.iter().find(|c| c.id == *id).cloned())
        .collect())
}

#[tracing::instrument(skip_all)]
pub async fn user_selected(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let list = selected(&state.db, me.user.id).await?;
    Ok(HttpResponse::Ok().json(CategoriesAnswer::of(&list)))
}
