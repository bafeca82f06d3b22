//! The one error type clients see: a status and `{"message", "code"}`.
//! Internal causes are logged with their chain, never returned.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

/// Message sent for every unexpected failure.
pub const INTERNAL_MESSAGE: &str = "Something went wrong on our side. Please try again.";
/// Message sent when the database cannot be reached.
pub const UNAVAILABLE_MESSAGE: &str =
    "The service is temporarily unavailable. Please try again shortly.";

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request is malformed or breaks a rule.
    #[error("{0}")]
    BadRequest(String),
    /// 400 with a specific machine-readable code.
    #[error("{message}")]
    Invalid { code: &'static str, message: String },
    /// 401: not signed in, or the token is not acceptable.
    #[error("{message}")]
    Unauthorized { code: &'static str, message: String },
    /// 403: signed in but not allowed.
    #[error("{0}")]
    Forbidden(String),
    /// 403 with a specific machine-readable code (`reauth_required`).
    #[error("{message}")]
    ForbiddenCode { code: &'static str, message: String },
    /// 404.
    #[error("{0}")]
    NotFound(String),
    /// 409: conflicts with existing state.
    #[error("{0}")]
    Conflict(String),
    /// 402: the payment method was declined.
    #[error("{0}")]
    PaymentRequired(String),
    /// 413.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 429 with the seconds after which a retry may succeed.
    #[error("{message}")]
    RateLimited { message: String, retry_after: u64 },
    /// 503 with a message for the client: an outside service (the mail server) refused or
    /// failed, and the message says what became of the request.
    #[error("{0}")]
    MailFailed(String),
    /// 502: the payment provider could not be reached or failed; the message says what the
    /// client should know (the cause is logged).
    #[error("{message}")]
    BadGateway {
        message: String,
        #[source]
        cause: anyhow::Error,
    },
    /// 503: a dependency (the database, the mail server) is down.
    #[error("dependency unavailable: {0}")]
    Unavailable(#[source] anyhow::Error),
    /// 500: anything else. The cause is logged.
    #[error("internal error: {0}")]
    Internal(#[source] anyhow::Error),
}

/// The body of every error answer: a sentence for people and a stable code for programs.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody<'a> {
    message: &'a str,
    code: &'a str,
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::BadRequest(message.into())
    }
    pub fn invalid(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::Invalid {
            code,
            message: message.into(),
        }
    }
    pub fn unauthorized(message: impl Into<String>) -> Self {
        ApiError::Unauthorized {
            code: "unauthenticated",
            message: message.into(),
        }
    }
    pub fn unauthorized_code(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::Unauthorized {
            code,
            message: message.into(),
        }
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        ApiError::Forbidden(message.into())
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::NotFound(message.into())
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        ApiError::Conflict(message.into())
    }
    pub fn internal(err: impl Into<anyhow::Error>) -> Self {
        ApiError::Internal(err.into())
    }

    fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "validation_error",
            ApiError::Invalid { code, .. } => code,
            ApiError::Unauthorized { code, .. } => code,
            ApiError::Forbidden(_) => "forbidden",
            ApiError::ForbiddenCode { code, .. } => code,
            ApiError::NotFound(_) => "not_found",
            ApiError::Conflict(_) => "conflict",
            ApiError::PaymentRequired(_) => "payment_declined",
            ApiError::PayloadTooLarge(_) => "payload_too_large",
            ApiError::BadGateway { .. } => "payment_provider_unavailable",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::MailFailed(_) => "mail_failed",
            ApiError::Unavailable(_) => "service_unavailable",
            ApiError::Internal(_) => "internal_error",
        }
    }

    fn client_message(&self) -> String {
        match self {
            ApiError::Unavailable(_) => UNAVAILABLE_MESSAGE.to_string(),
            ApiError::Internal(_) => INTERNAL_MESSAGE.to_string(),
            other => other.to_string(),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::Invalid { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) | ApiError::ForbiddenCode { .. } => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::BadGateway { .. } => StatusCode::BAD_GATEWAY,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) | ApiError::MailFailed(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            ApiError::Internal(e) => tracing::error!(error = ?e, "request failed"),
            ApiError::Unavailable(e) => {
                tracing::warn!(error = %format!("{e:#}"), "dependency unavailable")
            }
            ApiError::BadGateway { cause, .. } => {
                tracing::warn!(error = %format!("{cause:#}"), "payment provider failed")
            }
            _ => {}
        }
        let message = self.client_message();
        let mut builder = HttpResponse::build(self.status_code());
        if let ApiError::RateLimited { retry_after, .. } = self {
            builder.insert_header((header::RETRY_AFTER, retry_after.to_string()));
        }
        let mut res = builder.json(ErrorBody {
            message: &message,
            code: self.code(),
        });
        crate::security_headers::apply_security_headers(res.headers_mut(), false);
        res
    }
}

/// Builds an error response outside the `ApiError` flow (panics, default services).
pub fn json_error(status: StatusCode, code: &str, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(ErrorBody { message, code })
}

pub type ApiResult<T> = Result<T, ApiError>;

/// The domain's refusals at the HTTP edge: a 400 with the domain's message (and code), a 413 for
/// what is too large.
impl From<crate::domain::error::DomainError> for ApiError {
    fn from(err: crate::domain::error::DomainError) -> Self {
        use crate::domain::error::DomainError;
        match err {
            DomainError::Invalid(message) => ApiError::BadRequest(message),
            DomainError::InvalidCoded { code, message } => ApiError::Invalid { code, message },
            DomainError::TooLarge(message) => ApiError::PayloadTooLarge(message),
        }
    }
}

/// A database failure as the API answers it (503 when the database is away, 409 for a duplicate).
impl From<crate::persistence::DbError> for ApiError {
    fn from(err: crate::persistence::DbError) -> Self {
        use crate::persistence::DbError;
        match err {
            DbError::Unavailable(e) => ApiError::Unavailable(e.into()),
            DbError::Duplicate(what) => ApiError::Conflict(format!("{what} already exists")),
            DbError::Other(e) => ApiError::Internal(e),
        }
    }
}
