//! `GET /api/achievement/achievements?userId` → {badges, progress, calculatedAt}: the caller's
//! badges as last calculated (calculated now the first time), or with `userId` another user's
//! (badges are public: what they show is already on the profile). A block between the two is a
//! 403.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::achievements;
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AchievementsQuery {
    #[serde(default)]
    user_id: Option<String>,
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
    Ok(HttpResponse::Ok().json(achievements::of_user(&state, &me, whose).await?))
}
