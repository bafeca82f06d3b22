//! `DELETE /api/category/{id}` → {message}: the creator or an administrator (others 403). The
//! category leaves every user's selection and the posts filed under it keep no category.

use actix_web::{web, HttpResponse};

use super::{may_manage, MSG_CATEGORY_NOT_FOUND, MSG_NOT_CATEGORY_OWNER};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{categories, posts};
use crate::state::AppState;

pub const MSG_CATEGORY_DELETED: &str = "Category deleted successfully";

/// `{message, _id}`: which category was removed.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct CategoryDeletedAnswer {
    message: &'static str,
    #[serde(rename = "_id")]
    id: String,
}

#[tracing::instrument(skip(state, me))]
pub async fn delete(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "category id")?;
    let existing = categories::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_CATEGORY_NOT_FOUND))?;
    if !may_manage(&existing, &me) {
        return Err(ApiError::forbidden(MSG_NOT_CATEGORY_OWNER));
    }
    if !categories::delete(&state.db, id).await? {
        return Err(ApiError::not_found(MSG_CATEGORY_NOT_FOUND));
    }
    posts::clear_category(&state.db, id).await?;
    Ok(HttpResponse::Ok().json(CategoryDeletedAnswer {
        message: MSG_CATEGORY_DELETED,
        id: id.to_hex(),
    }))
}
