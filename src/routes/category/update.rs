//! `PATCH /api/category/{id}` {name?, slug?, description?} → {category}: the creator or an
//! administrator (others 403). Categories of the default set are changed by administrators only.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{
    may_manage, parse_description, parse_name, CategoryAnswer, CategoryView,
    MSG_CATEGORY_NOT_FOUND, MSG_NOT_CATEGORY_OWNER,
};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::slug::Slug;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::categories::{self, CategoryChanges};
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
    let changes = CategoryChanges {
        name: body.name.as_deref().map(parse_name).transpose()?,
        slug: body
            .slug
            .as_deref()
            .map(Slug::parse)
            .transpose()?
            .map(Slug::into_string),
        description: body
            .description
            .as_deref()
            .map(|d| parse_description(Some(d)))
            .transpose()?,
    };
    let existing = categories::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_CATEGORY_NOT_FOUND))?;
    if !may_manage(&existing, &me) {
        return Err(ApiError::forbidden(MSG_NOT_CATEGORY_OWNER));
    }
    let category = categories::update(&state.db, id, changes)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_CATEGORY_NOT_FOUND))?;
    Ok(HttpResponse::Ok().json(CategoryAnswer {
        category: CategoryView::from(&category),
    }))
}
