//! `GET /api/achievement/achievements?userId` → {badges, progress, calculatedAt}: the caller's
//! badges as last calculated (calculated now the first time), or with `userId` another user's
//! (badges are public: what they show is already on the profile). A block between the two is a
//! 403.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::{progress, recalculate, views};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::persistence::{achievements, users};
use crate::post_view::iso;
use crate::services::engagement::ensure_not_blocked;
use crate::services::people::MSG_USER_NOT_FOUND;
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AchievementsQuery {
    #[serde(default)]
    user_id: Option<String>,
}

/// `{badges, progress, calculatedAt}`: the badges held and the progress towards every badge.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AchievementsAnswer {
    badges: Vec<super::BadgeView>,
    progress: Vec<super::ProgressView>,
    calculated_at: String,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn achievements(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<AchievementsQuery>,
) -> ApiResult<HttpResponse> {
    let whose = match query
        .user_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => me.user.id,
        Some(raw) => object_id(raw, "userId")?,
    };
    if whose != me.user.id {
        users::find_by_id(&state.db, whose)
            .await?
            .ok_or_else(|| crate::error::ApiError::not_found(MSG_USER_NOT_FOUND))?;
        ensure_not_blocked(&state.db, me.user.id, whose).await?;
    }
    let record = match achievements::find(&state.db, whose).await? {
        Some(r) => r,
        None => recalculate(&state.db, whose).await?,
    };
    Ok(HttpResponse::Ok().json(AchievementsAnswer {
        badges: views(&record.badges),
        progress: progress(&record.metrics, &record.badges),
        calculated_at: iso(record.calculated_at),
    }))
}
