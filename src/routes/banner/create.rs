//! `POST /api/bannerNotification/create` {title, message, region?, link?, expiresAt?, sticky?}
//! (administrators) → 201 {message, notification}: a new banner, pushed to everyone
//! (`newBroadcastNotification`). `region` is `global` (the default) or a country code or name;
//! a non-sticky banner disappears at `expiresAt`. An `urgent` global banner is also pushed to the
//! devices of people with no tab open (`services::push`).

use actix_web::{web, HttpResponse};
use mongodb::bson::DateTime;
use serde::Deserialize;

use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::banners::{self, BannerInput, BannerView, GLOBAL_REGION};
use crate::state::AppState;

pub const MSG_CREATED: &str = "Banner notification created";
pub const MSG_TITLE_REQUIRED: &str = "Title is required";
pub const MSG_MESSAGE_REQUIRED: &str = "Message is required";
pub const MSG_BAD_LINK: &str = "Link must be an http(s) address or a path starting with /";
pub const MSG_BAD_EXPIRY: &str = "expiresAt must be an ISO-8601 date and time";
pub const MSG_PAST_EXPIRY: &str = "expiresAt must be in the future";
pub const MAX_TITLE_LEN: usize = 200;
pub const MAX_MESSAGE_LEN: usize = 2000;
pub const MAX_REGION_LEN: usize = 100;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateBody {
    title: Option<String>,
    message: Option<String>,
    region: Option<String>,
    link: Option<String>,
    expires_at: Option<String>,
    sticky: Option<bool>,
    /// Also push it to the devices of people with no tab open (global banners only).
    urgent: Option<bool>,
}

fn required(raw: Option<String>, missing: &str, field: &str, max: usize) -> ApiResult<String> {
    let text = raw.map(|s| s.trim().to_string()).unwrap_or_default();
    if text.is_empty() {
        return Err(ApiError::bad_request(missing));
    }
    if text.chars().count() > max {
        return Err(ApiError::bad_request(format!(
            "{field} must be at most {max} characters"
        )));
    }
    Ok(text)
}

/// A banner link: an http(s) address or a path inside the site. Browsers read a backslash as a
/// slash, so `/\host` would leave the site like `//host`: no backslashes at all.
pub fn parse_link(raw: Option<String>) -> ApiResult<Option<String>> {
    let Some(link) = raw.map(|l| l.trim().to_string()).filter(|l| !l.is_empty()) else {
        return Ok(None);
    };
    let lower = link.to_lowercase();
    let ok =
        (lower.starts_with("https://") || lower.starts_with("http://") || link.starts_with('/'))
            && !link.starts_with("//")
            && !link.contains('\\')
            && link.len() <= 2000
            && !link.chars().any(char::is_whitespace);
    if ok {
        Ok(Some(link))
    } else {
        Err(ApiError::bad_request(MSG_BAD_LINK))
    }
}

/// An expiry in the future, or none.
pub fn parse_expiry(raw: Option<String>, at: DateTime) -> ApiResult<Option<DateTime>> {
    let Some(raw) = raw.map(|r| r.trim().to_string()).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    let parsed = chrono::DateTime::parse_from_rfc3339(&raw)
        .map_err(|_| ApiError::bad_request(MSG_BAD_EXPIRY))?;
    let expires = DateTime::from_millis(parsed.timestamp_millis());
    if expires <= at {
        return Err(ApiError::bad_request(MSG_PAST_EXPIRY));
    }
    Ok(Some(expires))
}

/// `{message, notification}`: the banner as created.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct BannerCreatedAnswer {
    message: &'static str,
    notification: BannerView,
}

#[tracing::instrument(skip_all)]
pub async fn create(
    state: web::Data<AppState>,
    AdminUser(me): AdminUser,
    body: ApiJson<CreateBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let title = required(body.title, MSG_TITLE_REQUIRED, "Title", MAX_TITLE_LEN)?;
    let message = required(
        body.message,
        MSG_MESSAGE_REQUIRED,
        "Message",
        MAX_MESSAGE_LEN,
    )?;
    let region = match body
        .region
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty())
    {
        None => GLOBAL_REGION.to_string(),
        Some(r) if r.eq_ignore_ascii_case(GLOBAL_REGION) => GLOBAL_REGION.to_string(),
        Some(r) if r.chars().count() > MAX_REGION_LEN => {
            return Err(ApiError::bad_request(format!(
                "Region must be at most {MAX_REGION_LEN} characters"
            )))
        }
        Some(r) => r,
    };
    let at = DateTime::now();
    let input = BannerInput {
        title,
        message,
        link: parse_link(body.link)?,
        region,
        expires_at: parse_expiry(body.expires_at, at)?,
        sticky: body.sticky.unwrap_or(false),
        urgent: body.urgent.unwrap_or(false),
        at,
    };
    Ok(HttpResponse::Created().json(BannerCreatedAnswer {
        message: MSG_CREATED,
        notification: banners::create(&state, &me, input).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_web_addresses_or_site_paths() {
        for ok in ["https://example.com/a", "http://x.y", "/post/a"] {
            assert!(parse_link(Some(ok.into())).is_ok(), "case {ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "//evil.example",
            "ftp://x",
            "https://a b",
            "/\\evil.example",
            "/\\/evil.example",
        ] {
            assert!(parse_link(Some(bad.into())).is_err(), "case {bad}");
        }
        assert_eq!(parse_link(Some(" ".into())).unwrap(), None);
    }

    #[test]
    fn an_expiry_must_be_a_future_date() {
        let at = DateTime::now();
        assert!(parse_expiry(Some("2999-01-01T00:00:00Z".into()), at)
            .unwrap()
            .is_some());
        assert_eq!(
            parse_expiry(Some("2000-01-01T00:00:00Z".into()), at)
                .unwrap_err()
                .to_string(),
            MSG_PAST_EXPIRY
        );
        assert_eq!(
            parse_expiry(Some("tomorrow".into()), at)
                .unwrap_err()
                .to_string(),
            MSG_BAD_EXPIRY
        );
    }
}
