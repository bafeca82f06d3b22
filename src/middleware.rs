//! Cross-cutting middleware: a handler panic becomes a JSON 500 instead of a dropped connection.

use std::panic::AssertUnwindSafe;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use futures_util::FutureExt;

use crate::error::ApiError;

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

#[cfg(test)]
mod tests {
    use actix_web::{middleware::from_fn, test, web, App, HttpResponse};

    use super::*;
    use crate::error::INTERNAL_MESSAGE;
    use actix_web::http::StatusCode;

    #[actix_web::test]
    async fn a_panicking_handler_answers_500_json() {
        let app = test::init_service(App::new().wrap(from_fn(catch_panic)).route(
            "/boom",
            web::get().to(|| async {
                let v: Vec<u8> = Vec::new();
                if v.is_empty() {
                    panic!("boom");
                }
                HttpResponse::Ok().finish()
            }),
        ))
        .await;
        let err = test::try_call_service(&app, test::TestRequest::get().uri("/boom").to_request())
            .await
            .expect_err("the panic surfaces as an error");
        // This is what the HTTP dispatcher sends for an error from the service chain.
        let res = err.error_response();
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let bytes = actix_web::body::to_bytes(res.into_body()).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["code"], "internal_error");
        assert_eq!(body["message"], INTERNAL_MESSAGE);
    }
}
