//! `PATCH /api/subscription/subscriptions/{id}/refund {reason, bankDetails}` (the subscriber or
//! an administrator, within `payments.refund_window_days` of the charge) → `{message:
//! 'Subscription refunded successfully', subscription, refund}`. The provider refunds the latest
//! charge to the payment method it came from, access ends at once and the author's earnings are
//! debited. `bankDetails` is accepted for the client's sake but not stored: card refunds go back
//! to the card.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{load_own_subscription, subscription_view_of, SubscriptionView};
use crate::audit::record_for_other;
use crate::audit::{Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, FieldValue, Refusal, Sent};
use crate::post_view::iso;
use crate::services::billing::{lifecycle, mode};
use crate::state::AppState;

pub const MSG_REFUNDED: &str = "Subscription refunded successfully";
pub const MSG_REASON_REQUIRED: &str = "A reason for the refund is required";
pub const MAX_REASON_LEN: usize = 1000;

/// `{reason, bankDetails?}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefundBody {
    /// Why the subscriber wants their money back (at most 1000 characters).
    #[serde(default)]
    #[schema(value_type = String, max_length = 1000, required = true)]
    pub reason: Sent<RefundReason>,
    /// Accepted for the client's sake and not stored (card refunds go back to the card).
    #[serde(default)]
    #[schema(schema_with = object_or_text)]
    pub bank_details: Sent<RefundBankDetails>,
}

crate::text_field! {
    /// `reason` of a refund (its length is checked by [`RefundBody::validate`], after the
    /// type of `bankDetails`).
    RefundReason = "reason";
}

/// `bankDetails` of a refund: an object or a text, not kept.
#[derive(Debug, Clone, PartialEq)]
pub struct RefundBankDetails;

impl FieldValue for RefundBankDetails {
    fn read(value: Value) -> Result<Self, Refusal> {
        match value {
            Value::Object(_) | Value::String(_) => Ok(RefundBankDetails),
            _ => Err(Refusal::new("bankDetails must be an object or a text")),
        }
    }
}
crate::field_value!(RefundBankDetails);

impl RefundBody {
    /// The reason, checked in the documented order: the type of each field, then the reason's
    /// presence and length.
    pub fn validate(&self) -> ApiResult<String> {
        let reason = self.reason.value()?;
        self.bank_details.value()?;
        let reason = reason.ok_or_else(|| ApiError::bad_request(MSG_REASON_REQUIRED))?;
        if reason.0.chars().count() > MAX_REASON_LEN {
            return Err(ApiError::bad_request(format!(
                "reason must be at most {MAX_REASON_LEN} characters"
            )));
        }
        Ok(reason.0.clone())
    }
}

/// `bankDetails` of a refund: an object or a text.
fn object_or_text() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Object))
        .item(ObjectBuilder::new().schema_type(Type::String))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .build()
        .into()
}

/// `{message, subscription, refund, mode}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RefundAnswer {
    pub message: String,
    pub subscription: SubscriptionView,
    pub refund: RefundView,
    pub mode: String,
}

/// A refund as its subscriber sees it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundView {
    #[serde(rename = "_id")]
    pub id: String,
    /// In the currency's smallest unit.
    pub amount: i64,
    pub currency: String,
    pub status: String,
    pub reason: String,
    pub created_at: String,
    pub mode: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn refund(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
    body: Body<RefundBody>,
) -> ApiResult<HttpResponse> {
    crate::services::reauth::require_recent(&state, &me).await?;
    let reason = body.read()?.validate()?;
    let sub = load_own_subscription(&state.db, &path, &me).await?;
    let (sub, refund) = lifecycle::refund(&state, &sub, me.user.id, &reason, true).await?;
    let target = Target::new("subscription", sub.id.to_hex(), sub.plan_name.clone());
    let details = json!({ "reason": reason, "amount": refund.amount, "currency": refund.currency });
    record_for_other(
        &state,
        &me,
        sub.subscriber_id,
        Action::SubscriptionRefund,
        target,
        details,
    )
    .await;
    Ok(HttpResponse::Ok().json(RefundAnswer {
        message: MSG_REFUNDED.to_string(),
        subscription: subscription_view_of(&state.db, &sub).await?,
        refund: RefundView {
            id: refund.id.to_hex(),
            amount: refund.amount,
            currency: refund.currency,
            status: refund.status,
            reason: refund.reason,
            created_at: iso(refund.created_at),
            mode: refund.mode,
        },
        mode: mode(&state).to_string(),
    }))
}
