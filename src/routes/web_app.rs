//! The built web app: hashed assets with long cache lifetimes, and `index.html` for every client
//! route (never for `/api`, `/socket.io` or `/media`).

use std::path::{Path, PathBuf};

use actix_files::{Files, NamedFile};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::DefaultHeaders;
use actix_web::{web, HttpResponse};

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

/// Answer for unknown paths: JSON 404 under reserved prefixes, the app's index elsewhere.
pub async fn fallback(
    req: ServiceRequest,
    index: Option<PathBuf>,
) -> Result<ServiceResponse, actix_web::Error> {
    let (http_req, _) = req.into_parts();
    if is_reserved(http_req.path()) {
        let res = json_error(StatusCode::NOT_FOUND, "not_found", "Not found");
        return Ok(ServiceResponse::new(http_req, res));
    }
    let res = match index {
        Some(index) => match NamedFile::open_async(&index).await {
            Ok(file) => {
                let mut res = file.use_etag(true).into_response(&http_req);
                res.headers_mut()
                    .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
                res
            }
            Err(_) => placeholder(),
        },
        None => placeholder(),
    };
    Ok(ServiceResponse::new(http_req, res))
}

fn placeholder() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body("<!doctype html><html><head><meta charset=\"utf-8\"><title>Pressroom</title></head><body><h1>Pressroom</h1><p>The web app has not been built yet. Run <code>scripts/run</code>, which builds it.</p></body></html>")
}

/// Mounts the app from `dir` (assets, files, then the fallback).
pub fn configure(cfg: &mut web::ServiceConfig, dir: &Path) {
    let index = dir.join("index.html");
    let index = index.is_file().then_some(index);
    let assets = dir.join("assets");
    if assets.is_dir() {
        cfg.service(
            web::scope("/assets")
                .wrap(DefaultHeaders::new().add((header::CACHE_CONTROL, ASSET_CACHE_CONTROL)))
                .service(Files::new("", assets)),
        );
    }
    let fallback_index = index.clone();
    let default = move |req: ServiceRequest| {
        let index = fallback_index.clone();
        fallback(req, index)
    };
    if dir.is_dir() {
        cfg.service(
            Files::new("/", dir)
                .index_file("index.html")
                .default_handler(default),
        );
    } else {
        cfg.default_service(actix_web::dev::fn_service(|req: ServiceRequest| {
            fallback(req, None)
        }));
    }
}
