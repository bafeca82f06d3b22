//! `POST /api/admin/reports` {postId, reason, details} (signed-in users) → 201 {message,
//! report}: reports a post the caller can read and did not write. `reason` is one of
//! `REASONS`; `details` at most 2000 characters. One open report per user and post: another
//! before an administrator reviewed the first is a 409. Administrators hear `newReport`.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;

use super::{admin_view_of, parse_reason, public_view, MAX_DETAILS_LEN};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::live;
use crate::persistence::reports::{self, Report};
use crate::persistence::{now, DbError};
use crate::ratelimit::Kind;
use crate::services::engagement::readable_post;
use crate::services::revisions;
use crate::state::AppState;

pub const MSG_REPORTED: &str = "Thank you. The post was reported to the moderators.";
pub const MSG_ALREADY_REPORTED: &str =
    "You have already reported this post. The moderators will review it.";
pub const MSG_OWN_POST: &str = "You cannot report your own post";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportBody {
    #[serde(default)]
    post_id: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    details: Option<String>,
}

#[tracing::instrument(skip(state, me, body), fields(user = %me.id_hex()))]
pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<ReportBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let raw_post = body
        .post_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad_request("postId is required"))?;
    object_id(raw_post, "postId")?;
    let reason = parse_reason(body.reason.as_deref())?;
    let details = body.details.unwrap_or_default().trim().to_string();
    if details.chars().count() > MAX_DETAILS_LEN {
        return Err(ApiError::bad_request(format!(
            "details must be at most {MAX_DETAILS_LEN} characters"
        )));
    }
    let post = readable_post(&state, raw_post, Some(&me)).await?;
    if post.author == me.user.id {
        return Err(ApiError::bad_request(MSG_OWN_POST));
    }
    state.limiter.hit(Kind::ReportAccount, &me.id_hex()).await?;
    let report = Report {
        id: ObjectId::new(),
        post_id: post.id,
        post_title: post.title.clone(),
        post_slug: post.slug.clone(),
        author_id: post.author,
        reporter_id: Some(me.user.id),
        reason: reason.to_string(),
        details,
        is_reviewed: false,
        reviewed_at: None,
        reviewed_by: None,
        forwarded_to_author: false,
        forwarded_at: None,
        is_acknowledged: false,
        acknowledged_at: None,
        notices_sent: 0,
        created_at: now(),
        revision_id: None,
        post_deleted: false,
    };
    match reports::create(&state.db, &report).await {
        Ok(()) => {}
        Err(DbError::Duplicate(_)) => return Err(ApiError::conflict(MSG_ALREADY_REPORTED)),
        Err(e) => return Err(e.into()),
    }
    let mut report = report;
    let revision =
        revisions::pin_for(&state, &post, Some(post.author), "report", report.id).await?;
    reports::set_revision(&state.db, report.id, revision).await?;
    report.revision_id = Some(revision);
    let admin_view = admin_view_of(&state, &report).await?;
    live::new_report(
        &state.realtime,
        serde_json::to_value(admin_view).unwrap_or_default(),
    );
    Ok(HttpResponse::Created().json(super::ReportAnswer {
        message: MSG_REPORTED.to_string(),
        report: public_view(&report),
    }))
}
