//! `GET /api/user/get-user` → {data}: the signed-in user's own account.

use actix_web::HttpResponse;

use super::OwnUserAnswer;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::people::OwnUser;

#[tracing::instrument(skip_all)]
pub async fn get_user(me: AuthUser) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(OwnUserAnswer {
        data: OwnUser::from(&me.user),
    }))
}
