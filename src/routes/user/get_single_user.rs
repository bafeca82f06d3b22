//! `GET /api/user/get-single-user/{id}` → {data}: a public profile.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::PublicUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::object_id;
use crate::persistence::users;
use crate::state::AppState;

pub const MSG_USER_NOT_FOUND: &str = "User not found";

#[tracing::instrument(skip(state))]
pub async fn get_single_user(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "user id")?;
    let user = users::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    Ok(HttpResponse::Ok().json(json!({ "data": PublicUser::from(&user) })))
}
