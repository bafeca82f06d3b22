//! Blocking posts and deciding appeals: what an administrator's block or unblock does wherever
//! it is made (the Posts section's toggle, an accepted appeal), and the one decision an appeal
//! gets.

use actix_web::web;
use mongodb::bson::oid::ObjectId;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::live;
use crate::persistence::notifications::Kind;
use crate::persistence::post_appeals::{self, Appeal, AppealStatus};
use crate::persistence::posts::{self, Post};
use crate::services::notify::{notify, NotificationInput};
use crate::services::posts::MSG_POST_NOT_FOUND;
use crate::services::revisions;
use crate::state::AppState;

pub const MSG_APPEAL_NOT_FOUND: &str = "Appeal not found";
pub const MSG_APPEAL_DECIDED: &str = "This appeal was already decided";
pub const MSG_APPEAL_ACCEPTED: &str = "Appeal accepted: the post is visible again";
pub const MSG_APPEAL_REJECTED: &str = "Appeal rejected: the post stays blocked";
/// Longest reply an administrator sends with a decision.
pub const MAX_REPLY_LEN: usize = 2000;

/// Blocks post `id` when it is not, restores it when it is ([`set_post_blocked`]); answers
/// whether it is blocked now and the revision pinned by a block.
pub async fn toggle_post_blocked(
    state: &web::Data<AppState>,
    admin: &AuthUser,
    id: ObjectId,
) -> ApiResult<(bool, Option<ObjectId>)> {
    let post = posts::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let blocked = !post.blocked;
    let (_, revision_id) = set_post_blocked(state, admin, &post, blocked).await?;
    Ok((blocked, revision_id))
}

/// Blocks or unblocks `post` as `admin`: the post, its pinned evidence, its series, everyone's
/// lists and the audit log follow. Unblocking settles the post's pending appeal as accepted.
/// Answers the post as it is now and, for a block, the revision pinned.
pub async fn set_post_blocked(
    state: &web::Data<AppState>,
    admin: &AuthUser,
    post: &Post,
    blocked: bool,
) -> ApiResult<(Post, Option<ObjectId>)> {
    let updated = posts::set_blocked(&state.db, post.id, blocked)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let revision_id = if blocked {
        Some(revisions::pin_blocked(state, &updated, admin.user.id).await?)
    } else {
        revisions::unpin_blocked(state, post.id).await?;
        None
    };
    crate::services::series::part_visibility_changed(state, &updated).await;
    live::post_block_toggled(&state.realtime, &post.id.to_hex(), blocked);
    crate::services::counts::post_counts_updated(
        state,
        updated.author,
        post.is_listable() != updated.is_listable(),
    );
    let action = if blocked {
        Action::PostBlock
    } else {
        Action::PostUnblock
    };
    audit::record(state, admin, action, Target::post(&updated), json!({})).await;
    if !blocked {
        if let Some(appeal) = post_appeals::find_pending(&state.db, post.id).await? {
            // Taken by a decision already under way (accepting it lifts the block): nothing to do.
            if post_appeals::claim_decision(&state.db, appeal.id, admin.user.id).await? {
                record_decision(
                    state,
                    admin,
                    &appeal,
                    &updated,
                    AppealStatus::Accepted,
                    None,
                )
                .await?;
            }
        }
    }
    Ok((updated, revision_id))
}

/// An administrator's decision on an appeal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Lift the block.
    Accept,
    /// Keep the post blocked.
    Reject,
}

/// Decides a pending appeal once: accepting lifts the block. A second decision, from this
/// administrator or another at the same moment, is refused (409) and changes nothing.
pub async fn decide_appeal(
    state: &web::Data<AppState>,
    admin: &AuthUser,
    id: ObjectId,
    decision: Decision,
    reply: Option<&str>,
) -> ApiResult<(Appeal, &'static str)> {
    let appeal = post_appeals::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_APPEAL_NOT_FOUND))?;
    if appeal.status != AppealStatus::Pending {
        return Err(ApiError::conflict(MSG_APPEAL_DECIDED));
    }
    let post = posts::find_by_id(&state.db, appeal.post_id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if !post_appeals::claim_decision(&state.db, id, admin.user.id).await? {
        return Err(ApiError::conflict(MSG_APPEAL_DECIDED));
    }
    let (status, message) = match decision {
        Decision::Accept => (AppealStatus::Accepted, MSG_APPEAL_ACCEPTED),
        Decision::Reject => (AppealStatus::Rejected, MSG_APPEAL_REJECTED),
    };
    let decided = async {
        let post = if decision == Decision::Accept && post.blocked {
            set_post_blocked(state, admin, &post, false).await?.0
        } else {
            post
        };
        record_decision(state, admin, &appeal, &post, status, reply).await
    }
    .await;
    if decided.is_err() {
        // The decision did not happen: the appeal may be decided again.
        post_appeals::drop_decision(&state.db, id).await?;
    }
    Ok((decided?, message))
}

/// What the author is told of a decision.
pub fn decision_text(post_title: &str, status: AppealStatus, reply: Option<&str>) -> String {
    let outcome = match status {
        AppealStatus::Rejected => "was rejected: the post stays blocked",
        _ => "was accepted: the post is visible again",
    };
    let mut text = format!("Your appeal for \"{post_title}\" {outcome}.");
    if let Some(reply) = reply.filter(|r| !r.is_empty()) {
        text.push_str(" Reply: ");
        text.push_str(reply);
    }
    text
}

/// Stores a claimed decision, tells the author, the other administrators and the audit log.
async fn record_decision(
    state: &AppState,
    admin: &AuthUser,
    appeal: &Appeal,
    post: &Post,
    status: AppealStatus,
    reply: Option<&str>,
) -> ApiResult<Appeal> {
    let decided = post_appeals::record_decision(&state.db, appeal.id, status, admin.user.id, reply)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_APPEAL_NOT_FOUND))?;
    // Decided: the author may appeal again (while the post stays blocked).
    post_appeals::release_pending(&state.db, appeal.post_id).await?;
    let text = decision_text(&post.title, status, reply);
    let mut notice =
        NotificationInput::new(appeal.author_id, Some(admin.user.id), Kind::Admin, &text)
            .about(post);
    notice.navigate_to = Some(format!("/post/{}", post.slug));
    notify(state, notice).await?;
    let name = if status == AppealStatus::Accepted {
        "accepted"
    } else {
        "rejected"
    };
    live::appeal_decided(&state.realtime, &appeal.id.to_hex(), name);
    let details = json!({ "appealId": appeal.id.to_hex(), "status": name, "reply": reply });
    audit::record(
        state,
        admin,
        Action::AppealDecide,
        Target::post(post),
        details,
    )
    .await;
    Ok(decided)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_author_reads_the_outcome_and_the_reply() {
        assert_eq!(
            decision_text("On birds", AppealStatus::Accepted, None),
            "Your appeal for \"On birds\" was accepted: the post is visible again."
        );
        assert_eq!(
            decision_text("On birds", AppealStatus::Rejected, Some("The photos are not yours.")),
            "Your appeal for \"On birds\" was rejected: the post stays blocked. Reply: The photos are not yours."
        );
        assert_eq!(
            decision_text("On birds", AppealStatus::Rejected, Some("")),
            "Your appeal for \"On birds\" was rejected: the post stays blocked."
        );
    }
}
