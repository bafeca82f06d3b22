//! The built web app: hashed assets with long cache lifetimes, its files, and its pages for every
//! client route, server-rendered (`routes::site`; never for `/api`, `/socket.io` or `/media`).

use std::path::Path;

use actix_files::Files;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::middleware::DefaultHeaders;
use actix_web::web;

use crate::error::json_error;

/// Cache lifetime of hashed assets.
pub const ASSET_CACHE_CONTROL: &str = "public, max-age=31536000, immutable";
/// Path prefixes that never fall back to the app.
pub const RESERVED_PREFIXES: [&str; 5] = ["/api", "/socket.io", "/media", "/health", "/metrics"];

/// Whether a path belongs to the server rather than the client router.
pub fn is_reserved(path: &str) -> bool {
    RESERVED_PREFIXES
        .iter()
        .any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

/// Answer for unknown paths: JSON 404 under reserved prefixes; elsewhere the app's page for the
/// path (`routes::site::pages`), with its head and content filled in and a true status code.
pub async fn fallback(req: ServiceRequest) -> Result<ServiceResponse, actix_web::Error> {
    if !is_reserved(req.path()) {
        return crate::routes::site::pages::app_page(req).await;
    }
    let (http_req, _) = req.into_parts();
    let res = json_error(StatusCode::NOT_FOUND, "not_found", "Not found");
    Ok(ServiceResponse::new(http_req, res))
}

/// Mounts the app from `dir` (assets, files, then the fallback).
pub fn configure(cfg: &mut web::ServiceConfig, dir: &Path) {
    let assets = dir.join("assets");
    if assets.is_dir() {
        cfg.service(
            web::scope("/assets")
                .wrap(DefaultHeaders::new().add((header::CACHE_CONTROL, ASSET_CACHE_CONTROL)))
                .service(Files::new("", assets)),
        );
    }
    crate::routes::site::configure(cfg, dir);
    if dir.is_dir() {
        cfg.service(
            Files::new("/", dir)
                .index_file("index.html")
                .default_handler(actix_web::dev::fn_service(fallback)),
        );
    } else {
        cfg.default_service(actix_web::dev::fn_service(fallback));
    }
}
