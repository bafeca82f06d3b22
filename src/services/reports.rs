//! Reports of posts (seed 001 §7): a signed-in user reports a post (the revision they saw pinned
//! as evidence); administrators list and review reports, optionally forwarding one to the post's
//! author (a notification linking to `/acknowledge/{reportId}`), and send the author a notice by
//! notification and email; the author acknowledges. New, reviewed and acknowledged reports
//! reach `adminRoom` live.

use std::collections::{HashMap, HashSet};

use mongodb::bson::oid::ObjectId;
use serde::Serialize;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::mail::{MailKind, Outgoing};
use crate::persistence::notifications::{self, Kind};
use crate::persistence::reports::{self, Report};
use crate::persistence::users::{self, User};
use crate::persistence::{now, Db, DbError};
use crate::post_view::{iso, DELETED_AUTHOR};
use crate::ratelimit::Kind as Limit;
use crate::services::engagement::readable_post;
use crate::services::notifications::NotificationView;
use crate::services::notify::{notify, NotificationInput};
use crate::services::revisions::{self, Evidence};
use crate::state::AppState;

pub const MSG_NOT_FOUND: &str = "Report not found";
pub const MSG_ALREADY_REPORTED: &str =
    "You have already reported this post. The moderators will review it.";
pub const MSG_OWN_POST: &str = "You cannot report your own post";
pub const MSG_NOT_AUTHOR: &str = "Only the author of the reported post can acknowledge this report";
pub const MSG_NOT_YOURS: &str =
    "Only the author of the reported post or an administrator can read this report";
pub const MSG_AUTHOR_GONE: &str = "The author of this post no longer has an account";

/// Someone a report involves (`email` is null when the account is gone).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportPerson {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub email: Option<String>,
}

pub(crate) fn person(
    id: Option<ObjectId>,
    users: &HashMap<ObjectId, User>,
) -> Option<ReportPerson> {
    let id = id?;
    Some(match users.get(&id) {
        Some(u) => ReportPerson {
            id: id.to_hex(),
            name: u.name.clone(),
            email: Some(u.email.clone()),
        },
        None => ReportPerson {
            id: id.to_hex(),
            name: DELETED_AUTHOR.to_string(),
            email: None,
        },
    })
}

/// The reported post.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportedPost {
    #[serde(rename = "_id")]
    pub id: String,
    pub title: String,
    pub slug: String,
}

/// A report as administrators see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminReportView {
    #[serde(rename = "_id")]
    pub id: String,
    pub post: ReportedPost,
    pub post_id: String,
    pub post_title: String,
    /// Null when the report was not filed by a user.
    pub reporter: Option<ReportPerson>,
    /// The post's author.
    pub author: ReportPerson,
    pub reason: String,
    pub details: String,
    pub is_reviewed: bool,
    pub reviewed_at: Option<String>,
    pub forwarded_to_author: bool,
    pub forwarded_at: Option<String>,
    pub is_acknowledged: bool,
    pub acknowledged_at: Option<String>,
    pub notices_sent: i32,
    pub created_at: String,
    /// The revision of the post the reporter saw (pinned as evidence); compare it with
    /// `current` to see what changed since.
    pub revision_id: Option<String>,
    /// The post changed after the report.
    pub edited_since: bool,
    /// The post was deleted since; the revision the reporter saw is kept.
    pub post_deleted: bool,
}

/// A report as its reporter and the post's author see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportView {
    #[serde(rename = "_id")]
    pub id: String,
    pub post_id: String,
    pub post_title: String,
    pub post_slug: String,
    pub reason: String,
    pub is_reviewed: bool,
    pub forwarded_to_author: bool,
    pub is_acknowledged: bool,
    pub acknowledged_at: Option<String>,
    pub created_at: String,
}

/// A report as the caller may see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum EitherReport {
    Author(ReportView),
    Admin(Box<AdminReportView>),
}

/// A notification the author received about a report.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportMessage {
    #[serde(rename = "_id")]
    pub id: String,
    pub content: String,
    pub read: bool,
    pub created_at: String,
}

/// Loads the reporters and authors of `reports`.
async fn people_of(db: &Db, reports: &[Report]) -> ApiResult<HashMap<ObjectId, User>> {
    let mut ids: Vec<ObjectId> = reports
        .iter()
        .flat_map(|r| [Some(r.author_id), r.reporter_id])
        .flatten()
        .collect();
    ids.sort();
    ids.dedup();
    Ok(users::find_many(db, &ids)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect())
}

/// A report as administrators see it: with the post's title, the reporter and the author.
fn admin_view(
    r: &Report,
    people: &HashMap<ObjectId, User>,
    edited: &HashSet<ObjectId>,
) -> AdminReportView {
    AdminReportView {
        id: r.id.to_hex(),
        post: ReportedPost {
            id: r.post_id.to_hex(),
            title: r.post_title.clone(),
            slug: r.post_slug.clone(),
        },
        post_id: r.post_id.to_hex(),
        post_title: r.post_title.clone(),
        reporter: person(r.reporter_id, people),
        author: person(Some(r.author_id), people).unwrap_or_else(|| ReportPerson {
            id: r.author_id.to_hex(),
            name: DELETED_AUTHOR.to_string(),
            email: None,
        }),
        reason: r.reason.clone(),
        details: r.details.clone(),
        is_reviewed: r.is_reviewed,
        reviewed_at: r.reviewed_at.map(iso),
        forwarded_to_author: r.forwarded_to_author,
        forwarded_at: r.forwarded_at.map(iso),
        is_acknowledged: r.is_acknowledged,
        acknowledged_at: r.acknowledged_at.map(iso),
        notices_sent: r.notices_sent,
        created_at: iso(r.created_at),
        revision_id: r.revision_id.map(|id| id.to_hex()),
        edited_since: r.revision_id.is_some_and(|id| edited.contains(&id)),
        post_deleted: r.post_deleted,
    }
}

/// Which of the reports' pinned revisions the post has changed since.
async fn edited_since(state: &AppState, reports: &[Report]) -> ApiResult<HashSet<ObjectId>> {
    let pairs: Vec<(ObjectId, ObjectId)> = reports
        .iter()
        .filter_map(|r| Some((r.post_id, r.revision_id?)))
        .collect();
    crate::services::revisions::edited_since(state, &pairs).await
}

/// A report as its reporter and the post's author see it: never who else is involved.
fn public_view(r: &Report) -> ReportView {
    ReportView {
        id: r.id.to_hex(),
        post_id: r.post_id.to_hex(),
        post_title: r.post_title.clone(),
        post_slug: r.post_slug.clone(),
        reason: r.reason.clone(),
        is_reviewed: r.is_reviewed,
        forwarded_to_author: r.forwarded_to_author,
        is_acknowledged: r.is_acknowledged,
        acknowledged_at: r.acknowledged_at.map(iso),
        created_at: iso(r.created_at),
    }
}

/// A report with its people, as administrators see it.
async fn admin_view_of(state: &AppState, r: &Report) -> ApiResult<AdminReportView> {
    let people = people_of(&state.db, std::slice::from_ref(r)).await?;
    let edited = edited_since(state, std::slice::from_ref(r)).await?;
    Ok(admin_view(r, &people, &edited))
}

/// `me` reports post `raw_post` (an id) for `reason` (one of the reasons) with `details`
/// (checked): once per reader and post, not their own, within the reporting limit. The
/// revision they saw is pinned; administrators hear of it at once.
pub async fn create(
    state: &AppState,
    me: &AuthUser,
    raw_post: &str,
    reason: &str,
    details: String,
) -> ApiResult<ReportView> {
    let post = readable_post(state, raw_post, Some(me)).await?;
    if post.author == me.user.id {
        return Err(ApiError::bad_request(MSG_OWN_POST));
    }
    state
        .limiter
        .hit(Limit::ReportAccount, &me.id_hex())
        .await?;
    let mut report = Report {
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
    let revision = revisions::pin_for(state, &post, Some(post.author), "report", report.id).await?;
    reports::set_revision(&state.db, report.id, revision).await?;
    report.revision_id = Some(revision);
    let admin_view = admin_view_of(state, &report).await?;
    live::new_report(
        &state.realtime,
        serde_json::to_value(admin_view).unwrap_or_default(),
    );
    Ok(public_view(&report))
}

async fn find(state: &AppState, id: ObjectId) -> ApiResult<Report> {
    reports::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))
}

/// The post's author acknowledges report `id` (the administrators hear it the first time).
pub async fn acknowledge(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<ReportView> {
    let report = find(state, id).await?;
    if report.author_id != me.user.id {
        return Err(ApiError::forbidden(MSG_NOT_AUTHOR));
    }
    let updated = reports::acknowledge(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if !report.is_acknowledged {
        let at = updated.acknowledged_at.map(iso).unwrap_or_default();
        live::report_acknowledged(&state.realtime, &id.to_hex(), &at);
    }
    Ok(public_view(&updated))
}

/// One page of reports as administrators see them, and how many there are.
pub async fn page(
    state: &AppState,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<AdminReportView>, u64)> {
    let (found, total) = reports::page(&state.db, skip, limit).await?;
    let people = people_of(&state.db, &found).await?;
    let edited = edited_since(state, &found).await?;
    let views = found
        .iter()
        .map(|r| admin_view(r, &people, &edited))
        .collect();
    Ok((views, total))
}

/// Report `id` for its post's author or an administrator (as each may see it), what the
/// administrators told the author about it (newest first) and, for administrators, the post as
/// the reporter saw it.
pub async fn detail(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
) -> ApiResult<(EitherReport, Vec<ReportMessage>, Option<Evidence>)> {
    let report = find(state, id).await?;
    let is_author = report.author_id == me.user.id;
    if !is_author && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_YOURS));
    }
    let link = format!("/acknowledge/{}", id.to_hex());
    let messages: Vec<ReportMessage> =
        notifications::linking_to(&state.db, report.author_id, &link)
            .await?
            .iter()
            .map(|n| ReportMessage {
                id: n.id.to_hex(),
                content: n.content.clone(),
                read: n.read,
                created_at: iso(n.created_at),
            })
            .collect();
    if is_author {
        return Ok((EitherReport::Author(public_view(&report)), messages, None));
    }
    let evidence = match report.revision_id {
        Some(revision) => revisions::evidence(state, revision).await?,
        None => None,
    };
    let view = EitherReport::Admin(Box::new(admin_view_of(state, &report).await?));
    Ok((view, messages, evidence))
}

/// What the author is told when a report is forwarded.
pub fn forwarded_text(title: &str, reason: &str) -> String {
    format!(
        "Your post \"{title}\" was reported ({}). Please review it, and acknowledge the report once you have.",
        reason.replace('_', " ")
    )
}

/// `admin` marks report `id` reviewed, and forwards it to the post's author (told once, by a
/// notification) when `forward`. Answers the report as administrators see it.
pub async fn review(
    state: &AppState,
    admin: &AuthUser,
    id: ObjectId,
    forward: bool,
) -> ApiResult<AdminReportView> {
    let report = find(state, id).await?;
    let updated = reports::review(&state.db, &report, admin.user.id, forward)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if updated.forwarded_to_author && !report.forwarded_to_author {
        let text = forwarded_text(&report.post_title, &report.reason);
        let mut input =
            NotificationInput::new(report.author_id, Some(admin.user.id), Kind::Admin, &text);
        input.post_id = Some(report.post_id);
        input.navigate_to = Some(format!("/acknowledge/{}", id.to_hex()));
        notify(state, input).await?;
    }
    live::report_reviewed(&state.realtime, &id.to_hex(), updated.forwarded_to_author);
    let target = Target::new("report", id.to_hex(), report.post_title.clone());
    let details = json!({ "forwardToAuthor": forward, "forwarded": updated.forwarded_to_author });
    audit::record(state, admin, Action::ReportReview, target, details).await;
    admin_view_of(state, &updated).await
}

/// `admin` tells the author of report `id`'s post `subject: text` by a notification (linking
/// to the report) and by email. Answers the notification and whether the mail went out now.
pub async fn send_notice(
    state: &AppState,
    admin: &AuthUser,
    id: ObjectId,
    subject: &str,
    text: &str,
) -> ApiResult<(NotificationView, bool)> {
    let report = find(state, id).await?;
    let author = users::find_by_id(&state.db, report.author_id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_AUTHOR_GONE))?;
    let link = format!("/acknowledge/{}", id.to_hex());
    let mut input = NotificationInput::new(
        author.id,
        Some(admin.user.id),
        Kind::Admin,
        &format!("{subject}: {text}"),
    );
    input.post_id = Some(report.post_id);
    input.navigate_to = Some(link.clone());
    let notification = notify(state, input)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a report notice was suppressed")))?;
    let mail_body = format!(
        "Hello {},\n\n{text}\n\nThis is about your post \"{}\". Please acknowledge the report here:\n{}\n\n--\nThe Pressroom team\n",
        author.name,
        report.post_title,
        state.settings.public_link(&link),
    );
    let mail = Outgoing::new(MailKind::ReportNotice, &author.email, subject, mail_body)
        .for_user(author.id);
    let sent = state.mailer.send_mail(mail).await.success;
    reports::count_notice(&state.db, id).await?;
    let target = Target::new("report", id.to_hex(), report.post_title.clone());
    let details = json!({ "subject": subject, "emailSent": sent });
    audit::record(state, admin, Action::ReportNotice, target, details).await;
    Ok((NotificationView::of(&notification), sent))
}
