//! `GET /api/post/suggested-post/suggested?limit=4&category&exclude` → {posts}: posts to read
//! next. Listable posts (minus authors on either side of a block with the caller), the given
//! category (id or slug) first, then others, each by trending score; `exclude` (comma-separated
//! post ids or slugs, usually the open post) is left out. `limit` defaults to 4, at most 20.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;

use serde_json::value::RawValue;

use crate::auth::{AuthUser, MaybeUser};
use crate::error::{ApiError, ApiResult};
use crate::feeds::cards::ReadError;
use crate::feeds::keys;
use crate::feeds::read::{Dir, Filter, ListQuery};
use crate::services::feed::{suggested_from_db, to_raw};
use crate::services::posts::find_category;
use crate::services::posts::{PageRequest, SortKind};
use crate::state::AppState;

pub const SUGGESTED_LIMIT: i64 = 4;
pub const MAX_SUGGESTED_LIMIT: i64 = 20;
/// Most posts `exclude` may name.
pub const MAX_EXCLUDED: usize = 50;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
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
        Some(raw) => find_category(&state, raw).await?,
    };
    let me = viewer.0.as_ref();
    match from_index(&state, me, category, &excluded_ids, &excluded_slugs, limit).await {
        Ok(posts) => return Ok(answer(&posts)),
        Err(ReadError::Db(e)) => return Err(e.into()),
        Err(ReadError::Index(_)) => {}
    }
    let posts = suggested_from_db(
        &state.db,
        me,
        category,
        &excluded_ids,
        &excluded_slugs,
        limit,
    )
    .await?;
    Ok(answer(&to_raw(&posts)?))
}

/// The suggestions from the read index: the category's trending list first, then the rest.
async fn from_index(
    state: &AppState,
    viewer: Option<&AuthUser>,
    category: Option<ObjectId>,
    excluded_ids: &[ObjectId],
    excluded_slugs: &[String],
    limit: i64,
) -> Result<Vec<Box<RawValue>>, ReadError> {
    let Some(gen) = state.feeds.current() else {
        return Err(crate::redis_pool::RedisFailure::Down.into());
    };
    let hidden = match viewer {
        Some(me) => {
            state
                .feeds
                .viewer_graph(&gen, me.user.id, false)
                .await?
                .hidden
        }
        None => Default::default(),
    };
    let filter = Filter {
        hidden_authors: hidden,
        exclude_ids: excluded_ids.iter().copied().collect(),
        exclude_slugs: excluded_slugs.iter().cloned().collect(),
        ..Filter::default()
    };
    let page = |limit| PageRequest {
        limit,
        ..PageRequest::default()
    };
    let mut found = Vec::new();
    if let Some(c) = category {
        let list = gen.list(&keys::category_trend(&c));
        let q = ListQuery {
            sources: vec![list.clone()],
            twins: vec![list],
            dir: Dir::Desc,
            filter: filter.clone(),
        };
        found = state
            .feeds
            .page(&gen, &q, SortKind::Trending, page(limit))
            .await?;
    }
    let missing = limit - i64::try_from(found.len()).unwrap_or(limit);
    if missing > 0 {
        let list = gen.list(keys::PUBLIC_TREND);
        let q = ListQuery {
            sources: vec![list.clone()],
            twins: vec![list],
            dir: Dir::Desc,
            filter: Filter {
                not_category: category,
                ..filter
            },
        };
        found.extend(
            state
                .feeds
                .page(&gen, &q, SortKind::Trending, page(missing))
                .await?,
        );
    }
    found.truncate(usize::try_from(limit).unwrap_or(0));
    let ids: Vec<ObjectId> = found.iter().filter_map(|e| e.id()).collect();
    let posts = state.feeds.render(&gen, &ids).await?;
    super::unlock_raw(state, &gen, viewer, posts).await
}

fn answer(posts: &[Box<RawValue>]) -> HttpResponse {
    super::PostsAnswer::respond(posts)
}
