//! `POST /api/subscription/unsubscribe/author {authorId, userId}` → `{message: 'Unsubscribed
//! successfully', cancelled, subscriptions}`: cancels every running subscription of the reader
//! (`userId`, the caller by default; another reader only for administrators) to the author.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use serde_json::json;

use super::{subscription_views, SubscriptionView};
use crate::audit::record_for_other;
use crate::audit::{Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::Body;
use crate::services::billing::{lifecycle, mode};
use crate::state::AppState;

pub const MSG_UNSUBSCRIBED: &str = "Unsubscribed successfully";

/// `{message, cancelled, subscriptions, mode}`: how many subscriptions were cancelled, and them.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UnsubscribeAnswer {
    pub message: String,
    pub cancelled: usize,
    pub subscriptions: Vec<SubscriptionView>,
    pub mode: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn unsubscribe_author(
    state: web::Data<AppState>,
    me: AuthUser,
    body: Body<super::ReaderAuthorBody>,
) -> ApiResult<HttpResponse> {
    let (reader, author) = body.read()?.validate(&me)?;
    if reader != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden("You can only unsubscribe yourself"));
    }
    let cancelled = lifecycle::cancel_all_to_author(&state, me.user.id, reader, author).await?;
    let views = subscription_views(&state.db, &cancelled).await?;
    let target = Target::id("user", reader);
    let details = json!({ "authorId": author.to_hex(), "cancelled": views.len() });
    record_for_other(
        &state,
        &me,
        reader,
        Action::SubscriptionUnsubscribe,
        target,
        details,
    )
    .await;
    Ok(HttpResponse::Ok().json(UnsubscribeAnswer {
        message: MSG_UNSUBSCRIBED.to_string(),
        cancelled: views.len(),
        subscriptions: views,
        mode: mode(&state).to_string(),
    }))
}
