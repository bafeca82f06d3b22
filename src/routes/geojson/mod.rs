//! `/api/geojson/*`: map outlines as GeoJSON FeatureCollections, derived from Natural Earth data
//! (public domain) as shipped by the npm package `world-atlas` (TopoJSON, installed by the
//! scripts under `data/geojson/`). Converted once on first use and kept in memory.

pub mod india_border;
pub mod world;

use actix_web::http::header;
use actix_web::HttpResponse;
use bytes::Bytes;

use crate::geojson::*;

/// A GeoJSON response.
pub fn geojson(body: Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/geo+json")
        .insert_header((
            header::CACHE_CONTROL,
            format!("public, max-age={CACHE_SECONDS}"),
        ))
        .body(body)
}
