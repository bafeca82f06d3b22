//! The built web app: hashed assets with long cache lifetimes, its files, and its pages for every
//! client route, server-rendered (`routes::site`; never for `/api`, `/socket.io` or `/media`).

use std::path::{Path, PathBuf};

use actix_files::{Files, NamedFile};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, ContentEncoding};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::{from_fn, DefaultHeaders, Next};
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

/// The encodings of the copies the build writes beside each text asset (`web/scripts/
/// precompress.mjs`), in the order they are preferred.
const PRECOMPRESSED: [(&str, &str, ContentEncoding); 2] = [
    ("br", ".br", ContentEncoding::Brotli),
    ("gzip", ".gz", ContentEncoding::Gzip),
];

/// Whether `Accept-Encoding` accepts `coding` (a `q=0` refuses it).
fn accepts(req: &ServiceRequest, coding: &str) -> bool {
    req.headers()
        .get_all(header::ACCEPT_ENCODING)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (name.eq_ignore_ascii_case(coding) || name == "*") && !refused
        })
}

/// Serves an asset's precompressed copy (Brotli, else gzip) when the client accepts it and the
/// build made one; otherwise the asset as it is (compressed on the fly by `Compress`).
async fn precompressed(
    dir: PathBuf,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if req.method() == Method::GET || req.method() == Method::HEAD {
        let name = req.match_info().unprocessed().trim_start_matches('/');
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && !name.starts_with('.');
        if plain {
            for (coding, suffix, encoding) in PRECOMPRESSED {
                let copy = dir.join(format!("{name}{suffix}"));
                if !accepts(&req, coding) || !copy.is_file() {
                    continue;
                }
                let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
                let mime = actix_files::file_extension_to_mime(ext);
                if let Ok(file) = NamedFile::open_async(&copy).await {
                    let file = file
                        .set_content_type(mime)
                        .set_content_encoding(encoding)
                        .use_etag(true)
                        .use_last_modified(true);
                    let (http_req, _) = req.into_parts();
                    let mut res = file.into_response(&http_req);
                    res.headers_mut().insert(
                        header::VARY,
                        header::HeaderValue::from_static("accept-encoding"),
                    );
                    return Ok(ServiceResponse::new(http_req, res));
                }
            }
        }
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// Mounts the app from `dir` (assets, files, then the fallback).
pub fn configure(cfg: &mut web::ServiceConfig, dir: &Path) {
    let assets = dir.join("assets");
    if assets.is_dir() {
        let dir = assets.clone();
        cfg.service(
            web::scope("/assets")
                .wrap(from_fn(move |req, next| {
                    precompressed(dir.clone(), req, next)
                }))
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
