//! `PATCH /api/user/update-user` → {data}: profile fields (and `dailyPostEmail`, whether to
//! receive the daily post email) only. Anything else in the body (role,
//! blocked, isAccountVerified, email, counters...) is refused with a 400 naming the field.
//! `avatar` may be an http(s) address, a `/media/` address already stored, or a picture as a
//! base64 data URL (PNG, JPEG, GIF or WebP, at most 5 MB), which goes to the media store; the
//! previous avatar's file is released.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::OwnUserAnswer;
use crate::auth::AuthUser;
use crate::domain::image::{decode_data_url, is_data_url};
use crate::domain::PersonName;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::services::profile::{self, AvatarChange, ProfileChanges};
use crate::state::AppState;

pub const MAX_BIO_LEN: usize = 500;
pub const MAX_SHORT_FIELD_LEN: usize = 100;
pub const MAX_URL_LEN: usize = 2048;

/// The editable profile. A field that is absent stays as it is; `null` or "" clears it.
#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateUserBody {
    #[serde(default)]
    name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    avatar: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    bio: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    region: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    website: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    location: Option<Option<String>>,
    /// Whether to receive the daily post email.
    #[serde(default)]
    daily_post_email: Option<bool>,
}

/// Distinguishes an explicit `null` (Some(None)) from an absent field (None).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Ok(Some(Option::<String>::deserialize(d)?))
}

fn text(
    field: &str,
    value: Option<Option<String>>,
    max: usize,
) -> Result<Option<Option<String>>, ApiError> {
    let Some(value) = value else { return Ok(None) };
    let value = value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    if let Some(v) = &value {
        if v.chars().count() > max {
            return Err(ApiError::bad_request(format!(
                "{field} must be at most {max} characters"
            )));
        }
        if v.chars().any(|c| c.is_control() && c != '\n') {
            return Err(ApiError::bad_request(format!(
                "{field} contains invalid characters"
            )));
        }
    }
    Ok(Some(value))
}

fn url(field: &str, value: Option<Option<String>>) -> Result<Option<Option<String>>, ApiError> {
    let value = text(field, value, MAX_URL_LEN)?;
    if let Some(Some(v)) = &value {
        let lower = v.to_ascii_lowercase();
        if !(lower.starts_with("https://")
            || lower.starts_with("http://")
            || lower.starts_with("/media/"))
        {
            return Err(ApiError::bad_request(format!(
                "{field} must be an http(s) address"
            )));
        }
    }
    Ok(value)
}

/// Reads `avatar`: a data URL is decoded and checked (nothing is written yet).
fn avatar(value: Option<Option<String>>) -> Result<Option<AvatarChange>, ApiError> {
    match value {
        Some(Some(v)) if is_data_url(&v) => Ok(Some(AvatarChange::Picture(decode_data_url(&v)?))),
        other => Ok(url("avatar", other)?.map(AvatarChange::Address)),
    }
}

#[tracing::instrument(skip_all)]
pub async fn update_user(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<UpdateUserBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let changes = ProfileChanges {
        name: body
            .name
            .as_deref()
            .map(PersonName::parse)
            .transpose()?
            .map(PersonName::into_string),
        avatar: None,
        bio: text("bio", body.bio, MAX_BIO_LEN)?,
        region: text("region", body.region, MAX_SHORT_FIELD_LEN)?,
        website: url("website", body.website)?,
        location: text("location", body.location, MAX_SHORT_FIELD_LEN)?,
        daily_post_email: body.daily_post_email,
    };
    let avatar = avatar(body.avatar)?;
    // Every field is valid: only now is anything written.
    let user = profile::update(&state, &me, changes, avatar).await?;
    Ok(HttpResponse::Ok().json(OwnUserAnswer { data: user }))
}
