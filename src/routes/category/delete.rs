//! `DELETE /api/category/{id}` → {message}: the creator or an administrator (others 403). The
//! category leaves every user's selection and the posts filed under it keep no category.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::categories;
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
    categories::delete(&state, &me, id).await?;
    Ok(HttpResponse::Ok().json(CategoryDeletedAnswer {
        message: MSG_CATEGORY_DELETED,
        id: id.to_hex(),
    }))
}
