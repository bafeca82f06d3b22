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
use crate::error::ApiError;
use crate::state::AppState;

fn state_of(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("application state missing")))
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = state_of(req);
        let token = token_from_request(req);
        Box::pin(async move {
            let state = state?;
            let token = token.ok_or_else(|| ApiError::unauthorized(MSG_NOT_SIGNED_IN))?;
            authenticate_with(&state.db, &state.tokens, &token).await
        })
    }
}

impl FromRequest for MaybeUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = state_of(req);
        let token = token_from_request(req);
        Box::pin(async move {
            let state = state?;
            let Some(token) = token else {
                return Ok(MaybeUser(None));
            };
            match authenticate_with(&state.db, &state.tokens, &token).await {
                Ok(user) => Ok(MaybeUser(Some(user))),
                Err(ApiError::Unauthorized { .. }) => Ok(MaybeUser(None)),
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
