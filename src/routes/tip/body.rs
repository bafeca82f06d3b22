//! The body of `POST /api/tips` (`{postId, amount, currency, message?, public?,
//! paymentMethodId?}`) and its optional `Idempotency-Key` header, checked.

use actix_web::HttpRequest;
use serde::Deserialize;
use serde_json::Value;

use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{FieldValue, PaymentMethodId, Refusal, Sent};
use crate::services::billing::tips::{TipRequest, MAX_MESSAGE_CHARS};

pub const MSG_MISSING_POST: &str = "postId is required";
pub const MSG_MISSING_AMOUNT: &str = "amount is required";
pub const MSG_MISSING_CURRENCY: &str = "currency is required";
pub const MSG_BAD_KEY: &str = "Idempotency-Key must be 1 to 255 visible characters";

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
