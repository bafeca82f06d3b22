//! `POST /api/post/view/{slug}` → {views}: counts a view of a post the caller may read, once per
//! viewer per 30 minutes (`views::VIEW_WINDOW_MS`). A viewer is the signed-in user, else the
//! guest id (body `{guestId}` or the `X-Guest-Id` header), else the client address. An author's
//! own views are not counted. Shared with `POST /api/public/post/{slug}/view`.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::{visible_to, MSG_INVALID_SLUG, MSG_POST_NOT_FOUND};
use crate::auth::{AuthUser, MaybeUser};
use crate::error::{ApiError, ApiResult};
use crate::extract::parse_json;
use crate::net::client_ip;
use crate::persistence::views;
use crate::state::AppState;

/// Header a guest's client may send its guest id in.
pub const GUEST_HEADER: &str = "x-guest-id";
/// Longest guest id accepted.
pub const MAX_GUEST_ID_LEN: usize = 100;
pub const MSG_INVALID_GUEST_ID: &str = "guestId must be 1 to 100 letters, digits, '-' or '_'";

/// A body that may carry a guest id.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GuestBody {
    #[serde(default)]
    pub guest_id: Option<String>,
}

/// Parses an optional JSON body: nothing at all is the default value.
pub fn optional_body<T: DeserializeOwned + Default>(bytes: &[u8]) -> ApiResult<T> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    parse_json(bytes)
}

/// Who is reading: `user:<id>`, `guest:<id>` or `ip:<address>`.
pub fn viewer_key(
    req: &HttpRequest,
    state: &AppState,
    me: Option<&AuthUser>,
    body_guest: Option<&str>,
) -> ApiResult<String> {
    if let Some(me) = me {
        return Ok(format!("user:{}", me.user.id.to_hex()));
    }
    let header = req
        .headers()
        .get(GUEST_HEADER)
        .and_then(|v| v.to_str().ok());
    let guest = body_guest
        .or(header)
        .map(str::trim)
        .filter(|g| !g.is_empty() && *g != "null" && *g != "undefined");
    if let Some(guest) = guest {
        let valid = guest.len() <= MAX_GUEST_ID_LEN
            && guest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(ApiError::bad_request(MSG_INVALID_GUEST_ID));
        }
        return Ok(format!("guest:{guest}"));
    }
    let ip = client_ip(req, &state.trusted_proxies)
        .map(|ip| ip.to_string())
        .unwrap_or_else(|| "unknown".to_string());
    Ok(format!("ip:{ip}"))
}

/// Counts a view of the post with this slug if the viewer's window allows; returns the post's
/// view count.
/// `{views}`: the post's count of views after this one.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ViewsAnswer {
    pub views: i64,
}

pub async fn track_view(
    state: &AppState,
    req: &HttpRequest,
    me: Option<&AuthUser>,
    slug: &str,
    body: &[u8],
) -> ApiResult<i64> {
    let slug = slug.trim();
    if slug.is_empty() || slug == "undefined" || slug == "null" {
        return Err(ApiError::bad_request(MSG_INVALID_SLUG));
    }
    let body: GuestBody = optional_body(body)?;
    let post = super::find_by_slug(state, slug)
        .await?
        .filter(|p| visible_to(p, me))
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let viewer = viewer_key(req, state, me, body.guest_id.as_deref())?;
    let own = me.is_some_and(|m| m.user.id == post.author);
    if own || !views::claim(&state.db, post.id, &viewer).await? {
        return Ok(post.views.max(0));
    }
    views::record(&state.db, post.id, &viewer, me.map(|m| m.user.id))
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))
}

#[tracing::instrument(skip(state, viewer, req, body))]
pub async fn view(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    req: HttpRequest,
    slug: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let views = track_view(&state, &req, viewer.0.as_ref(), &slug, &body).await?;
    Ok(HttpResponse::Ok().json(ViewsAnswer { views }))
}
