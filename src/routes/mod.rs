//! The route handlers, and their registration from the route table in [`table`].

pub mod achievement;
pub mod admin;
pub mod answers;
pub mod api_document;
pub mod auth;
pub mod banner;
pub mod block;
pub mod category;
pub mod comment;
pub mod cookies;
pub mod daily_mail;
pub mod earning;
pub mod follow;
pub mod geojson;
pub mod health;
pub mod import;
pub mod keys;
pub mod media;
pub mod metrics;
pub mod newsletter;
pub mod notification;
pub mod openapi;
pub mod paging;
pub mod payment;
pub mod post;
pub mod public;
pub mod public_config;
pub mod push;
pub mod series;
pub mod site;
pub mod subscription;
pub mod table;
pub mod tip;
pub mod user;
pub mod web_app;
pub mod webhooks;

use actix_web::middleware::from_fn;
use actix_web::web;

use crate::error::json_error;
use table::ROUTES;

/// Registers every route of [`table::ROUTES`]: paths outside `/api` as one resource each, and under
/// `/api` one scope per first segment (answering [`api_not_found`] for anything it does not route),
/// each route in table order.
pub fn configure(cfg: &mut web::ServiceConfig) {
    // The scope each route needs of a personal API key, read by the user extractors.
    let scopes = ROUTES
        .iter()
        .filter_map(|r| Some(((r.method.to_string(), r.path.to_string()), r.scope?)))
        .collect();
    cfg.app_data(web::Data::new(crate::services::api_keys::KeyScopes(scopes)));
    let mut outside: Vec<&str> = Vec::new();
    for route in ROUTES.iter().filter(|r| !r.path.starts_with("/api/")) {
        if !outside.contains(&route.path) {
            outside.push(route.path);
        }
    }
    for path in outside {
        let mut resource = web::resource(path);
        for route in ROUTES.iter().filter(|r| r.path == path) {
            resource = resource.route(route.actix_route());
            if route.head {
                resource = resource.route((route.handler)(web::head()));
            }
        }
        cfg.service(resource.default_service(web::to(api_not_found)));
    }
    let mut api = web::scope("/api");
    let mut scoped: Vec<&str> = Vec::new();
    for route in ROUTES {
        let Some(rest) = route.path.strip_prefix("/api") else {
            continue;
        };
        match scope_of(rest) {
            Some(first) if scoped.contains(&first) => {}
            Some(first) => {
                scoped.push(first);
                api = api.service(scope(first));
            }
            None => api = register(api, rest, route),
        }
    }
    cfg.service(api.default_service(web::to(api_not_found)));
}

/// The first segment of a path under `/api` when it names a scope: some route has a further segment
/// under it (`/category` is in the `/category` scope, `/openapi.json` is not in a scope).
fn scope_of(rest: &str) -> Option<&str> {
    let first = rest.trim_start_matches('/').split('/').next()?;
    let prefix = format!("/api/{first}/");
    ROUTES
        .iter()
        .any(|r| r.path.starts_with(&prefix))
        .then_some(first)
}

/// The scope `/api/{first}` with its routes, in table order.
fn scope(first: &str) -> actix_web::Scope {
    let base = format!("/{first}");
    let mut scope = web::scope(&base).default_service(web::to(api_not_found));
    for route in ROUTES {
        let Some(rest) = route.path.strip_prefix("/api") else {
            continue;
        };
        if scope_of(rest) == Some(first) {
            scope = register(scope, &rest[base.len()..], route);
        }
    }
    scope
}

/// Adds one route at `path` (relative to the scope).
fn register(scope: actix_web::Scope, path: &str, route: &table::Route) -> actix_web::Scope {
    if route.error_field {
        scope.service(
            web::resource(path)
                .wrap(from_fn(crate::middleware::error_field))
                .route(route.actix_route()),
        )
    } else {
        scope.route(path, route.actix_route())
    }
}

/// Unrouted requests under `/api` (and wrong methods on `/health`, `/media`): 405 with `Allow` when the path exists for other methods, else 404.
async fn api_not_found(req: actix_web::HttpRequest) -> actix_web::HttpResponse {
    let allowed = openapi::methods_for(req.path());
    if !allowed.is_empty() {
        let mut res = json_error(
            actix_web::http::StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            &format!(
                "{} is not allowed on {}; use {}",
                req.method(),
                req.path(),
                allowed.join(", ")
            ),
        );
        if let Ok(value) = actix_web::http::header::HeaderValue::from_str(&allowed.join(", ")) {
            res.headers_mut()
                .insert(actix_web::http::header::ALLOW, value);
        }
        return res;
    }
    json_error(
        actix_web::http::StatusCode::NOT_FOUND,
        "not_found",
        &format!("No such endpoint: {} {}", req.method(), req.path()),
    )
}
