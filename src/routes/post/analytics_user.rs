//! `GET /api/post/analytics/user-engagement?days=30&userId=` → an author's figures over all
//! their posts, for themselves or an administrator (`services::post_analytics::user`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::post_analytics::post::parse_days;
use crate::services::post_analytics::user as analytics;
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct EngagementQuery {
    #[serde(default)]
    days: Option<String>,
    #[serde(default)]
    user_id: Option<String>,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn user_engagement(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<EngagementQuery>,
) -> ApiResult<HttpResponse> {
    let days = parse_days(query.days.as_deref())?;
    let author = match query
        .user_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => me.user.id,
        Some(raw) => object_id(raw, "userId")?,
    };
    Ok(HttpResponse::Ok().json(analytics::of_author(&state, &me, author, days).await?))
}
