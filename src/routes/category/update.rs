//! `PATCH /api/category/{id}` {name?, slug?, description?} → {category}: the creator or an
//! administrator (others 403). Categories of the default set are changed by administrators only.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::categories;
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateCategoryBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    slug: Option<String>,
    #[serde(default)]
    description: Option<String>,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn update(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: ApiJson<UpdateCategoryBody>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "category id")?;
    let body = body.into_inner();
    let answer = categories::update(
        &state,
        &me,
        id,
        body.name.as_deref(),
        body.slug.as_deref(),
        body.description.as_deref(),
    )
    .await?;
    Ok(HttpResponse::Ok().json(answer))
}
