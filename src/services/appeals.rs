//! Appeals of blocked posts as administrators see them: the list, one appeal with the post as
//! its author appealed it, and a decision (made by `services::moderation`).

use std::collections::{HashMap, HashSet};

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::persistence::notifications::Kind;
use crate::persistence::post_appeals::{self, Appeal, AppealStatus};
use crate::persistence::posts;
use crate::persistence::users::{self, User};
use crate::post_view::{iso, DELETED_AUTHOR};
use crate::services::moderation::{self, Decision, MSG_APPEAL_NOT_FOUND};
use crate::services::notify::{notify_admins, NotificationInput};
use crate::services::posts::{visible_to, MSG_POST_NOT_FOUND};
use crate::services::reports::{person, ReportPerson};
use crate::services::revisions::{self, Evidence};
use crate::state::AppState;

pub use crate::persistence::post_appeals::Filter;

pub const MSG_ONLY_AUTHOR_APPEALS: &str = "Only the author of this post can appeal";
pub const MSG_NOT_BLOCKED: &str = "This post is not blocked";
pub const MSG_APPEAL_PENDING: &str = "An appeal for this post is already pending";

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

/// One page of appeals (as `filter` narrows them), newest first, and how many there are.
pub async fn page(
    state: &AppState,
    filter: Filter,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<AdminAppealView>, u64)> {
    let (found, total) = post_appeals::page(&state.db, filter, skip, limit).await?;
    Ok((views(state, &found).await?, total))
}

async fn one(state: &AppState, appeal: &Appeal) -> ApiResult<AdminAppealView> {
    let mut views = views(state, std::slice::from_ref(appeal)).await?;
    views
        .pop()
        .ok_or_else(|| ApiError::not_found(MSG_APPEAL_NOT_FOUND))
}

/// Appeal `id` and the post as its author appealed it (`None` for an appeal made before
/// revisions were kept).
pub async fn detail(
    state: &AppState,
    id: ObjectId,
) -> ApiResult<(AdminAppealView, Option<Evidence>)> {
    let appeal = post_appeals::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_APPEAL_NOT_FOUND))?;
    let evidence = match appeal.revision_id {
        Some(revision) => revisions::evidence(state, revision).await?,
        None => None,
    };
    Ok((one(state, &appeal).await?, evidence))
}

/// `admin` decides appeal `id` (`services::moderation::decide_appeal`); answers the appeal as
/// decided and the message saying what the decision did.
pub async fn decide(
    state: &actix_web::web::Data<AppState>,
    admin: &AuthUser,
    id: ObjectId,
    decision: Decision,
    reply: Option<&str>,
) -> ApiResult<(AdminAppealView, &'static str)> {
    let (decided, message) = moderation::decide_appeal(state, admin, id, decision, reply).await?;
    Ok((one(state, &decided).await?, message))
}

/// An appeal as its author sees it.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppealView {
    #[serde(rename = "_id")]
    id: String,
    post_id: String,
    post_title: String,
    message: String,
    status: &'static str,
    created_at: String,
    /// The revision of the post appealed (pinned as evidence).
    revision_id: String,
}

/// `me`, the author of blocked post `id`, appeals the block with `message` (checked): one
/// pending appeal per post; the revision appealed is pinned as evidence and the administrators
/// are told.
pub async fn file(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
    message: String,
) -> ApiResult<AppealView> {
    let post = posts::find_by_id(&state.db, id)
        .await?
        .filter(|p| visible_to(p, Some(me)))
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if post.author != me.user.id {
        return Err(ApiError::forbidden(MSG_ONLY_AUTHOR_APPEALS));
    }
    if !post.blocked {
        return Err(ApiError::bad_request(MSG_NOT_BLOCKED));
    }
    if post_appeals::find_pending(&state.db, id).await?.is_some()
        || !post_appeals::claim_pending(&state.db, id).await?
    {
        return Err(ApiError::conflict(MSG_APPEAL_PENDING));
    }
    let appeal = match post_appeals::create(&state.db, id, &post.title, me.user.id, &message).await
    {
        Ok(a) => a,
        Err(e) => {
            post_appeals::release_pending(&state.db, id).await?;
            return Err(e.into());
        }
    };
    let revision = revisions::pin_for(state, &post, Some(me.user.id), "appeal", appeal.id).await?;
    post_appeals::set_revision(&state.db, appeal.id, revision).await?;
    live::new_appeal(&state.realtime, &id.to_hex(), &post.title);
    let mut notice = NotificationInput::new(me.user.id, Some(me.user.id), Kind::Appeal, &message);
    notice.post_id = Some(id);
    notice.navigate_to = Some(format!("/post/{}", post.slug));
    notify_admins(state, notice).await?;
    Ok(AppealView {
        id: appeal.id.to_hex(),
        post_id: id.to_hex(),
        post_title: appeal.post_title,
        message: appeal.message,
        status: "pending",
        created_at: iso(appeal.created_at),
        revision_id: revision.to_hex(),
    })
}
