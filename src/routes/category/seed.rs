//! `POST /api/category/seed` (administrators) → {message}: adds the default categories that are
//! missing. Running it again adds nothing.

use actix_web::{web, HttpResponse};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::services::categories;
use crate::state::AppState;

/// `{message, added}`: how many default categories were added.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct SeedAnswer {
    message: String,
    added: u32,
}

#[tracing::instrument(skip_all)]
pub async fn seed(state: web::Data<AppState>, admin: AdminUser) -> ApiResult<HttpResponse> {
    let added = categories::seed_defaults(&state, &admin.0).await?;
    let message = if added == 0 {
        "Default categories are already in place".to_string()
    } else {
        format!("Seeded {added} default categories")
    };
    Ok(HttpResponse::Ok().json(SeedAnswer { message, added }))
}
