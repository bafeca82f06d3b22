//! `POST /api/subscription/subscribe {planId, paymentMethodId?}` with a bearer token: charges
//! the first period through the provider and answers 201 `{message: 'Subscribed successfully',
//! subscription, payment, mode}`; when the reader must confirm the payment in the browser (the
//! `stripe` provider without a saved method) 202 with `payment.clientSecret`. Without a token:
//! 401 'Missing authentication token'; without a plan id: 400 'Missing plan ID'.

use std::collections::HashMap;

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};

use super::{load_plan, subscription_view, SubscriptionView};
use crate::auth::{authenticate_with, token_from_request};
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, PaymentMethodId, Sent};
use crate::services::billing::subscribe::{Payment, PaymentStatus};
use crate::services::billing::{mode, subscribe::subscribe as subscribe_to};
use crate::state::AppState;

pub const MSG_MISSING_TOKEN: &str = "Missing authentication token";
pub const MSG_MISSING_PLAN_ID: &str = "Missing plan ID";
pub const MSG_SUBSCRIBED: &str = "Subscribed successfully";
pub const MSG_CONFIRMATION_NEEDED: &str =
    "Please confirm the payment to complete your subscription";

/// `{planId, paymentMethodId?, authorId?}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubscribeBody {
    /// The plan to subscribe to.
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub plan_id: Sent<PlanIdText>,
    /// A saved payment method of the provider (`pm_...`); without it the `stripe` provider asks
    /// the reader to confirm the payment in the browser.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 100, pattern = "^pm_[A-Za-z0-9_]+$")]
    pub payment_method_id: Sent<PaymentMethodId>,
    /// The plan's author, as the client believes it (refused when it is someone else).
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub author_id: Sent<AuthorIdText>,
}

crate::text_field! {
    /// `planId` as sent (looked up by [`load_plan`], which names a bad one).
    PlanIdText = "planId";
    /// `authorId` as sent (compared with the plan's author).
    AuthorIdText = "authorId";
}

/// The checked fields of a [`SubscribeBody`].
pub struct SubscribeRequest {
    pub plan_id: String,
    pub method: Option<String>,
    pub author: Option<String>,
}

impl SubscribeBody {
    /// The fields in the order they are checked: the types first, then the plan id's presence.
    pub fn validate(&self) -> ApiResult<SubscribeRequest> {
        let plan_id = self.plan_id.value()?;
        let method = self.payment_method_id.value()?;
        let author = self.author_id.value()?;
        let plan_id = plan_id.ok_or_else(|| ApiError::bad_request(MSG_MISSING_PLAN_ID))?;
        Ok(SubscribeRequest {
            plan_id: plan_id.0.clone(),
            method: method.map(|m| m.0.clone()),
            author: author.map(|a| a.0.clone()),
        })
    }
}

/// `{message, subscription, payment, mode}`: 201 when the first period is paid, 202 when the
/// reader must still confirm the payment (with `payment.clientSecret`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SubscribeAnswer {
    pub message: String,
    pub subscription: SubscriptionView,
    pub payment: PaymentView,
    pub mode: String,
}

/// The first payment of a subscription.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentView {
    #[serde(rename = "_id")]
    pub id: String,
    pub status: PaymentStatus,
    /// In the currency's smallest unit.
    pub amount: i64,
    pub currency: String,
    /// The secret the browser confirms a pending payment with (null once paid).
    pub client_secret: Option<String>,
    pub mode: String,
}

impl PaymentView {
    fn of(p: &Payment, client_secret: Option<String>) -> Self {
        PaymentView {
            id: p.id.to_hex(),
            status: p.status,
            amount: p.amount,
            currency: p.currency.clone(),
            client_secret,
            mode: p.mode.clone(),
        }
    }
}

#[tracing::instrument(skip_all)]
pub async fn subscribe(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let token =
        token_from_request(&req).ok_or_else(|| ApiError::unauthorized(MSG_MISSING_TOKEN))?;
    let me = authenticate_with(&state.db, &state.tokens, &token).await?;
    let SubscribeRequest {
        plan_id,
        method,
        author,
    } = Body::<SubscribeBody>::from_bytes(&body)?.validate()?;
    let plan = load_plan(&state.db, &plan_id).await?;
    if let Some(author) = author {
        if author != plan.author_id.to_hex() {
            return Err(ApiError::bad_request(
                "authorId does not match the plan's author",
            ));
        }
    }
    let done = subscribe_to(&state, &me.user, &plan, method).await?;
    let pending = done.payment.status == PaymentStatus::Pending;
    let names = HashMap::from([(me.user.id, me.user.name.clone())]);
    let body = SubscribeAnswer {
        message: if pending {
            MSG_CONFIRMATION_NEEDED
        } else {
            MSG_SUBSCRIBED
        }
        .to_string(),
        subscription: subscription_view(&done.subscription, &names),
        payment: PaymentView::of(&done.payment, done.client_secret),
        mode: mode(&state).to_string(),
    };
    Ok(if pending {
        HttpResponse::Accepted().json(body)
    } else {
        HttpResponse::Created().json(body)
    })
}
