//! Series of posts. Writers: `POST /api/series` {title, description?, cover?, slug?} → 201;
//! `GET /api/series/mine` (their series with every part); `PATCH`/`DELETE /api/series/{series}`;
//! `POST /api/series/{series}/posts` {postId} (adds a part at the end);
//! `PUT /api/series/{series}/posts` {postIds} (the full order of the parts);
//! `DELETE /api/series/{series}/posts/{postId}`. Readers: `GET /api/series/{series}` (by slug or
//! id: the series and its visible parts in order, with what the reader has read);
//! `POST`/`DELETE /api/series/{series}/follow`; `PUT /api/series/{series}/follow/alerts` {mode}
//! (`instant`, `digest` or `off`, as for an author's new posts).

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::{AuthUser, MaybeUser};
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::series::{self as store, Series};
use crate::services::series::{
    self, ManagedPart, PartView, SeriesView, MSG_SERIES_CREATED, MSG_SERIES_DELETED,
    MSG_SERIES_NOT_FOUND, MSG_SERIES_UPDATED,
};
use crate::state::AppState;

/// A series as its writer manages it: the readers' view and every part.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManagedSeries {
    #[serde(flatten)]
    series: SeriesView,
    /// Every part in order, visible to readers or not.
    parts: Vec<ManagedPart>,
}

async fn managed(state: &AppState, me: &AuthUser, series: &Series) -> ApiResult<ManagedSeries> {
    let parts = series::managed_parts(state, series).await?;
    let visible = parts.iter().filter(|p| p.visible).count();
    Ok(ManagedSeries {
        series: series::view(state, series, Some(me), visible).await?,
        parts,
    })
}

/// `{message, series}`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SeriesChangedAnswer {
    message: &'static str,
    series: ManagedSeries,
}

fn changed(message: &'static str, series: ManagedSeries) -> SeriesChangedAnswer {
    SeriesChangedAnswer { message, series }
}

/// `{title, description?, cover?, slug?}`.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct SeriesBody {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    /// A web address or a picture stored here; empty for none.
    #[serde(default)]
    cover: Option<String>,
    /// The address (`/series/{slug}`); made from the title when not given.
    #[serde(default)]
    slug: Option<String>,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<SeriesBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let title = series::parse_title(body.title.as_deref())?;
    let description = series::parse_description(body.description.as_deref())?;
    let cover = series::parse_cover(body.cover.as_deref())?;
    let slug = match body
        .slug
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        Some(s) => Some(series::parse_slug(s)?),
        None => None,
    };
    let created = series::create(&state, &me, title, description, cover, slug).await?;
    Ok(HttpResponse::Created().json(changed(
        MSG_SERIES_CREATED,
        managed(&state, &me, &created).await?,
    )))
}

/// `{series}`: the caller's series, newest first, each with every part.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MySeriesAnswer {
    series: Vec<ManagedSeries>,
}

#[tracing::instrument(skip(state, me))]
pub async fn mine(state: web::Data<AppState>, me: AuthUser) -> ApiResult<HttpResponse> {
    let mut out = Vec::new();
    for s in store::by_author(&state.db, me.user.id).await? {
        out.push(managed(&state, &me, &s).await?);
    }
    Ok(HttpResponse::Ok().json(MySeriesAnswer { series: out }))
}

#[tracing::instrument(skip(state, me, body))]
pub async fn update(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: ApiJson<SeriesBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let current = series::owned(&state, &me, &id).await?;
    let mut set = mongodb::bson::Document::new();
    if body.title.is_some() {
        set.insert("title", series::parse_title(body.title.as_deref())?);
    }
    if body.description.is_some() {
        set.insert(
            "description",
            series::parse_description(body.description.as_deref())?,
        );
    }
    if body.cover.is_some() {
        set.insert("cover", series::parse_cover(body.cover.as_deref())?);
    }
    if let Some(slug) = body.slug.as_deref() {
        set.insert("slug", series::parse_slug(slug)?);
    }
    let updated = store::update_details(&state.db, current.id, set)
        .await
        .map_err(series::slug_clash)?
        .ok_or_else(|| ApiError::not_found(MSG_SERIES_NOT_FOUND))?;
    series::details_changed(&state, &updated).await;
    Ok(HttpResponse::Ok().json(changed(
        MSG_SERIES_UPDATED,
        managed(&state, &me, &updated).await?,
    )))
}

/// `{message}`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SeriesDeletedAnswer {
    message: &'static str,
}

#[tracing::instrument(skip(state, me))]
pub async fn delete(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let current = series::owned(&state, &me, &id).await?;
    series::delete(&state, current).await?;
    Ok(HttpResponse::Ok().json(SeriesDeletedAnswer {
        message: MSG_SERIES_DELETED,
    }))
}

/// `{postId}`: a post of the writer's to add at the end.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddPartBody {
    #[serde(default)]
    post_id: Option<String>,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn add_part(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: ApiJson<AddPartBody>,
) -> ApiResult<HttpResponse> {
    let current = series::owned(&state, &me, &id).await?;
    let raw = body
        .into_inner()
        .post_id
        .ok_or_else(|| ApiError::bad_request("postId is required"))?;
    let updated = series::add_part(&state, current, &raw).await?;
    Ok(HttpResponse::Ok().json(changed(
        "Post added to the series",
        managed(&state, &me, &updated).await?,
    )))
}

/// `{postIds}`: every part of the series, in the new order.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderBody {
    #[serde(default)]
    post_ids: Option<Vec<String>>,
}

#[tracing::instrument(skip(state, me, body))]
pub async fn reorder(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: ApiJson<OrderBody>,
) -> ApiResult<HttpResponse> {
    let current = series::owned(&state, &me, &id).await?;
    let order = body
        .into_inner()
        .post_ids
        .ok_or_else(|| ApiError::bad_request("postIds is required"))?;
    let updated = series::reorder(&state, current, &order).await?;
    Ok(HttpResponse::Ok().json(changed(
        "Parts reordered",
        managed(&state, &me, &updated).await?,
    )))
}

#[tracing::instrument(skip(state, me))]
pub async fn remove_part(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (id, post) = path.into_inner();
    let current = series::owned(&state, &me, &id).await?;
    let updated = series::remove_part(&state, current, &post).await?;
    Ok(HttpResponse::Ok().json(changed(
        "Post taken out of the series",
        managed(&state, &me, &updated).await?,
    )))
}

/// `{series, parts, progress}`: the series and its visible parts in order.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SeriesAnswer {
    series: SeriesView,
    parts: Vec<PartView>,
    progress: Progress,
}

/// How many of the visible parts the reader has read.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Progress {
    read: usize,
    total: usize,
}

/// The series a path segment names: its slug, else its id.
pub async fn find(state: &AppState, raw: &str) -> ApiResult<Series> {
    let raw = raw.trim();
    if let Some(s) = store::find_by_slug(&state.db, raw).await? {
        return Ok(s);
    }
    let by_id = match mongodb::bson::oid::ObjectId::parse_str(raw) {
        Ok(id) => store::find_by_id(&state.db, id).await?,
        Err(_) => None,
    };
    by_id.ok_or_else(|| ApiError::not_found(MSG_SERIES_NOT_FOUND))
}

#[tracing::instrument(skip(state, viewer))]
pub async fn get(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    slug: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let found = find(&state, &slug).await?;
    Ok(HttpResponse::Ok().json(answer(&state, &found, viewer.0.as_ref()).await?))
}

/// The series and its visible parts as `viewer` (or a guest) sees them: the answer of
/// `GET /api/series/{series}`, also the initial data of the series' server-rendered page.
pub async fn answer(
    state: &AppState,
    found: &Series,
    viewer: Option<&AuthUser>,
) -> ApiResult<SeriesAnswer> {
    let visible = series::visible_parts(state, found).await?;
    let parts = series::part_views(state, &visible, viewer).await?;
    let read = parts.iter().filter(|p| p.read).count();
    Ok(SeriesAnswer {
        series: series::view(state, found, viewer, parts.len()).await?,
        progress: Progress {
            read,
            total: parts.len(),
        },
        parts,
    })
}

/// `{following, followers, alerts}`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct FollowAnswer {
    following: bool,
    followers: u64,
    /// How the caller hears of new parts; null when not following.
    alerts: Option<String>,
}

pub const MSG_NOT_FOLLOWING_SERIES: &str = "You do not follow this series";

/// `PUT /api/series/{series}/follow/alerts` {mode}: how the caller hears of new parts.
#[tracing::instrument(skip(state, me, body))]
pub async fn set_alerts(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    body: ApiJson<crate::routes::follow::alerts::AlertsBody>,
) -> ApiResult<HttpResponse> {
    let found = find(&state, &id).await?;
    let mode = body.into_inner().mode()?;
    if !store::set_alerts(&state.db, found.id, me.user.id, mode).await? {
        return Err(ApiError::not_found(MSG_NOT_FOLLOWING_SERIES));
    }
    Ok(HttpResponse::Ok().json(FollowAnswer {
        following: true,
        followers: store::follower_count(&state.db, found.id).await?,
        alerts: Some(mode.as_str().to_string()),
    }))
}

async fn set_follow(
    state: &AppState,
    me: &AuthUser,
    raw: &str,
    on: bool,
) -> ApiResult<HttpResponse> {
    let found = find(state, raw).await?;
    if on {
        if found.author == me.user.id {
            return Err(ApiError::bad_request("You cannot follow your own series"));
        }
        store::follow(&state.db, found.id, me.user.id).await?;
    } else {
        store::unfollow(&state.db, found.id, me.user.id).await?;
    }
    let alerts = if on {
        store::alerts(&state.db, found.id, me.user.id).await?
    } else {
        None
    };
    Ok(HttpResponse::Ok().json(FollowAnswer {
        following: on,
        followers: store::follower_count(&state.db, found.id).await?,
        alerts: alerts.map(|a| a.as_str().to_string()),
    }))
}

#[tracing::instrument(skip(state, me))]
pub async fn follow(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    set_follow(&state, &me, &id, true).await
}

#[tracing::instrument(skip(state, me))]
pub async fn unfollow(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    set_follow(&state, &me, &id, false).await
}
