//! Cross-cutting middleware: a handler panic becomes a JSON 500 instead of a dropped connection;
//! every response carries the security headers; state-changing API requests authenticated only by
//! the session cookie must come from the site itself;
//! an observer, when one is installed (the API tests install one to hold every answer to the
//! OpenAPI document), sees each answer of the API.

use std::panic::AssertUnwindSafe;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use futures_util::FutureExt;

use crate::auth::COOKIE_NAME;
use crate::error::{json_error, ApiError};
pub use crate::security_headers::{apply_security_headers, CONTENT_SECURITY_POLICY, HSTS};

pub const MSG_CROSS_SITE: &str =
    "This request came from another site and was refused. Reload the page and try again.";

/// Adds the security headers to every response of the chain. `hsts` is on in production (where the
/// site is served over HTTPS). An error that leaves the chain (a panic) is rendered by `ApiError`,
/// which sets the same headers but HSTS (browsers keep HSTS from any earlier response).
pub async fn security_headers(
    hsts: bool,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let mut res = next.call(req).await?.map_into_boxed_body();
    apply_security_headers(res.headers_mut(), hsts);
    Ok(res)
}

/// How long an upload of an archive to import may take (200 MB over a slow line).
const UPLOAD_DEADLINE: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// Answers 503 when the rest of the chain takes longer than `limit` (the request's work is
/// dropped at that point, as it would be if the client went away). The realtime endpoint is not
/// bound: its long-polls wait by design. An archive's upload (`POST /api/import`) gets half an
/// hour: its size is bounded by `import.max_upload_bytes`, its time by the line it comes over.
pub async fn request_deadline(
    limit: std::time::Duration,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if limit.is_zero() || req.path().starts_with("/socket.io") {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    }
    let path = req.path().to_string();
    let limit = if path == "/api/import" && req.method() == actix_web::http::Method::POST {
        limit.max(UPLOAD_DEADLINE)
    } else {
        limit
    };
    match tokio::time::timeout(limit, next.call(req)).await {
        Ok(result) => result.map(ServiceResponse::map_into_boxed_body),
        Err(_) => Err(ApiError::Unavailable(anyhow::anyhow!(
            "{path} took longer than {} ms",
            limit.as_millis()
        ))
        .into()),
    }
}

/// Refuses a state-changing `/api` request that is authenticated only by the session cookie (no
/// bearer token) unless its `Origin` (or, without one, its `Referer`) is this site. Browsers send
/// `Origin` on every cross-site and same-site POST/PUT/PATCH/DELETE, so the web app passes and a
/// form or script on another site does not; bearer-token clients are not affected.
pub async fn same_origin_for_cookies(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if needs_same_origin(&req) && !is_same_origin(req.headers()) {
        let (http, _) = req.into_parts();
        let res = json_error(StatusCode::FORBIDDEN, "cross_site_request", MSG_CROSS_SITE);
        return Ok(ServiceResponse::new(http, res));
    }
    next.call(req)
        .await
        .map(ServiceResponse::map_into_boxed_body)
}

/// Repeats the `message` of a refusal (a 4xx JSON answer) under `error`, for the routes whose
/// client reads refusals from `error` (seed 001 §8: the two analytics calls).
pub async fn error_field(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let res = next.call(req).await?.map_into_boxed_body();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !res.status().is_client_error() || !is_json {
        return Ok(res);
    }
    let (http, res) = res.into_parts();
    let (head, body) = res.into_parts();
    let bytes = actix_web::body::to_bytes(body).await.unwrap_or_default();
    let bytes = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(mut map)) if !map.contains_key("error") => {
            if let Some(message) = map.get("message").cloned() {
                map.insert("error".into(), message);
            }
            serde_json::to_vec(&map).map_or(bytes, actix_web::web::Bytes::from)
        }
        _ => bytes,
    };
    let mut res = head.set_body(BoxBody::new(bytes));
    res.headers_mut().remove(header::CONTENT_LENGTH);
    Ok(ServiceResponse::new(http, res))
}

fn needs_same_origin(req: &ServiceRequest) -> bool {
    let safe = matches!(
        *req.method(),
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    );
    if safe || !(req.path() == "/api" || req.path().starts_with("/api/")) {
        return false;
    }
    let bearer = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let v = v.trim();
            v.len() > 7 && v[..7].eq_ignore_ascii_case("bearer ")
        });
    let cookie = req
        .cookie(COOKIE_NAME)
        .is_some_and(|c| !c.value().is_empty());
    cookie && !bearer
}

/// Whether `Origin` (else `Referer`) names the host the request was sent to.
fn is_same_origin(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let source = headers
        .get(header::ORIGIN)
        .or_else(|| headers.get(header::REFERER))
        .and_then(|v| v.to_str().ok());
    source
        .and_then(authority)
        .is_some_and(|a| a.eq_ignore_ascii_case(host.trim()))
}

/// `host[:port]` of an absolute `http(s)` address.
fn authority(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|a| !a.is_empty() && !a.contains('@'))
}

/// Runs the rest of the chain and turns a panic into a 500 `{message, code}`.
pub async fn catch_panic(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let path = req.path().to_string();
    match AssertUnwindSafe(next.call(req)).catch_unwind().await {
        Ok(result) => result.map(ServiceResponse::map_into_boxed_body),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            // The request was moved into the panicked service, so the error travels as an `Err`;
            // actix renders it with `ApiError`'s JSON response.
            Err(ApiError::internal(anyhow::anyhow!("handler panicked at {path}: {what}")).into())
        }
    }
}

/// One answer as the client receives it, with the route pattern that produced it.
pub struct Exchange<'a> {
    pub method: &'a str,
    /// The matched route pattern (`/api/post/like/{postId}`), `None` when no route matched.
    pub pattern: Option<&'a str>,
    pub path: &'a str,
    pub status: u16,
    pub content_type: Option<&'a str>,
    pub body: &'a [u8],
    /// The port the server listens on (tells apart several servers in one process).
    pub port: u16,
}

/// Sees every answer of the server's API and health routes.
pub type ExchangeObserver = Box<dyn Fn(&Exchange<'_>) + Send + Sync>;

static OBSERVER: std::sync::OnceLock<ExchangeObserver> = std::sync::OnceLock::new();

/// Installs the process's observer (once; later calls are ignored). Nothing observes by default,
/// and then [`observe`] only passes answers through.
pub fn set_exchange_observer(observer: ExchangeObserver) {
    let _ = OBSERVER.set(observer);
}

/// The port the client addressed (from `Host`; the server's configured port when absent).
fn local_port(req: &actix_web::HttpRequest) -> u16 {
    req.connection_info()
        .host()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| req.app_config().local_addr().port())
}

/// Hands each API answer to the installed observer (the body is read into memory for it).
pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(observer) = OBSERVER.get() else {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    };
    let path = req.path().to_string();
    if !(path.starts_with("/api/") || path == "/health") {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    }
    let res = next.call(req).await?;
    let (req, res) = res.into_parts();
    let (res, body) = res.into_parts();
    let bytes = actix_web::body::to_bytes(body)
        .await
        .map_err(|_| ApiError::internal(anyhow::anyhow!("the answer's body could not be read")))?;
    let content_type = res
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    observer(&Exchange {
        method: req.method().as_str(),
        pattern: req.match_pattern().as_deref(),
        path: &path,
        status: res.status().as_u16(),
        content_type: content_type.as_deref(),
        body: &bytes,
        port: local_port(&req),
    });
    let res = res.set_body(BoxBody::new(bytes));
    Ok(ServiceResponse::new(req, res))
}

#[cfg(test)]
mod tests {
    use actix_web::{middleware::from_fn, test, web, App, HttpResponse};

    use super::*;
    use crate::error::INTERNAL_MESSAGE;
    use actix_web::http::header::HeaderValue;
    use actix_web::http::StatusCode;

    #[actix_web::test]
    async fn origins_are_compared_by_authority() {
        assert_eq!(
            authority("https://a.example:8443/x?y"),
            Some("a.example:8443")
        );
        assert_eq!(authority("http://a.example"), Some("a.example"));
        assert_eq!(authority("null"), None);
        assert_eq!(authority("http://evil@a.example/"), None);
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("a.example:8080"));
        assert!(!is_same_origin(&h), "no Origin and no Referer");
        h.insert(
            header::REFERER,
            HeaderValue::from_static("http://a.example:8080/p/x"),
        );
        assert!(is_same_origin(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://evil.example"),
        );
        assert!(!is_same_origin(&h), "Origin wins over Referer");
    }

    #[actix_web::test]
    async fn hsts_only_when_asked_and_own_headers_are_kept() {
        let mut h = HeaderMap::new();
        h.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        );
        apply_security_headers(&mut h, false);
        assert!(h.get(header::STRICT_TRANSPORT_SECURITY).is_none());
        assert_eq!(h.get(header::REFERRER_POLICY).unwrap(), "no-referrer");
        assert_eq!(h.get(header::X_CONTENT_TYPE_OPTIONS).unwrap(), "nosniff");
        apply_security_headers(&mut h, true);
        assert_eq!(h.get(header::STRICT_TRANSPORT_SECURITY).unwrap(), HSTS);
    }

    /// A handler that panics (the branch keeps the compiler from seeing it never returns).
    async fn boom() -> HttpResponse {
        let v: Vec<u8> = Vec::new();
        if v.is_empty() {
            panic!("boom");
        }
        HttpResponse::Ok().finish()
    }

    /// What the HTTP dispatcher sends when a handler panics behind `catch_panic` and the
    /// production security headers.
    async fn panic_response() -> HttpResponse {
        let app = test::init_service(
            App::new()
                .wrap(from_fn(|req, next| security_headers(true, req, next)))
                .wrap(from_fn(catch_panic))
                .route("/boom", web::get().to(boom)),
        )
        .await;
        let err = test::try_call_service(&app, test::TestRequest::get().uri("/boom").to_request())
            .await
            .expect_err("the panic surfaces as an error");
        // This is what the HTTP dispatcher sends for an error from the service chain.
        err.error_response()
    }

    #[actix_web::test]
    async fn a_panic_still_gets_the_security_headers_but_hsts() {
        let res = panic_response().await;
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let csp = res.headers().get(header::CONTENT_SECURITY_POLICY).unwrap();
        assert!(csp.to_str().unwrap().contains("frame-ancestors 'none'"));
        assert_eq!(
            res.headers().get(header::X_CONTENT_TYPE_OPTIONS).unwrap(),
            "nosniff"
        );
    }

    #[actix_web::test]
    async fn a_request_past_its_deadline_is_a_503_but_realtime_is_not_bound() {
        let limit = std::time::Duration::from_millis(50);
        let slow = || async {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            HttpResponse::Ok().finish()
        };
        let app = test::init_service(
            App::new()
                .wrap(from_fn(move |req, next| request_deadline(limit, req, next)))
                .route("/slow", web::get().to(slow))
                .route("/socket.io/", web::get().to(slow)),
        )
        .await;
        let err = test::try_call_service(&app, test::TestRequest::get().uri("/slow").to_request())
            .await
            .expect_err("the deadline ends the request");
        assert_eq!(
            err.error_response().status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
        let res = test::call_service(
            &app,
            test::TestRequest::get().uri("/socket.io/").to_request(),
        )
        .await;
        assert_eq!(res.status(), StatusCode::OK);
    }

    #[actix_web::test]
    async fn a_panicking_handler_answers_500_json() {
        let res = panic_response().await;
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let bytes = actix_web::body::to_bytes(res.into_body()).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["code"], "internal_error");
        assert_eq!(body["message"], INTERNAL_MESSAGE);
    }
}
