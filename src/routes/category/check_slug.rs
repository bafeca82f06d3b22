//! `GET /api/category/check-slug?slug&type=category` → {isAvailable}. `type=post` checks post
//! slugs. A slug that breaks the rules is not available; the answer then says why.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::domain::slug::Slug;
use crate::error::{ApiError, ApiResult};
use crate::services::categories;
use crate::state::AppState;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CheckSlugQuery {
    #[serde(default)]
    slug: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

/// `{isAvailable, message?}`: whether the slug is free; `message` says why a slug cannot be used.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlugAnswer {
    is_available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[tracing::instrument(skip(state))]
pub async fn check_slug(
    state: web::Data<AppState>,
    query: web::Query<CheckSlugQuery>,
) -> ApiResult<HttpResponse> {
    let query = query.into_inner();
    let raw = query.slug.unwrap_or_default();
    if raw.trim().is_empty() {
        return Err(ApiError::bad_request("Slug is required"));
    }
    let slug = match Slug::parse(&raw) {
        Ok(s) => s,
        Err(e) => {
            return Ok(HttpResponse::Ok().json(SlugAnswer {
                is_available: false,
                message: Some(e.to_string()),
            }))
        }
    };
    let of_posts = match query.kind.as_deref().map(str::trim).unwrap_or("category") {
        "" | "category" => false,
        "post" => true,
        _ => return Err(ApiError::bad_request("type must be category or post")),
    };
    let taken = categories::slug_taken(&state, &slug, of_posts).await?;
    Ok(HttpResponse::Ok().json(SlugAnswer {
        is_available: !taken,
        message: None,
    }))
}
