//! `GET /api/geojson/india-border` → a FeatureCollection with India's outline (Natural Earth's
//! default point of view; see docs/decisions.md).

use actix_web::{web, HttpResponse};

use super::geojson;
use crate::error::ApiResult;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn india_border(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    geojson(state.live.geodata.india().await)
}
