//! `PATCH /api/subscription/subscriptions/{id}/cancel` (the subscriber or an administrator) →
//! `{message: 'Subscription cancelled successfully', subscription}`: no more renewals, access
//! until the paid period ends.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{load_own_subscription, subscription_view_of, SubscriptionAnswer};
use crate::audit::record_for_other;
use crate::audit::{Action, Target};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::services::billing::{lifecycle, mode};
use crate::state::AppState;

pub const MSG_CANCELLED: &str = "Subscription cancelled successfully";

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn cancel(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let sub = load_own_subscription(&state.db, &path, &me).await?;
    let sub = lifecycle::cancel(&state, &sub, me.user.id).await?;
    let target = Target::new("subscription", sub.id.to_hex(), sub.plan_name.clone());
    record_for_other(
        &state,
        &me,
        sub.subscriber_id,
        Action::SubscriptionCancel,
        target,
        json!({}),
    )
    .await;
    Ok(HttpResponse::Ok().json(SubscriptionAnswer {
        message: MSG_CANCELLED.to_string(),
        subscription: subscription_view_of(&state.db, &sub).await?,
        mode: mode(&state).to_string(),
    }))
}
