//! `DELETE /api/user/delete-user` {userId} (seed 000) and `DELETE /api/admin/users/{id}`
//! (seed 001), administrators only → {message, userId, removed}: removes an account with its
//! posts, comments and every record of theirs (see `crate::services::accounts`). An administrator is
//! demoted first, under the last-administrator rule.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};

use super::user_id;
use crate::auth::{AdminUser, AuthUser};
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::accounts::Removal;
use crate::services::admin_users;
use crate::state::AppState;

pub const MSG_DELETED: &str = "User deleted successfully";
pub const MSG_NOT_YOURSELF: &str = "You cannot delete your own account";
pub const MSG_USER_ID_REQUIRED: &str = "userId is required";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteUserBody {
    #[serde(default)]
    user_id: Option<String>,
}

/// `{message, userId, removed}`: the account is gone, with what it took with it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserDeleted {
    pub message: String,
    pub user_id: String,
    pub removed: Removal,
}

/// `DELETE /api/admin/users/{id}`.
#[tracing::instrument(skip(state, admin), fields(admin = %admin.0.id_hex()))]
pub async fn delete_by_path(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    delete_user(&state, &admin.0, user_id(&id)?).await
}

/// `DELETE /api/user/delete-user` {userId}.
#[tracing::instrument(skip(state, admin, body), fields(admin = %admin.0.id_hex()))]
pub async fn delete_by_body(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: ApiJson<DeleteUserBody>,
) -> ApiResult<HttpResponse> {
    let raw = body
        .into_inner()
        .user_id
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| ApiError::bad_request(MSG_USER_ID_REQUIRED))?;
    delete_user(&state, &admin.0, user_id(&raw)?).await
}

async fn delete_user(
    state: &web::Data<AppState>,
    admin: &AuthUser,
    id: ObjectId,
) -> ApiResult<HttpResponse> {
    let removed = admin_users::delete(state, admin, id, MSG_NOT_YOURSELF).await?;
    Ok(HttpResponse::Ok().json(UserDeleted {
        message: MSG_DELETED.to_string(),
        user_id: id.to_hex(),
        removed,
    }))
}
