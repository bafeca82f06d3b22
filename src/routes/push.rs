//! Web Push (`services::push`): `GET /api/push/vapid-public-key` → `{publicKey}`; `POST
//! /api/push/subscriptions` (the browser's `PushSubscription` JSON and a `label`) → 201 the
//! device; `GET /api/push/subscriptions` → `{subscriptions}`; `DELETE
//! /api/push/subscriptions/{id}`; `GET`/`PUT /api/push/preferences` → `{preferences}`.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::push::PushPreferences;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::routes::answers::MessageAnswer;
use crate::services::push::{self, DeviceView, PreferencesInput, SubscriptionInput};
use crate::state::AppState;

/// `{publicKey}`: base64url of the uncompressed P-256 point browsers subscribe with.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicKeyAnswer {
    public_key: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct DevicesAnswer {
    subscriptions: Vec<DeviceView>,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct PreferencesAnswer {
    preferences: PushPreferences,
}

pub async fn public_key(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let public_key = push::public_key(&state).await?;
    Ok(HttpResponse::Ok().json(PublicKeyAnswer { public_key }))
}

pub async fn subscribe(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<SubscriptionInput>,
) -> ApiResult<HttpResponse> {
    let (device, _) = push::subscribe(&state, &me.user, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(device))
}

pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let subscriptions = push::list(&state, &me.user).await?;
    Ok(HttpResponse::Ok().json(DevicesAnswer { subscriptions }))
}

pub async fn remove(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "device id")?;
    push::remove(&state, &me.user, id).await?;
    Ok(HttpResponse::Ok().json(MessageAnswer::new(push::MSG_DEVICE_REMOVED)))
}

pub async fn preferences(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let preferences = push::preferences(&state, &me.user).await?;
    Ok(HttpResponse::Ok().json(PreferencesAnswer { preferences }))
}

pub async fn save_preferences(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<PreferencesInput>,
) -> ApiResult<HttpResponse> {
    let preferences = push::save_preferences(&state, &me.user, body.into_inner()).await?;
    Ok(HttpResponse::Ok().json(PreferencesAnswer { preferences }))
}
