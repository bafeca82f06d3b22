//! `POST /api/category/` {name, slug, description} → 201 {category}. Any signed-in user may add a
//! category; they become its creator. A slug in use is a 409.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{parse_description, parse_name, slug_or_from_name, CategoryAnswer, CategoryView};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::persistence::categories::{self, NewCategory};
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
    let name = parse_name(&body.name)?;
    let slug = slug_or_from_name(body.slug.as_deref(), &name)?;
    let description = parse_description(body.description.as_deref())?;
    let category = categories::create(
        &state.db,
        NewCategory {
            name,
            slug: slug.into_string(),
            description,
            created_by: Some(me.user.id),
        },
    )
    .await?;
    Ok(HttpResponse::Created().json(CategoryAnswer {
        category: CategoryView::from(&category),
    }))
}
