//! `/api/newsletter/*`: email-only subscribers of an author (double opt-in) and the one-click
//! unsubscribe link of new-post emails.
//!
//! - `POST /api/newsletter/{authorId}/subscribe {email}` → 200 {message}: sends a confirmation
//!   link to the address (nothing else ever goes to it before it is confirmed). The answer is the
//!   same whether the address was new, pending or subscribed already (nothing is disclosed); an
//!   address already confirmed gets no mail. Rate-limited per address and per client address.
//! - `GET`/`POST /api/newsletter/confirm?token=…` → a page: the address becomes a subscriber. A
//!   link is good for [`CONFIRM_TTL_HOURS`] and once.
//! - `GET`/`POST /api/newsletter/unsubscribe?token=…` → a page: RFC 8058 one-click unsubscribe
//!   (mail programs POST `List-Unsubscribe=One-Click`). For a follower it turns that author's
//!   alerts `off` (the follow stays); for an email-only subscriber it ends the subscription.

use actix_web::http::header::ContentType;
use actix_web::{web, HttpRequest, HttpResponse};
use mongodb::bson::DateTime;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::domain::params::object_id;
use crate::domain::Email;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::mail::{MailKind, Outgoing};
use crate::net::client_key;
use crate::pages::html::escape;
use crate::persistence::follows::{self, Alerts};
use crate::persistence::post_mail::{self, Confirmation};
use crate::persistence::{now, users};
use crate::ratelimit::Kind;
use crate::services::jobs::announce::{verify_unsubscribe_token, Recipient};
use crate::services::people::MSG_USER_NOT_FOUND;
use crate::state::AppState;

/// How long a confirmation link works.
pub const CONFIRM_TTL_HOURS: i64 = 48;
pub const MSG_CHECK_INBOX: &str =
    "Check your inbox: if this address can be subscribed, a confirmation link is on its way.";
pub const MSG_CONFIRMED: &str =
    "Your subscription is confirmed. New posts will come to your inbox.";
pub const MSG_LINK_USED: &str =
    "This confirmation link has expired or was already used. Please subscribe again to get a new one.";
pub const MSG_UNSUBSCRIBED: &str = "You will no longer get emails of new posts from this author.";
pub const MSG_BAD_LINK: &str =
    "This link is not valid. Please use the link from a recent email, or change your email choices after signing in.";

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct SubscribeBody {
    #[serde(default)]
    pub email: Option<String>,
}

/// `{message}`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SubscribeAnswer {
    message: String,
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TokenQuery {
    #[serde(default)]
    token: Option<String>,
}

/// SHA-256 of a confirmation token, as stored.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.trim().as_bytes()))
}

fn page(title: &str, text: &str, link: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{t} · Pressroom</title></head><body style=\"font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5\"><main><h1>{t}</h1><p>{x}</p><p><a href=\"{l}\">Pressroom</a></p></main></body></html>",
        t = escape(title),
        x = escape(text),
        l = escape(link),
    )
}

fn html(status: actix_web::http::StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type(ContentType::html())
        .body(body)
}

#[tracing::instrument(skip_all)]
pub async fn subscribe(
    state: web::Data<AppState>,
    req: HttpRequest,
    author_id: web::Path<String>,
    body: ApiJson<SubscribeBody>,
) -> ApiResult<HttpResponse> {
    let author = object_id(&author_id, "author id")?;
    let email = Email::parse(body.into_inner().email.as_deref().unwrap_or_default())?;
    let address = client_key(&req, &state.trusted_proxies);
    state
        .limiter
        .hit_both(
            (Kind::NewsletterEmail, email.as_str()),
            (Kind::NewsletterAddress, &address),
        )
        .await?;
    let writer = users::find_by_id(&state.db, author)
        .await?
        .filter(|u| !u.blocked)
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    let email = email.as_str().to_lowercase();
    let mut raw = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut raw);
    let token = hex::encode(raw);
    let expires = DateTime::from_millis(now().timestamp_millis() + CONFIRM_TTL_HOURS * 3_600_000);
    if post_mail::start_pending(&state.db, author, &email, &token_hash(&token), expires).await? {
        let link = state
            .settings
            .public_link(&format!("/api/newsletter/confirm?token={token}"));
        let body = format!(
            "Hello,\n\nSomeone (we hope you) asked to get new posts by {name} on Pressroom at this address.\nTo confirm, open this link within {CONFIRM_TTL_HOURS} hours:\n\n{link}\n\nIf it was not you, ignore this email: nothing more will be sent.\n",
            name = writer.name,
        );
        let subject = format!("Confirm your subscription to {}", writer.name);
        let mail = Outgoing::new(MailKind::NewsletterConfirm, &email, &subject, body);
        let state = state.clone();
        // The answer does not wait for the mail (and so does not tell anything by its timing).
        tokio::spawn(async move {
            state.mailer.send_mail(mail).await;
        });
    }
    Ok(HttpResponse::Ok().json(SubscribeAnswer {
        message: MSG_CHECK_INBOX.to_string(),
    }))
}

#[tracing::instrument(skip_all)]
pub async fn confirm(
    state: web::Data<AppState>,
    query: web::Query<TokenQuery>,
) -> ApiResult<HttpResponse> {
    use actix_web::http::StatusCode;
    let home = state.settings.public_link("/");
    let Some(token) = query.token.as_deref().filter(|t| !t.trim().is_empty()) else {
        return Ok(html(
            StatusCode::BAD_REQUEST,
            page("Link not valid", MSG_LINK_USED, &home),
        ));
    };
    Ok(
        match post_mail::confirm(&state.db, &token_hash(token)).await? {
            Confirmation::Confirmed(author) => {
                let link = state
                    .settings
                    .public_link(&format!("/author-profile/{}", author.to_hex()));
                html(StatusCode::OK, page("Subscribed", MSG_CONFIRMED, &link))
            }
            Confirmation::Expired | Confirmation::Unknown => html(
                StatusCode::BAD_REQUEST,
                page("Link not valid", MSG_LINK_USED, &home),
            ),
        },
    )
}

#[tracing::instrument(skip_all)]
pub async fn unsubscribe(
    state: web::Data<AppState>,
    query: web::Query<TokenQuery>,
) -> ApiResult<HttpResponse> {
    use actix_web::http::StatusCode;
    let secret = secrecy::ExposeSecret::expose_secret(&state.settings.auth.jwt_secret);
    let settings_link = state.settings.public_link("/user-setting");
    let found = query
        .token
        .as_deref()
        .and_then(|t| verify_unsubscribe_token(secret.as_bytes(), t));
    let Some((author, who)) = found else {
        return Ok(html(
            StatusCode::BAD_REQUEST,
            page("Link not valid", MSG_BAD_LINK, &settings_link),
        ));
    };
    match who {
        // Not following any more: nothing is sent anyway.
        Recipient::Follower(user) => {
            follows::set_alerts(&state.db, user, author, Alerts::Off).await?;
        }
        Recipient::Subscriber(id) => {
            post_mail::unsubscribe_subscriber(&state.db, id).await?;
        }
        // `author` is the series: its new parts are no longer emailed (the follow stays).
        Recipient::SeriesFollower(user) => {
            crate::persistence::series::set_alerts(&state.db, author, user, Alerts::Off).await?;
        }
    }
    Ok(html(
        StatusCode::OK,
        page("Unsubscribed", MSG_UNSUBSCRIBED, &settings_link),
    ))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SuppressionQuery {
    #[serde(default)]
    page: Option<String>,
    #[serde(default)]
    limit: Option<String>,
}

/// One suppressed address.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuppressionEntry {
    email: String,
    /// `hard_bounce` or `complaint`.
    reason: String,
    detail: Option<String>,
    created_at: String,
}

/// `{list, count, page, limit, totalPages}`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuppressionListAnswer {
    list: Vec<SuppressionEntry>,
    count: u64,
    page: u64,
    limit: i64,
    total_pages: u64,
}

/// `GET /api/admin/email-suppressions?page&limit`: addresses no new-post email goes to any more
/// (they refused mail permanently or complained), newest first.
#[tracing::instrument(skip(state, _admin))]
pub async fn suppressions(
    state: web::Data<AppState>,
    _admin: crate::auth::AdminUser,
    query: web::Query<SuppressionQuery>,
) -> ApiResult<HttpResponse> {
    let (page, limit) =
        crate::domain::params::paging(query.page.as_deref(), query.limit.as_deref(), 20, 100)?;
    let skip = (page - 1) * u64::try_from(limit).unwrap_or(0);
    let (list, total) = post_mail::suppressions_page(&state.db, skip, limit).await?;
    Ok(HttpResponse::Ok().json(SuppressionListAnswer {
        list: list
            .into_iter()
            .map(|s| SuppressionEntry {
                email: s.email,
                reason: s.reason,
                detail: s.detail,
                created_at: crate::post_view::iso(s.created_at),
            })
            .collect(),
        count: total,
        page,
        limit,
        total_pages: crate::domain::params::total_pages(total, limit),
    }))
}
