//! `GET /api/geojson/world` → a FeatureCollection with every country's outline (for the world
//! map of locations).

use actix_web::{web, HttpResponse};

use super::geojson;
use crate::error::ApiResult;
use crate::state::AppState;

#[tracing::instrument(skip_all)]
pub async fn world(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    geojson(state.live.geodata.world().await)
}
