//! `GET /api/achievement/achievements` → {badges, calculatedAt}: the caller's badges as last
//! calculated (calculated now the first time).

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::{recalculate, views};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::achievements;
use crate::routes::user::iso;
use crate::state::AppState;

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn achievements(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let record = match achievements::find(&state.db, me.user.id).await? {
        Some(r) => r,
        None => recalculate(&state.db, me.user.id).await?,
    };
    Ok(HttpResponse::Ok().json(json!({
        "badges": views(&record.badges),
        "calculatedAt": iso(record.calculated_at),
    })))
}
