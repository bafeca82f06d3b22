//! `POST /api/category/users/{userId}/categories` {categoryIds, newCategories} → {categories}:
//! replaces the caller's selection with the given categories plus any new ones it creates (the
//! caller becomes their creator). Only for yourself: another user's id is a 403.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;

use super::user_selected::selected;
use super::{parse_description, parse_name, slug_or_from_name, CategoriesAnswer};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::categories::{self, NewCategory};
use crate::persistence::DbError;
use crate::state::AppState;

pub const MAX_SELECTED: usize = 100;
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
    let found = categories::find_many(&state.db, &ids).await?;
    if let Some(missing) = ids.iter().find(|id| !found.iter().any(|c| c.id == **id)) {
        return Err(ApiError::bad_request(format!(
            "Category {} does not exist",
            missing.to_hex()
        )));
    }
    // Validate every new category before creating any.
    let mut new = Vec::with_capacity(body.new_categories.len());
    for c in &body.new_categories {
        let name = parse_name(&c.name)?;
        let slug = slug_or_from_name(c.slug.as_deref(), &name)?;
        let description = parse_description(c.description.as_deref())?;
        new.push(NewCategory {
            name,
            slug: slug.into_string(),
            description,
            created_by: Some(me.user.id),
        });
    }
    for n in new {
        let slug = n.slug.clone();
        let id = match categories::create(&state.db, n).await {
            Ok(c) => c.id,
            // A category with that slug exists already: select it instead.
            Err(DbError::Duplicate(what)) => categories::find_by_slug(&state.db, &slug)
                .await?
                .map(|c| c.id)
                .ok_or_else(|| ApiError::conflict(format!("{what} already exists")))?,
            Err(e) => return Err(e.into()),
        };
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if ids.len() > MAX_SELECTED {
        return Err(ApiError::bad_request(format!(
            "At most {MAX_SELECTED} categories can be selected"
        )));
    }
    categories::replace_selection(&state.db, me.user.id, &ids).await?;
    let list = selected(&state.db, me.user.id).await?;
    Ok(HttpResponse::Ok().json(CategoriesAnswer::of(&list)))
}
