//! `GET /api/post/suggested-post/suggested?limit=4&category&exclude` → {posts}: posts to read
//! next. Listable posts (minus authors on either side of a block with the caller), the given
//! category (id or slug) first, then others, each by trending score; `exclude` (comma-separated
//! post ids or slugs, usually the open post) is left out. `limit` defaults to 4, at most 20.

use actix_web::{web, HttpResponse};
use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;
use serde_json::json;

use super::{list_filter, render};
use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::categories;
use crate::persistence::posts::{self, PageRequest, SortKind};
use crate::state::AppState;

pub const SUGGESTED_LIMIT: i64 = 4;
pub const MAX_SUGGESTED_LIMIT: i64 = 20;
/// Most posts `exclude` may name.
pub const MAX_EXCLUDED: usize = 50;

#[derive(Debug, Default, Deserialize)]
pub struct SuggestedQuery {
    #[serde(default)]
    limit: Option<String>,
    #[serde(default)]
    category: Option<String>,
    #[serde(default)]
    exclude: Option<String>,
}

fn present(v: &Option<String>) -> Option<&str> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "null" && *s != "undefined")
}

#[tracing::instrument(skip(state, viewer))]
pub async fn suggested(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    query: web::Query<SuggestedQuery>,
) -> ApiResult<HttpResponse> {
    let limit = match present(&query.limit) {
        None => SUGGESTED_LIMIT,
        Some(raw) => raw
            .parse::<i64>()
            .ok()
            .filter(|l| *l >= 1)
            .ok_or_else(|| ApiError::bad_request("limit must be a positive whole number"))?
            .min(MAX_SUGGESTED_LIMIT),
    };
    let mut excluded_ids: Vec<ObjectId> = Vec::new();
    let mut excluded_slugs: Vec<String> = Vec::new();
    if let Some(raw) = present(&query.exclude) {
        for item in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match ObjectId::parse_str(item) {
                Ok(id) => excluded_ids.push(id),
                Err(_) => excluded_slugs.push(item.to_string()),
            }
        }
        if excluded_ids.len() + excluded_slugs.len() > MAX_EXCLUDED {
            return Err(ApiError::bad_request(format!(
                "exclude may name at most {MAX_EXCLUDED} posts"
            )));
        }
    }
    // An unknown category only means there is nothing to prefer.
    let category = match present(&query.category) {
        None => None,
        Some(raw) => match ObjectId::parse_str(raw) {
            Ok(id) => categories::find_by_id(&state.db, id).await?.map(|c| c.id),
            Err(_) => categories::find_by_slug(&state.db, raw)
                .await?
                .map(|c| c.id),
        },
    };
    let base = doc! { "_id": { "$nin": &excluded_ids }, "slug": { "$nin": &excluded_slugs } };
    let filter = list_filter(&state.db, viewer.0.as_ref(), false, base).await?;
    let page = |limit| PageRequest {
        limit,
        ..PageRequest::default()
    };
    let mut found = Vec::new();
    if let Some(category) = category {
        let same = doc! { "$and": [filter.clone(), { "category": category }] };
        found = posts::list(&state.db, same, SortKind::Trending, page(limit)).await?;
    }
    let missing = limit - i64::try_from(found.len()).unwrap_or(limit);
    if missing > 0 {
        let mut others = filter;
        if let Some(category) = category {
            others = doc! { "$and": [others, { "category": { "$ne": category } }] };
        }
        found.extend(posts::list(&state.db, others, SortKind::Trending, page(missing)).await?);
    }
    found.truncate(usize::try_from(limit).unwrap_or(0));
    let mut posts = render(&state.db, found).await?;
    super::unlock_for(&state.db, viewer.0.as_ref(), &mut posts).await?;
    Ok(HttpResponse::Ok().json(json!({ "posts": posts })))
}
