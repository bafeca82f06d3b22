//! Appeals against blocks, for administrators: `GET /api/admin/appeals?status&page&limit` (the
//! queue, newest first), `GET /api/admin/appeals/{id}` (one appeal with the post as the author
//! appealed it) and `PATCH /api/admin/appeals/{id}` `{decision, reply}` (accept: the block is
//! lifted; reject: it stays). Each appeal says whether the post changed since it was appealed.

use std::collections::{HashMap, HashSet};

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};

use super::reports::{person, ReportPerson};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::persistence::post_appeals::{self, Appeal, AppealStatus, Filter};
use crate::persistence::users::{self, User};
use crate::post_view::{iso, DELETED_AUTHOR};
use crate::routes::paging::PageParams;
use crate::services::moderation::{self, Decision, MAX_REPLY_LEN, MSG_APPEAL_NOT_FOUND};
use crate::services::revisions::{self, Evidence};
use crate::state::AppState;

pub const MSG_INVALID_ID: &str = "Invalid appeal id";
pub const MSG_BAD_STATUS: &str = "status must be one of: pending, decided, all";
pub const MSG_BAD_DECISION: &str = "decision must be accept or reject";

/// An appeal as administrators see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminAppealView {
    #[serde(rename = "_id")]
    pub id: String,
    pub post_id: String,
    pub post_title: String,
    pub post_slug: String,
    /// The post's author, who appealed.
    pub author: ReportPerson,
    /// What the author wrote.
    pub message: String,
    /// `pending`, `accepted` or `rejected`.
    pub status: String,
    pub created_at: String,
    pub decided_at: Option<String>,
    pub decided_by: Option<ReportPerson>,
    /// What the administrator told the author with the decision.
    pub reply: Option<String>,
    /// The revision of the post appealed (pinned as evidence); compare it with `current` to see
    /// what changed since.
    pub revision_id: Option<String>,
    /// The post's content changed after the appeal.
    pub edited_since: bool,
    /// The post is blocked now.
    pub post_blocked: bool,
}

fn status_name(status: AppealStatus) -> &'static str {
    match status {
        AppealStatus::Pending => "pending",
        AppealStatus::Accepted => "accepted",
        AppealStatus::Rejected => "rejected",
    }
}

/// The appeals as administrators see them: with their people, posts and whether each post
/// changed since.
async fn views(state: &AppState, appeals: &[Appeal]) -> ApiResult<Vec<AdminAppealView>> {
    let mut people: Vec<ObjectId> = appeals
        .iter()
        .flat_map(|a| [Some(a.author_id), a.decided_by])
        .flatten()
        .collect();
    people.sort();
    people.dedup();
    let mut post_ids: Vec<ObjectId> = appeals.iter().map(|a| a.post_id).collect();
    post_ids.sort();
    post_ids.dedup();
    let pairs: Vec<(ObjectId, ObjectId)> = appeals
        .iter()
        .filter_map(|a| Some((a.post_id, a.revision_id?)))
        .collect();
    let (people, found, edited) = futures_util::try_join!(
        async { Ok::<_, ApiError>(users::find_many(&state.db, &people).await?) },
        async {
            Ok::<_, ApiError>(crate::persistence::posts::find_many(&state.db, &post_ids).await?)
        },
        revisions::edited_since(state, &pairs),
    )?;
    let people: HashMap<ObjectId, User> = people.into_iter().map(|u| (u.id, u)).collect();
    let found: HashMap<ObjectId, _> = found.into_iter().map(|p| (p.id, p)).collect();
    Ok(appeals
        .iter()
        .map(|a| view(a, &people, &found, &edited))
        .collect())
}

fn view(
    a: &Appeal,
    people: &HashMap<ObjectId, User>,
    found: &HashMap<ObjectId, crate::persistence::posts::Post>,
    edited: &HashSet<ObjectId>,
) -> AdminAppealView {
    let post = found.get(&a.post_id);
    AdminAppealView {
        id: a.id.to_hex(),
        post_id: a.post_id.to_hex(),
        post_title: post.map_or_else(|| a.post_title.clone(), |p| p.title.clone()),
        post_slug: post.map(|p| p.slug.clone()).unwrap_or_default(),
        author: person(Some(a.author_id), people).unwrap_or_else(|| ReportPerson {
            id: a.author_id.to_hex(),
            name: DELETED_AUTHOR.to_string(),
            email: None,
        }),
        message: a.message.clone(),
        status: status_name(a.status).to_string(),
        created_at: iso(a.created_at),
        decided_at: a.decided_at.map(iso),
        decided_by: person(a.decided_by, people),
        reply: a.reply.clone(),
        revision_id: a.revision_id.map(|id| id.to_hex()),
        edited_since: a.revision_id.is_some_and(|id| edited.contains(&id)),
        post_blocked: post.is_some_and(|p| p.blocked),
    }
}

fn appeal_id(raw: &str) -> ApiResult<ObjectId> {
    ObjectId::parse_str(raw.trim()).map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_ID))
}

/// `?status=pending|decided|all` (pending when absent) with the page.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AppealsQuery {
    #[serde(flatten)]
    #[param(ignore)]
    pub paging: PageParams,
    /// `pending` (the default), `decided` or `all`.
    #[serde(default)]
    pub status: Option<String>,
}

/// `{appeals, total, totalPages, page, limit}`: a page of appeals, newest first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppealsAnswer {
    pub appeals: Vec<AdminAppealView>,
    pub total: u64,
    pub total_pages: u64,
    pub page: u64,
    pub limit: i64,
}

#[tracing::instrument(skip(state, _admin))]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    query: web::Query<AppealsQuery>,
) -> ApiResult<HttpResponse> {
    let filter = match crate::domain::params::present_param(query.status.as_deref())
        .map(str::to_lowercase)
        .as_deref()
    {
        None | Some("pending") => Filter::Pending,
        Some("decided") => Filter::Decided,
        Some("all") => Filter::All,
        Some(_) => return Err(ApiError::bad_request(MSG_BAD_STATUS)),
    };
    let paging = query.paging.resolve()?;
    let (found, total) = post_appeals::page(&state.db, filter, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(AppealsAnswer {
        appeals: views(&state, &found).await?,
        total,
        total_pages: paging.total_pages(total),
        page: paging.page,
        limit: paging.limit,
    }))
}

/// `{appeal, evidence}`: one appeal and the post as its author appealed it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AppealDetail {
    pub appeal: AdminAppealView,
    /// The appealed revision's title and blocks (null for an appeal made before revisions
    /// were kept).
    pub evidence: Option<Evidence>,
}

#[tracing::instrument(skip(state, _admin))]
pub async fn get(
    state: web::Data<AppState>,
    _admin: AdminUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = appeal_id(&id)?;
    let appeal = post_appeals::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_APPEAL_NOT_FOUND))?;
    let evidence = match appeal.revision_id {
        Some(revision) => revisions::evidence(&state, revision).await?,
        None => None,
    };
    let mut views = views(&state, std::slice::from_ref(&appeal)).await?;
    Ok(HttpResponse::Ok().json(AppealDetail {
        appeal: views.remove(0),
        evidence,
    }))
}

/// `{decision: "accept" | "reject", reply?}`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct DecisionBody {
    #[serde(default)]
    pub decision: Option<String>,
    /// Told to the author with the decision (at most 2000 characters).
    #[serde(default)]
    pub reply: Option<String>,
}

/// `{message, appeal}`: the appeal as decided.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DecisionAnswer {
    pub message: String,
    pub appeal: AdminAppealView,
}

#[tracing::instrument(skip(state, admin, body), fields(admin = %admin.0.id_hex()))]
pub async fn decide(
    state: web::Data<AppState>,
    admin: AdminUser,
    id: web::Path<String>,
    body: ApiJson<DecisionBody>,
) -> ApiResult<HttpResponse> {
    let id = appeal_id(&id)?;
    let body = body.into_inner();
    let decision = match body.decision.as_deref().map(str::trim) {
        Some("accept") => Decision::Accept,
        Some("reject") => Decision::Reject,
        _ => return Err(ApiError::bad_request(MSG_BAD_DECISION)),
    };
    let reply = body
        .reply
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty());
    if reply.is_some_and(|r| r.chars().count() > MAX_REPLY_LEN) {
        return Err(ApiError::bad_request(format!(
            "Reply must be at most {MAX_REPLY_LEN} characters"
        )));
    }
    let (decided, message) =
        moderation::decide_appeal(&state, &admin.0, id, decision, reply).await?;
    let mut views = views(&state, std::slice::from_ref(&decided)).await?;
    Ok(HttpResponse::Ok().json(DecisionAnswer {
        message: message.to_string(),
        appeal: views.remove(0),
    }))
}
