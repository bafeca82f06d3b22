//! `PUT /api/follow/alerts/{authorId}` {mode} → {message, userId, alerts}: how the caller hears of
//! a followed author's new posts: `instant` (a notice and an email at once, the default),
//! `digest` (a notice now, the email in the daily digest) or `off` (neither). The choice is kept
//! with the follow: an author the caller does not follow is a 404, any other mode a 400 naming
//! `mode`.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::follows::{self, Alerts};
use crate::state::AppState;

pub const MSG_ALERTS_SAVED: &str = "Alerts updated";
pub const MSG_BAD_MODE: &str = "mode must be instant, digest or off";
pub const MSG_NOT_FOLLOWING: &str = "You do not follow this author";

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct AlertsBody {
    /// `instant`, `digest` or `off`.
    #[serde(default)]
    pub mode: Option<serde_json::Value>,
}

impl AlertsBody {
    /// The `mode` asked for (400 naming `mode` otherwise).
    pub fn mode(&self) -> ApiResult<Alerts> {
        self.mode
            .as_ref()
            .and_then(|v| v.as_str())
            .and_then(|s| Alerts::parse(s.trim()))
            .ok_or_else(|| ApiError::bad_request(MSG_BAD_MODE))
    }
}

/// `{message, userId, alerts}`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertsAnswer {
    message: String,
    user_id: String,
    alerts: String,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn set_alerts(
    state: web::Data<AppState>,
    me: AuthUser,
    author_id: web::Path<String>,
    body: ApiJson<AlertsBody>,
) -> ApiResult<HttpResponse> {
    let author = object_id(&author_id, "author id")?;
    let mode = body.into_inner().mode()?;
    if !follows::set_alerts(&state, &me, author, mode).await? {
        return Err(ApiError::not_found(MSG_NOT_FOLLOWING));
    }
    Ok(HttpResponse::Ok().json(AlertsAnswer {
        message: MSG_ALERTS_SAVED.to_string(),
        user_id: author.to_hex(),
        alerts: mode.as_str().to_string(),
    }))
}
