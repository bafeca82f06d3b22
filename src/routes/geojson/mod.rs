//! `/api/geojson/*`: map outlines as GeoJSON FeatureCollections, derived from Natural Earth data
//! (public domain) as shipped by the npm package `world-atlas` (TopoJSON, installed by the
//! scripts under `data/geojson/`). Converted once on first use and kept in memory.

pub mod india_border;
pub mod world;

use actix_web::http::header;
use actix_web::HttpResponse;
use bytes::Bytes;

use crate::geojson::*;

/// A GeoJSON response of an outline, or 503 when the map data is not installed.
pub fn geojson(outline: anyhow::Result<Bytes>) -> crate::error::ApiResult<HttpResponse> {
    let body = outline.map_err(crate::error::ApiError::Unavailable)?;
    Ok(HttpResponse::Ok()
        .content_type("application/geo+json")
        .insert_header((
            header::CACHE_CONTROL,
            format!("public, max-age={CACHE_SECONDS}"),
        ))
        .body(body))
}
