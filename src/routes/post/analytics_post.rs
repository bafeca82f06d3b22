//! `GET /api/post/analytics/post/{id}?days=30` → the post's numbers for its author or an
//! administrator (`services::post_analytics::post`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::post_analytics::post::{self as analytics, parse_days};
use crate::state::AppState;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AnalyticsQuery {
    #[serde(default)]
    days: Option<String>,
}

#[tracing::instrument(skip(state, me))]
pub async fn post_analytics(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    query: web::Query<AnalyticsQuery>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "post id")?;
    let days = parse_days(query.days.as_deref())?;
    Ok(HttpResponse::Ok().json(analytics::of_post(&state, &me, id, days).await?))
}
