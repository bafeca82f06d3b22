//! Appeals against blocks, for administrators: `GET /api/admin/appeals?status&page&limit` (the
//! queue, newest first), `GET /api/admin/appeals/{id}` (one appeal with the post as the author
//! appealed it) and `PATCH /api/admin/appeals/{id}` `{decision, reply}` (accept: the block is
//! lifted; reject: it stays). Each appeal says whether the post changed since it was appealed.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};

use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::routes::paging::PageParams;
use crate::services::appeals::{self, AdminAppealView, Filter};
use crate::services::moderation::{Decision, MAX_REPLY_LEN};
use crate::services::revisions::Evidence;
use crate::state::AppState;

pub const MSG_INVALID_ID: &str = "Invalid appeal id";
pub const MSG_BAD_STATUS: &str = "status must be one of: pending, decided, all";
pub const MSG_BAD_DECISION: &str = "decision must be accept or reject";

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
    let (appeals, total) = appeals::page(&state, filter, paging.skip, paging.limit).await?;
    Ok(HttpResponse::Ok().json(AppealsAnswer {
        appeals,
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
    let (appeal, evidence) = appeals::detail(&state, id).await?;
    Ok(HttpResponse::Ok().json(AppealDetail { appeal, evidence }))
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
    let (appeal, message) = appeals::decide(&state, &admin.0, id, decision, reply).await?;
    Ok(HttpResponse::Ok().json(DecisionAnswer {
        message: message.to_string(),
        appeal,
    }))
}
