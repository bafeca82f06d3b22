//! `GET /api/user/get-user` → {data}: the signed-in user's own account.

use actix_web::HttpResponse;
use serde_json::json;

use super::OwnUser;
use crate::auth::AuthUser;
use crate::error::ApiResult;

#[tracing::instrument(skip_all)]
pub async fn get_user(me: AuthUser) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(json!({ "data": OwnUser::from(&me.user) })))
}
