//! `GET` and `POST /api/dailyMail/unsubscribe?token=…`: the daily post email's one-click
//! unsubscribe link (RFC 8058: mail programs POST to it, people open it). It needs no sign-in: the
//! token is the user's id signed with the server secret. It answers a small page saying what
//! happened; a link whose signature is wrong is a 400 page. Repeating it is harmless; the user
//! turns the email back on in their settings (`dailyPostEmail` in update-user).

use actix_web::http::header::ContentType;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::error::ApiResult;
use crate::services::daily_mail;
use crate::services::jobs::daily_mail::verify_unsubscribe_token;
use crate::state::AppState;

pub const MSG_UNSUBSCRIBED: &str =
    "You will no longer receive the daily post email from Pressroom.";
pub const MSG_BAD_LINK: &str = "This unsubscribe link is not valid. Please use the link from a recent email, or change your email settings after signing in.";

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnsubscribeQuery {
    #[serde(default)]
    token: Option<String>,
}

fn page(title: &str, text: &str, settings_link: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{title} · Pressroom</title></head><body style=\"font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5\"><main><h1>{title}</h1><p>{text}</p><p><a href=\"{settings_link}\">Email settings</a></p></main></body></html>"
    )
}

#[tracing::instrument(skip_all)]
pub async fn unsubscribe(
    state: web::Data<AppState>,
    query: web::Query<UnsubscribeQuery>,
) -> ApiResult<HttpResponse> {
    let secret = secrecy::ExposeSecret::expose_secret(&state.settings.auth.jwt_secret);
    let user = query
        .token
        .as_deref()
        .and_then(|t| verify_unsubscribe_token(secret.as_bytes(), t));
    let settings_link = state.settings.public_link("/user-setting");
    let Some(user) = user else {
        return Ok(HttpResponse::BadRequest()
            .content_type(ContentType::html())
            .body(page("Link not valid", MSG_BAD_LINK, &settings_link)));
    };
    daily_mail::unsubscribe(&state, user).await?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::html())
        .body(page("Unsubscribed", MSG_UNSUBSCRIBED, &settings_link)))
}
