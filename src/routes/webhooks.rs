//! Webhook endpoints (`services::webhooks`): `POST /api/webhooks` {url, events, description,
//! site} → 201 with the secret shown once; `GET /api/webhooks`; `PATCH`/`DELETE
//! /api/webhooks/{id}`; `POST /api/webhooks/{id}/test`; `POST /api/webhooks/{id}/rotate-secret`;
//! `GET /api/webhooks/{id}/deliveries`; `POST /api/webhooks/deliveries/{id}/resend`;
//! `GET /api/webhooks/event-types`.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::webhooks::EVENT_TYPES;
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::services::webhooks::{self, DeliveryView, EndpointInput, EndpointView};
use crate::state::AppState;

/// `{url, events, description, site}`: `site` (administrators) receives every writer's events.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateWebhookBody {
    url: String,
    events: Vec<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    site: bool,
}

/// Any of `{url, events, description}`; `disabled: true` turns the endpoint off, `false` back on.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateWebhookBody {
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    events: Option<Vec<String>>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    disabled: Option<bool>,
}

/// The endpoint and its `secret` (`whsec_…`), shown this once.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CreatedWebhook {
    #[serde(flatten)]
    endpoint: EndpointView,
    secret: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct WebhooksAnswer {
    webhooks: Vec<EndpointView>,
}

/// `{secret}`: the new secret; the old one signs too for 24 hours.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SecretAnswer {
    secret: String,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct DeliveriesAnswer {
    deliveries: Vec<DeliveryView>,
}

/// `{message, deliveryId}`: queued for the worker.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueuedAnswer {
    message: &'static str,
    delivery_id: String,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventTypeView {
    name: &'static str,
    about: &'static str,
    admin_only: bool,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventTypesAnswer {
    event_types: Vec<EventTypeView>,
}

pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<CreateWebhookBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let input = EndpointInput {
        url: Some(body.url),
        events: Some(body.events),
        description: body.description,
    };
    let (endpoint, secret) = webhooks::create(&state, &me.user, body.site, input).await?;
    Ok(HttpResponse::Created().json(CreatedWebhook {
        endpoint: EndpointView::from(&endpoint),
        secret,
    }))
}

pub async fn list(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let webhooks = webhooks::list(&state, &me.user).await?;
    Ok(HttpResponse::Ok().json(WebhooksAnswer { webhooks }))
}

pub async fn update(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
    body: ApiJson<UpdateWebhookBody>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "webhook id")?;
    let body = body.into_inner();
    let input = EndpointInput {
        url: body.url,
        events: body.events,
        description: body.description,
    };
    let view = webhooks::update(&state, &me.user, id, input, body.disabled).await?;
    Ok(HttpResponse::Ok().json(view))
}

pub async fn remove(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "webhook id")?;
    webhooks::remove(&state, &me.user, id).await?;
    Ok(
        HttpResponse::Ok().json(crate::routes::answers::MessageAnswer::new(
            "Webhook endpoint removed.",
        )),
    )
}

pub async fn test(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "webhook id")?;
    let d = webhooks::send_test(&state, &me.user, id).await?;
    Ok(HttpResponse::Accepted().json(QueuedAnswer {
        message: "Test event queued.",
        delivery_id: d.id.to_hex(),
    }))
}

pub async fn rotate(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "webhook id")?;
    let secret = webhooks::rotate(&state, &me.user, id).await?;
    Ok(HttpResponse::Ok().json(SecretAnswer { secret }))
}

pub async fn deliveries(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "webhook id")?;
    let deliveries = webhooks::deliveries(&state, &me.user, id).await?;
    Ok(HttpResponse::Ok().json(DeliveriesAnswer { deliveries }))
}

pub async fn resend(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "delivery id")?;
    let d = webhooks::resend(&state, &me.user, id).await?;
    Ok(HttpResponse::Accepted().json(QueuedAnswer {
        message: "Delivery queued again.",
        delivery_id: d.id.to_hex(),
    }))
}

pub async fn event_types(me: AuthUser) -> ApiResult<HttpResponse> {
    let admin = me.is_admin();
    let event_types = EVENT_TYPES
        .iter()
        .filter(|e| admin || !e.admin)
        .map(|e| EventTypeView {
            name: e.name,
            about: e.about,
            admin_only: e.admin,
        })
        .collect();
    Ok(HttpResponse::Ok().json(EventTypesAnswer { event_types }))
}
