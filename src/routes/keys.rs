//! Personal API keys (`services::api_keys`): `POST /api/keys` {name, scopes, expiresInDays} →
//! 201 with the key shown once (a fresh step-up first); `GET /api/keys`; `DELETE /api/keys/{id}`;
//! `GET /api/keys/scopes`. No key can manage keys: these routes need a session.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::domain::api_keys::SCOPES;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::api_keys::{self, KeyView, NewKey};
use crate::services::reauth::require_recent;
use crate::state::AppState;

/// `{name, scopes, expiresInDays}`: `expiresInDays` from 30 to 365, or null for no expiry.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateKeyBody {
    name: String,
    scopes: Vec<String>,
    #[serde(default)]
    expires_in_days: Option<i64>,
}

/// The new key's view and `key`, the only time it is shown.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedKey {
    #[serde(flatten)]
    view: KeyView,
    /// The key itself: shown this once, stored only as a hash.
    key: String,
}

/// `{keys}`, newest first (live keys only).
#[derive(Serialize, utoipa::ToSchema)]
pub struct KeysAnswer {
    keys: Vec<KeyView>,
}

/// One scope a key can hold.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScopeView {
    scope: &'static str,
    allows: &'static str,
    admin_only: bool,
}

/// `{scopes}`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ScopesAnswer {
    scopes: Vec<ScopeView>,
}

pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<CreateKeyBody>,
) -> ApiResult<HttpResponse> {
    require_recent(&state, &me).await?;
    let body = body.into_inner();
    let created = api_keys::create(
        &state,
        &me.user,
        NewKey {
            name: body.name,
            scopes: body.scopes,
            expires_in_days: body.expires_in_days,
        },
    )
    .await?;
    let target = Target::new(
        "api_key",
        created.view.id.clone(),
        created.view.prefix.clone(),
    );
    let details = json!({ "name": created.view.name, "scopes": created.view.scopes });
    audit::record_by(&state, &me.user, Action::ApiKeyCreate, target, details).await;
    Ok(HttpResponse::Created().json(CreatedKey {
        view: created.view,
        key: created.key,
    }))
}

pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let keys = api_keys::list(&state, &me.user).await?;
    Ok(HttpResponse::Ok().json(KeysAnswer { keys }))
}

pub async fn revoke(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "key id")?;
    let key = api_keys::revoke(&state, &me.user, id).await?;
    let target = Target::new("api_key", key.id.to_hex(), key.prefix.clone());
    audit::record_by(
        &state,
        &me.user,
        Action::ApiKeyRevoke,
        target,
        json!({ "name": key.name }),
    )
    .await;
    Ok(
        HttpResponse::Ok().json(crate::routes::answers::MessageAnswer::new(
            "API key revoked. It stops working at once.",
        )),
    )
}

pub async fn scopes(me: AuthUser) -> ApiResult<HttpResponse> {
    let admin = me.is_admin();
    let scopes = SCOPES
        .iter()
        .filter(|s| admin || !s.admin)
        .map(|s| ScopeView {
            scope: s.name,
            allows: s.allows,
            admin_only: s.admin,
        })
        .collect();
    Ok(HttpResponse::Ok().json(ScopesAnswer { scopes }))
}
