//! `GET /api/auth/check` → {_id, name, email, role, token, isAccountVerified}.

use actix_web::HttpResponse;
use serde::Serialize;

use crate::auth::{token_from_request, AuthUser};
use crate::error::ApiResult;

/// The answer: who the session belongs to.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckBody {
    #[serde(rename = "_id")]
    id: String,
    name: String,
    email: String,
    role: &'static str,
    token: String,
    is_account_verified: bool,
}

#[tracing::instrument(skip_all)]
pub async fn check(req: actix_web::HttpRequest, me: AuthUser) -> ApiResult<HttpResponse> {
    let token = token_from_request(&req).unwrap_or_default();
    Ok(HttpResponse::Ok().json(CheckBody {
        id: me.id_hex(),
        name: me.user.name.clone(),
        email: me.user.email.clone(),
        role: me.user.role.as_str(),
        token,
        is_account_verified: me.user.is_account_verified,
    }))
}
