//! The request extractors of the signed-in user (`AuthUser`, `MaybeUser`, `AdminUser`, defined in
//! `crate::auth`): they read the application state from the app data, so they live above
//! `crate::state` while `crate::auth` stays below it.

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;

use crate::auth::{
    authenticate_with, require_admin_two_factor, token_from_request, AdminUser, AuthUser,
    MaybeUser, MSG_ADMIN_ONLY, MSG_NOT_SIGNED_IN,
};
use crate::domain::api_keys::looks_like_key;
use crate::error::ApiError;
use crate::services::api_keys::{self, KeyScopes};
use crate::state::AppState;

fn state_of(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("application state missing")))
}

/// What a key's authentication needs of the request: the route's scopes, method and pattern.
struct KeyContext {
    scopes: Option<web::Data<KeyScopes>>,
    method: String,
    pattern: Option<String>,
}

impl KeyContext {
    fn of(req: &HttpRequest) -> KeyContext {
        KeyContext {
            scopes: req.app_data::<web::Data<KeyScopes>>().cloned(),
            method: req.method().to_string(),
            pattern: req.match_pattern(),
        }
    }
}

/// A session token or a personal API key (`pr_live_…`), authenticated.
async fn authenticate(
    state: &AppState,
    token: &str,
    key: &KeyContext,
) -> Result<AuthUser, ApiError> {
    if looks_like_key(token) {
        api_keys::authenticate(
            state,
            key.scopes.as_ref().map(|s| s.get_ref()),
            token,
            &key.method,
            key.pattern.as_deref(),
        )
        .await
    } else {
        authenticate_with(&state.db, &state.tokens, token).await
    }
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = state_of(req);
        let token = token_from_request(req);
        let key = KeyContext::of(req);
        Box::pin(async move {
            let state = state?;
            let token = token.ok_or_else(|| ApiError::unauthorized(MSG_NOT_SIGNED_IN))?;
            authenticate(&state, &token, &key).await
        })
    }
}

impl FromRequest for MaybeUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = state_of(req);
        let token = token_from_request(req);
        let key = KeyContext::of(req);
        Box::pin(async move {
            let state = state?;
            let Some(token) = token else {
                return Ok(MaybeUser(None));
            };
            match authenticate(&state, &token, &key).await {
                Ok(user) => Ok(MaybeUser(Some(user))),
                // The site's public content key: a guest.
                Err(ApiError::Unauthorized {
                    code: api_keys::CONTENT_KEY_GUEST,
                    ..
                }) => Ok(MaybeUser(None)),
                // A stale session reads as a guest; a bad key is said to be one.
                Err(ApiError::Unauthorized { .. }) if !looks_like_key(&token) => {
                    Ok(MaybeUser(None))
                }
                Err(other) => Err(other),
            }
        })
    }
}

impl FromRequest for AdminUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let state = state_of(req);
        let user = AuthUser::from_request(req, payload);
        Box::pin(async move {
            let user = user.await?;
            if !user.is_admin() {
                return Err(ApiError::forbidden(MSG_ADMIN_ONLY));
            }
            let state = state?;
            require_admin_two_factor(&state.db, &user).await?;
            Ok(AdminUser(user))
        })
    }
}
