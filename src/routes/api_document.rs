//! `GET /api/openapi.json`: the OpenAPI document. It is built once, from the route table, when
//! the server starts (`routes::openapi::api_document`, handed to the app by `startup`), so this
//! handler, which the route table names, needs neither the table nor its builder.

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use serde::Serialize;
use serde_json::Value;

/// The document's `info`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ApiInfo {
    pub title: &'static str,
    pub version: &'static str,
}

/// The OpenAPI 3.1 document as served.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ApiDocument {
    pub openapi: &'static str,
    pub info: ApiInfo,
    /// Each path with its operations (OpenAPI Path Item objects, as the specification defines).
    #[schema(value_type = Object)]
    pub paths: BTreeMap<String, serde_json::Map<String, Value>>,
    /// The security schemes and the named schemas (an OpenAPI Components object).
    #[schema(value_type = Object)]
    pub components: Value,
}

pub async fn serve(document: web::Data<ApiDocument>) -> HttpResponse {
    HttpResponse::Ok().json(document.get_ref())
}
