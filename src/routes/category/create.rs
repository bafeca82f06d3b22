//! `POST /api/category/` {name, slug, description} → 201 {category}. Any signed-in user may add a
//! category; they become its creator. A slug in use is a 409.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::categories::{self, CategoryInput};
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CreateCategoryBody {
    name: String,
    #[serde(default)]
    slug: Option<String>,
    #[serde(default)]
    description: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<CreateCategoryBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let input = CategoryInput {
        name: body.name,
        slug: body.slug,
        description: body.description,
    };
    Ok(HttpResponse::Created().json(categories::create(&state, &me, &input).await?))
}
