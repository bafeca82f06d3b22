//! A post's revisions, for its author and administrators (others 403, an unknown post 404):
//! `GET /api/post/{id}/revisions` → {revisions, limit} newest first;
//! `GET /api/post/{id}/revisions/{revisionId}` → {revision} with its content;
//! `GET /api/post/{id}/revisions/compare?from=&to=` → the block-level and word-level changes
//! (`from` and `to` are revision ids of this post, or `current`);
//! `POST /api/post/{id}/revisions/{revisionId}/restore` → {message, post, revision}: the post
//! takes the revision's content (the route of an update, so its page, feeds, cached card and
//! search follow) and a `restored` revision equal to it is saved.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::domain::revisions::{BlockDiff, ChangeSummary, FieldDiff, TitleDiff};
use crate::error::{ApiError, ApiResult};
use crate::post_view::PostView;
use crate::services::post_write;
use crate::services::posts::{managed_by_id, Post};
use crate::services::revisions::{
    self, RevisionDetail, RevisionSummary, Side, MSG_COMPARE_NEEDS_BOTH, MSG_REVISION_RESTORED,
};
use crate::state::AppState;

async fn managed(state: &AppState, me: &AuthUser, raw_id: &str) -> ApiResult<Post> {
    let id = object_id(raw_id, "post id")?;
    managed_by_id(state, me, id).await
}

/// `{revisions, limit}`: newest first; `limit` is how many unpinned, unpublished revisions are
/// kept.
#[derive(Serialize, utoipa::ToSchema)]
pub struct RevisionsAnswer {
    revisions: Vec<RevisionSummary>,
    limit: u64,
}

#[tracing::instrument(skip(state, me))]
pub async fn list(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let post = managed(&state, &me, &id).await?;
    Ok(HttpResponse::Ok().json(RevisionsAnswer {
        revisions: revisions::list(&state, &post).await?,
        limit: state.settings.revisions.keep,
    }))
}

/// `{revision}`: one revision with its content.
#[derive(Serialize, utoipa::ToSchema)]
pub struct RevisionAnswer {
    revision: RevisionDetail,
}

#[tracing::instrument(skip(state, me))]
pub async fn get(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (id, revision_id) = path.into_inner();
    let post_id = object_id(&id, "post id")?;
    let revision = revisions::detail_for(&state, &me, post_id, &revision_id).await?;
    Ok(HttpResponse::Ok().json(RevisionAnswer { revision }))
}

/// `?from=&to=`: revision ids of the post, or `current`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct CompareQuery {
    /// The older side: a revision id, or `current`.
    #[serde(default)]
    from: Option<String>,
    /// The newer side: a revision id, or `current`.
    #[serde(default)]
    to: Option<String>,
}

/// The changes from `from` to `to`.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CompareAnswer {
    from: Side,
    to: Side,
    title: TitleDiff,
    /// The blocks of `to` in order, with removed blocks where they stood.
    blocks: Vec<BlockDiff>,
    fields: Vec<FieldDiff>,
    summary: ChangeSummary,
}

#[tracing::instrument(skip(state, me))]
pub async fn compare(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
    query: web::Query<CompareQuery>,
) -> ApiResult<HttpResponse> {
    let post = managed(&state, &me, &id).await?;
    let query = query.into_inner();
    let side = |raw: Option<String>| {
        raw.map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .ok_or_else(|| ApiError::bad_request(MSG_COMPARE_NEEDS_BOTH))
    };
    let (from, to) = (side(query.from)?, side(query.to)?);
    let (from, to, c) = revisions::compare_sides(&state, &post, &from, &to).await?;
    Ok(HttpResponse::Ok().json(CompareAnswer {
        from,
        to,
        title: c.title,
        blocks: c.blocks,
        fields: c.fields,
        summary: c.summary,
    }))
}

/// `{message, post, revision}`: the post restored, and the revision that records it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct RestoreAnswer {
    message: &'static str,
    post: PostView,
    revision: Option<RevisionSummary>,
}

#[tracing::instrument(skip(state, me))]
pub async fn restore(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (id, revision_id) = path.into_inner();
    let post = managed(&state, &me, &id).await?;
    let revision = revisions::load(&state, &post, &revision_id).await?;
    let snap = revision.snapshot()?;
    // The revision's content sent as an update: the same checks, media and announcements.
    let body = serde_json::from_value(json!({
        "title": snap.title,
        "blocks": snap.blocks,
        "thumbnail": snap.thumbnail.unwrap_or_default(),
        "category": snap.category.unwrap_or_default(),
        "tags": snap.tags,
        "visibility": snap.visibility,
        "audience": snap.audience,
    }))
    .map_err(|e| ApiError::bad_request(format!("This revision cannot be restored: {e}")))?;
    let input = super::input::PostBody::input(body, false)?;
    let (view, restored) = post_write::update(&state, &me, post, input, true).await?;
    Ok(HttpResponse::Ok().json(RestoreAnswer {
        message: MSG_REVISION_RESTORED,
        post: view,
        revision: restored,
    }))
}
