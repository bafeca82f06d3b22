//! `POST /api/category/users/{userId}/categories` {categoryIds, newCategories} → {categories}:
//! replaces the caller's selection with the given categories plus any new ones it creates (the
//! caller becomes their creator). Only for yourself: another user's id is a 403.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::categories::{self, CategoryInput};
use crate::state::AppState;

pub const MAX_NEW_AT_ONCE: usize = 20;
pub const MSG_ONLY_YOURSELF: &str = "You can only change your own category selection";

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NewCategoryBody {
    name: String,
    #[serde(default)]
    slug: Option<String>,
    #[serde(default)]
    description: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssignBody {
    #[serde(default)]
    category_ids: Vec<String>,
    #[serde(default)]
    new_categories: Vec<NewCategoryBody>,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn assign(
    state: web::Data<AppState>,
    me: AuthUser,
    user_id: web::Path<String>,
    body: ApiJson<AssignBody>,
) -> ApiResult<HttpResponse> {
    let user_id = object_id(&user_id, "user id")?;
    if user_id != me.user.id {
        return Err(ApiError::forbidden(MSG_ONLY_YOURSELF));
    }
    let body = body.into_inner();
    if body.new_categories.len() > MAX_NEW_AT_ONCE {
        return Err(ApiError::bad_request(format!(
            "At most {MAX_NEW_AT_ONCE} new categories at once"
        )));
    }
    let mut ids: Vec<ObjectId> = Vec::new();
    for raw in &body.category_ids {
        let id = object_id(
            raw,
            &format!("category id '{}'", raw.chars().take(40).collect::<String>()),
        )?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let new: Vec<CategoryInput> = body
        .new_categories
        .into_iter()
        .map(|c| CategoryInput {
            name: c.name,
            slug: c.slug,
            description: c.description,
        })
        .collect();
    let answer = categories::assign(&state, &me, ids, &new).await?;
    Ok(HttpResponse::Ok().json(answer))
}
