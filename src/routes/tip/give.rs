//! `POST /api/tips {postId, amount, currency, message?, public?, paymentMethodId?}` with an
//! optional `Idempotency-Key` header: 201 `{message: 'Thank you for your tip', tip, payment,
//! mode}` once paid, 202 when the reader must confirm the payment in the browser (with
//! `payment.clientSecret`), 200 with the same tip when an earlier request made it.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::TipView;
use crate::auth::AuthUser;
use crate::billing::mode;
use crate::billing::tip_admin::with_names;
use crate::billing::tips::{give as give_tip, TipRequest, MAX_MESSAGE_CHARS, MSG_THANKS};
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, FieldValue, PaymentMethodId, Refusal, Sent};
use crate::persistence::tips::TipStatus;
use crate::state::AppState;

pub const MSG_MISSING_POST: &str = "postId is required";
pub const MSG_MISSING_AMOUNT: &str = "amount is required";
pub const MSG_MISSING_CURRENCY: &str = "currency is required";
pub const MSG_BAD_KEY: &str = "Idempotency-Key must be 1 to 255 visible characters";
pub const MSG_CONFIRMATION_NEEDED: &str = "Please confirm the payment to complete your tip";

crate::text_field! {
    /// `postId` as sent.
    PostIdText = "postId";
    /// `currency` as sent.
    CurrencyText = "currency";
    /// `message` as sent (its length is checked by [`TipBody::validate`]).
    MessageText = "message";
}
crate::flag_field! {
    /// `public`: whether the reader appears on the supporters list.
    PublicFlag = "public";
}

/// A tip's amount: a whole number of the currency's smallest unit (a JSON integer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TipAmount(pub i64);

impl FieldValue for TipAmount {
    fn read(value: Value) -> Result<Self, Refusal> {
        value.as_i64().map(TipAmount).ok_or_else(|| {
            Refusal::new(
                "amount must be a whole number of the currency's smallest unit (for example 500 for 5.00)",
            )
        })
    }
}
crate::field_value!(TipAmount);

/// `{postId, amount, currency, message?, public?, paymentMethodId?}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TipBody {
    /// The post the tip is for.
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub post_id: Sent<PostIdText>,
    /// In the currency's smallest unit (500 for 5.00), from the currency's minimum charge to
    /// `payments.tip_max_amount`.
    #[serde(default)]
    #[schema(value_type = i64, required = true, minimum = 1)]
    pub amount: Sent<TipAmount>,
    /// The writer's tip currency (lowercase ISO 4217).
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub currency: Sent<CurrencyText>,
    /// A short public message (at most 280 characters).
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 280)]
    pub message: Sent<MessageText>,
    /// Whether the reader's name and message appear on the post's supporters list.
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    pub public: Sent<PublicFlag>,
    /// A saved payment method of the provider (`pm_...`), as for subscribing.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 100, pattern = "^pm_[A-Za-z0-9_]+$")]
    pub payment_method_id: Sent<PaymentMethodId>,
}

impl TipBody {
    /// The request, its fields checked in order: types, then presence, then the message's length.
    pub fn validate(&self, client_key: Option<String>) -> ApiResult<TipRequest> {
        let post = self.post_id.value()?;
        let amount = self.amount.value()?;
        let currency = self.currency.value()?;
        let message = self.message.value()?;
        let public = self.public.value()?;
        let method = self.payment_method_id.value()?;
        let post = post.ok_or_else(|| ApiError::bad_request(MSG_MISSING_POST))?;
        let post_id = object_id(&post.0, "postId")?;
        let amount = amount.ok_or_else(|| ApiError::bad_request(MSG_MISSING_AMOUNT))?;
        let currency = currency.ok_or_else(|| ApiError::bad_request(MSG_MISSING_CURRENCY))?;
        let message = message.map(|m| m.0.clone());
        if message
            .as_ref()
            .is_some_and(|m| m.chars().count() > MAX_MESSAGE_CHARS)
        {
            return Err(ApiError::bad_request(format!(
                "message must be at most {MAX_MESSAGE_CHARS} characters"
            )));
        }
        Ok(TipRequest {
            post_id,
            amount: amount.0,
            currency: currency.0.to_lowercase(),
            message,
            public: public.is_some_and(|p| p.0),
            payment_method: method.map(|m| m.0.clone()),
            client_key,
        })
    }
}

/// The `Idempotency-Key` header: 1 to 255 visible ASCII characters.
pub fn client_key(req: &HttpRequest) -> ApiResult<Option<String>> {
    let Some(raw) = req.headers().get("idempotency-key") else {
        return Ok(None);
    };
    let key = raw
        .to_str()
        .map_err(|_| ApiError::bad_request(MSG_BAD_KEY))?
        .trim();
    if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ApiError::bad_request(MSG_BAD_KEY));
    }
    Ok(Some(key.to_string()))
}

/// The payment of a tip.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipPayment {
    /// The secret the browser confirms a waiting payment with (null once paid).
    pub client_secret: Option<String>,
}

/// `{message, tip, payment, mode}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TipAnswer {
    pub message: String,
    pub tip: TipView,
    pub payment: TipPayment,
    pub mode: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn give(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    body: Body<TipBody>,
) -> ApiResult<HttpResponse> {
    let key = client_key(&req)?;
    let request = body.read()?.validate(key)?;
    let given = give_tip(&state, &me.user, request).await?;
    let pending = given.tip.status == TipStatus::Pending;
    let listed = with_names(&state, vec![given.tip]).await?;
    let answer = TipAnswer {
        message: if pending {
            MSG_CONFIRMATION_NEEDED
        } else {
            MSG_THANKS
        }
        .to_string(),
        tip: TipView::of(&listed[0]),
        payment: TipPayment {
            client_secret: given.client_secret,
        },
        mode: mode(&state).to_string(),
    };
    Ok(if pending {
        HttpResponse::Accepted().json(answer)
    } else if given.replayed {
        HttpResponse::Ok().json(answer)
    } else {
        HttpResponse::Created().json(answer)
    })
}
