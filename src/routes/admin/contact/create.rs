//! `POST /api/admin/contact` {name, email, subject, message} → 201 {message, id}: anyone, guests
//! included, writes to the administrators. Name 1 to 100 characters, a plausible email, subject
//! 1 to 200 characters on one line, message 1 to 5000 characters. Rate limited per sender email
//! and per client address. Stored unhandled; administrators hear `newContactMessage` at once.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use super::{line_field, text_field, MAX_MESSAGE_LEN, MAX_SUBJECT_LEN};
use crate::auth::MaybeUser;
use crate::domain::{Email, PersonName};
use crate::error::ApiResult;
use crate::extract::ApiJson;
use crate::net::client_key;
use crate::ratelimit::Kind;
use crate::services::contact::{self, NewMessage};
use crate::state::AppState;

pub const MSG_SENT: &str = "Thank you for your message. We will get back to you soon.";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ContactBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    subject: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// `{message, id}`: the message is stored.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ContactSent {
    pub message: String,
    pub id: String,
}

#[tracing::instrument(skip_all)]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    user: MaybeUser,
    body: ApiJson<ContactBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let name = PersonName::parse(body.name.as_deref().unwrap_or_default())?.into_string();
    let email = Email::parse(body.email.as_deref().unwrap_or_default())?;
    let subject = line_field(body.subject.as_deref(), "Subject", MAX_SUBJECT_LEN)?;
    let message = text_field(body.message.as_deref(), "Message", MAX_MESSAGE_LEN)?;
    let address = client_key(&req, &state.trusted_proxies);
    state
        .limiter
        .hit_both(
            (Kind::ContactEmail, email.as_str()),
            (Kind::ContactAddress, &address),
        )
        .await?;
    let new = NewMessage {
        name,
        email: email.as_str().to_string(),
        subject,
        message,
        user_id: user.0.map(|u| u.user.id),
    };
    let id = contact::send(&state, new).await?;
    Ok(HttpResponse::Created().json(ContactSent {
        message: MSG_SENT.to_string(),
        id: id.to_hex(),
    }))
}
