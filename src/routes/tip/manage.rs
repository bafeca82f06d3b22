//! What is done with a tip and around it: `GET /api/tips/options/{postId}` (whether the caller
//! may tip the post, and how), `GET`/`PUT /api/tips/settings` (the writer's currency and
//! suggested amounts), `PATCH /api/tips/{id} {hidden}` (the writer hides a supporter's message)
//! and `POST /api/tips/{id}/refund {reason}` (the reader within the refund window, or an
//! administrator; after a recent step-up, as subscription refunds).

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::audit::{record_for_other, Action, Target};
use crate::auth::{AuthUser, MaybeUser};
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::services::billing::mode;
use crate::services::billing::tip_admin::{save_settings, set_hidden, with_names};
use crate::services::billing::tip_refunds::{refund as refund_tip, MSG_TIP_REFUNDED};
use crate::services::billing::tip_view::TipView;
use crate::services::billing::tips::{
    author_of, bounds, refresh_eligibility, settings_for, target, MSG_SIGN_IN,
};
use crate::state::AppState;

/// `{enabled, reason, currency, suggestedAmounts, minimum, maximum, platformFeePercent, mode}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipOptions {
    /// Whether the caller may tip this post now.
    pub enabled: bool,
    /// Why not, when they may not.
    pub reason: Option<String>,
    pub currency: String,
    /// The writer's suggested amounts, in minor units.
    pub suggested_amounts: Vec<i64>,
    pub minimum: i64,
    pub maximum: i64,
    /// The platform's share of every payment, in percent (the writer receives the rest).
    pub platform_fee_percent: f64,
    pub mode: String,
}

#[tracing::instrument(skip_all)]
pub async fn options(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let post = object_id(&path, "post id")?;
    let me = viewer.0.as_ref().map(|m| &m.user);
    let (settings, refusal) = match target(&state, me, post).await {
        Ok(t) if me.is_none() => (t.settings, Some(MSG_SIGN_IN.to_string())),
        Ok(t) => (t.settings, None),
        // No such post (or not readable): the same 404 as tipping it.
        Err(e @ ApiError::NotFound(_)) => return Err(e),
        Err(e) => {
            let author = author_of(&state, post).await?;
            (settings_for(&state, author).await?, Some(e.to_string()))
        }
    };
    let (minimum, maximum) = bounds(&state, &settings.currency);
    Ok(HttpResponse::Ok().json(TipOptions {
        enabled: refusal.is_none(),
        reason: refusal,
        currency: settings.currency,
        suggested_amounts: settings.suggested_amounts,
        minimum,
        maximum,
        platform_fee_percent: state.settings.payments.platform_fee_percent,
        mode: mode(&state).to_string(),
    }))
}

/// A writer's tip settings: `{currency, suggestedAmounts}`.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TipSettingsBody {
    /// One of the configured currencies (lowercase ISO 4217).
    pub currency: String,
    /// 1 to 5 amounts in minor units, each within the tip bounds.
    pub suggested_amounts: Vec<i64>,
}

/// `{message, settings, currencies}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TipSettingsAnswer {
    pub message: String,
    pub settings: TipSettingsBody,
    /// The currencies a writer may choose (`payments.currencies`).
    pub currencies: Vec<String>,
}

fn settings_answer(
    state: &AppState,
    message: &str,
    currency: String,
    amounts: Vec<i64>,
) -> HttpResponse {
    HttpResponse::Ok().json(TipSettingsAnswer {
        message: message.to_string(),
        settings: TipSettingsBody {
            currency,
            suggested_amounts: amounts,
        },
        currencies: state.settings.payments.currencies.clone(),
    })
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn get_settings(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    refresh_eligibility(&state, &me.user).await;
    let s = settings_for(&state, me.user.id).await?;
    Ok(settings_answer(
        &state,
        "Tip settings",
        s.currency,
        s.suggested_amounts,
    ))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn put_settings(
    state: web::Data<AppState>,
    me: AuthUser,
    body: crate::extract::ApiJson<TipSettingsBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let currency = body.currency.trim().to_lowercase();
    let s = save_settings(&state, me.user.id, currency, body.suggested_amounts).await?;
    Ok(settings_answer(
        &state,
        "Tip settings saved",
        s.currency,
        s.suggested_amounts,
    ))
}

/// `{hidden}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HideBody {
    /// Whether the supporter's message is hidden from the post's supporters list.
    pub hidden: bool,
}

/// `{message, tip}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TipChanged {
    pub message: String,
    pub tip: TipView,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn hide(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
    body: crate::extract::ApiJson<HideBody>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "tip id")?;
    let hidden = body.into_inner().hidden;
    let tip = set_hidden(&state, &me.user, me.is_admin(), id, hidden).await?;
    let listed = with_names(&state, vec![tip]).await?;
    Ok(HttpResponse::Ok().json(TipChanged {
        message: if hidden {
            "Message hidden"
        } else {
            "Message shown"
        }
        .to_string(),
        tip: TipView::of(&listed[0]),
    }))
}

/// `{reason}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TipRefundBody {
    /// Why (1 to 1000 characters).
    pub reason: String,
}

/// A tip's refund.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TipRefund {
    pub amount: i64,
    pub currency: String,
    /// `succeeded` or `pending` (the provider settles it later).
    pub status: String,
}

/// `{message, tip, refund}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TipRefundAnswer {
    pub message: String,
    pub tip: TipView,
    pub refund: TipRefund,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn refund(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
    body: crate::extract::ApiJson<TipRefundBody>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&path, "tip id")?;
    let reason = body.into_inner().reason.trim().to_string();
    if reason.is_empty() {
        return Err(ApiError::bad_request("A reason for the refund is required"));
    }
    if reason.chars().count() > 1000 {
        return Err(ApiError::bad_request(
            "reason must be at most 1000 characters",
        ));
    }
    crate::services::reauth::require_recent(&state, &me).await?;
    let tip = refund_tip(&state, id, &me.user, me.is_admin(), &reason).await?;
    let target = Target::new("tip", tip.id.to_hex(), tip.post_title.clone());
    let details = json!({ "reason": reason, "amount": tip.amount, "currency": tip.currency });
    record_for_other(
        &state,
        &me,
        tip.sender_id,
        Action::TipRefund,
        target,
        details,
    )
    .await;
    let listed = with_names(&state, vec![tip]).await?;
    let view = TipView::of(&listed[0]);
    Ok(HttpResponse::Ok().json(TipRefundAnswer {
        message: MSG_TIP_REFUNDED.to_string(),
        refund: TipRefund {
            amount: view.amount,
            currency: view.currency.clone(),
            status: listed[0]
                .tip
                .refund_status
                .clone()
                .unwrap_or_else(|| "pending".into()),
        },
        tip: view,
    }))
}
