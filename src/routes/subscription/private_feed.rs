//! A paying reader's private feed of an author: the author's posts with the subscribers-only
//! ones in full, at a secret address that is never listed anywhere.
//!
//! - `GET /api/subscription/private-feed/{authorId}` → `{url}`: the reader's address (made on
//!   first request); 403 without a subscription giving access to the author now.
//! - `POST /api/subscription/private-feed/{authorId}/reset` → `{url}`: a new address; the old one
//!   stops working at once.
//! - `DELETE /api/subscription/private-feed/{authorId}` → `{message}`: the feed ends.
//!
//! The feed itself (`/feeds/private/...`, `routes::site::feeds`) is served only while the
//! subscription gives access.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use super::lists::{MSG_AUTHOR_NOT_FOUND, MSG_INVALID_AUTHOR_ID};
use crate::auth::AuthUser;
use crate::domain::params::required_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::subscriber_feeds::{self, SubscriberFeed};
use crate::persistence::{subscriptions, users};
use crate::routes::answers::MessageAnswer;
use crate::state::AppState;

pub const MSG_NEEDS_SUBSCRIPTION: &str =
    "A private feed is for readers with an active subscription to this author";
pub const MSG_FEED_ENDED: &str = "Private feed removed";
pub const MSG_NO_FEED: &str = "You have no private feed of this author";

/// `{url}`: the private feed's address.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PrivateFeedAnswer {
    pub url: String,
}

/// The path of a private feed.
pub fn feed_path(feed: &SubscriberFeed) -> String {
    format!(
        "/feeds/private/{}/{}/{}.xml",
        feed.reader.to_hex(),
        feed.author.to_hex(),
        feed.secret
    )
}

/// The author of the path, who must exist, and whom the caller may read in full now.
async fn author_read_in_full(state: &AppState, me: &AuthUser, raw: &str) -> ApiResult<ObjectId> {
    let author = required_id(Some(raw), MSG_INVALID_AUTHOR_ID)?;
    users::find_by_id(&state.db, author)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_AUTHOR_NOT_FOUND))?;
    let access = subscriptions::authors_with_access(&state.db, me.user.id, &[author]).await?;
    if !access.contains(&author) {
        return Err(ApiError::forbidden(MSG_NEEDS_SUBSCRIPTION));
    }
    Ok(author)
}

fn answer(state: &AppState, feed: &SubscriberFeed) -> HttpResponse {
    HttpResponse::Ok().json(PrivateFeedAnswer {
        url: state.settings.public_link(&feed_path(feed)),
    })
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn get(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let author = author_read_in_full(&state, &me, &path).await?;
    let feed = subscriber_feeds::get_or_create(&state.db, me.user.id, author).await?;
    Ok(answer(&state, &feed))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn reset(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let author = author_read_in_full(&state, &me, &path).await?;
    let feed = subscriber_feeds::replace_secret(&state.db, me.user.id, author).await?;
    Ok(answer(&state, &feed))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn remove(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let author = required_id(Some(&path), MSG_INVALID_AUTHOR_ID)?;
    if !subscriber_feeds::remove(&state.db, me.user.id, author).await? {
        return Err(ApiError::not_found(MSG_NO_FEED));
    }
    Ok(HttpResponse::Ok().json(MessageAnswer::new(MSG_FEED_ENDED)))
}
