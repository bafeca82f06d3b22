//! `POST /api/subscription/status {userId, authorId}` → `{isSubscribed, status}`: whether the
//! reader may read the author's subscribers-only posts now, and the status of their latest
//! subscription to the author (`null` when there was none). Asked by the reader themselves, the
//! author, or an administrator.

use actix_web::{web, HttpResponse};
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::Body;
use crate::services::billing::lifecycle::{self, SubStatus};
use crate::state::AppState;

pub const MSG_INVALID_USER_ID: &str = "Invalid user ID";

/// `{isSubscribed, status, subscriptionId}`: whether the reader has access now, and the status
/// and id of the subscription shown (null when there was none).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusAnswer {
    pub is_subscribed: bool,
    pub status: Option<SubStatus>,
    pub subscription_id: Option<String>,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn status(
    state: web::Data<AppState>,
    me: AuthUser,
    body: Body<super::ReaderAuthorBody>,
) -> ApiResult<HttpResponse> {
    let (reader, author) = body.read()?.validate(&me)?;
    if reader != me.user.id && author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(
            "You can only check your own subscriptions or your own subscribers",
        ));
    }
    let (is_subscribed, status, subscription_id) =
        lifecycle::access_status(&state, reader, author).await?;
    Ok(HttpResponse::Ok().json(StatusAnswer {
        is_subscribed,
        status,
        subscription_id,
    }))
}
