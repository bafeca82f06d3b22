//! `POST /api/payment/webhook`: the payment provider's events. The `Stripe-Signature` header must
//! be a valid HMAC-SHA256 of the raw body with `payments.stripe_webhook_secret`, made within
//! `payments.webhook_tolerance_seconds` (5 minutes); otherwise 400 and nothing changes. Each
//! event id is processed once → `{received: true, status: processed | ignored | duplicate}`; a
//! delivery of an event another delivery is still processing → 409, so the provider retries it.

use actix_web::{web, HttpRequest, HttpResponse};
use secrecy::ExposeSecret;
use serde::Serialize;
use serde_json::Value;

use crate::error::{ApiError, ApiResult};
use crate::extract::parse_json;
use crate::payments::signature::verify;
use crate::services::billing::webhook::handle;
use crate::state::AppState;

pub const MSG_NOT_CONFIGURED: &str = "Webhooks are not configured on this server";

/// `{received: true, status}`: the event was taken in; `status` says what became of it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct WebhookAnswer {
    pub received: bool,
    /// `processed`, `ignored` or `duplicate`.
    pub status: String,
}

#[tracing::instrument(skip_all)]
pub async fn webhook(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let secret = state
        .settings
        .payments
        .stripe_webhook_secret
        .expose_secret();
    if secret.is_empty() {
        return Err(ApiError::invalid(
            "webhook_not_configured",
            MSG_NOT_CONFIGURED,
        ));
    }
    let header = req
        .headers()
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok());
    verify(
        header,
        &body,
        secret,
        chrono::Utc::now().timestamp(),
        state.settings.payments.webhook_tolerance_seconds,
    )
    .map_err(|e| ApiError::invalid("invalid_signature", e.to_string()))?;
    let event: Value = parse_json(&body)?;
    let handled = handle(&state, &event).await?;
    Ok(HttpResponse::Ok().json(WebhookAnswer {
        received: true,
        status: handled.as_str().to_string(),
    }))
}
