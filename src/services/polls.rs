//! Polls in posts: a vote (one per user per poll; voting again moves it, and in a `multiple`
//! poll each option toggles), and the poll as the voter sees it after (counts and their choice).

use mongodb::bson::oid::ObjectId;
use serde_json::Value;

use crate::auth::AuthUser;
use crate::domain::blocks::Block;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{posts, votes};
use crate::services::activity::record_activity;
use crate::services::engagement::{ensure_may_engage, readable_post};
use crate::services::posts::{may_read_blocks, MSG_POST_NOT_FOUND, MSG_SUBSCRIBERS_ONLY};
use crate::state::AppState;

pub const MSG_UNKNOWN_POLL: &str = "This post has no poll with that blockId";
pub const MSG_POLL_CLOSED: &str = "This poll is closed";

/// Whether a poll's `closesAt` has passed.
pub fn is_closed(data: &Value) -> bool {
    data.get("closesAt")
        .and_then(Value::as_str)
        .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
        .is_some_and(|at| at <= chrono::Utc::now())
}

/// One option of a poll with its count.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct PollOption {
    pub text: Option<String>,
    pub votes: i64,
}

/// A poll block as the client sees it after a vote.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PollView {
    pub post_id: String,
    pub block_id: String,
    pub question: Option<String>,
    pub options: Vec<PollOption>,
    pub multiple: bool,
    pub closes_at: Option<String>,
    pub closed: bool,
    pub total_votes: i64,
    /// The caller's choice in a single-choice poll (null in a multiple-choice one).
    pub user_vote: Option<usize>,
    pub user_votes: Vec<usize>,
}

pub fn poll_view(post: ObjectId, block: &Block, choices: &[usize]) -> PollView {
    let data = &block.data;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let options: Vec<PollOption> = data
        .get("options")
        .and_then(Value::as_array)
        .map(|opts| {
            opts.iter()
                .map(|o| PollOption {
                    text: text(o.get("text")),
                    votes: o.get("votes").and_then(Value::as_i64).unwrap_or(0).max(0),
                })
                .collect()
        })
        .unwrap_or_default();
    let total: i64 = options.iter().map(|o| o.votes).sum();
    let multiple = data
        .get("multiple")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    PollView {
        post_id: post.to_hex(),
        block_id: block.id.clone(),
        question: text(data.get("question")),
        options,
        multiple,
        closes_at: text(data.get("closesAt")),
        closed: is_closed(data),
        total_votes: total,
        user_vote: if multiple {
            None
        } else {
            choices.first().copied()
        },
        user_votes: choices.to_vec(),
    }
}

/// `me` votes for option `index` of the poll block `block_id` of post `post_id` (a post they may
/// read and engage with); answers the poll after the vote.
pub async fn vote(
    state: &AppState,
    me: &AuthUser,
    post_id: &str,
    block_id: String,
    index: i64,
) -> ApiResult<PollView> {
    let post = readable_post(state, post_id, Some(me)).await?;
    if !may_read_blocks(&state.db, Some(me), &post).await? {
        return Err(ApiError::forbidden(MSG_SUBSCRIBERS_ONLY));
    }
    let block = post
        .blocks
        .iter()
        .find(|b| b.id == block_id && b.kind == "poll")
        .ok_or_else(|| ApiError::bad_request(MSG_UNKNOWN_POLL))?;
    let count = block
        .data
        .get("options")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let option = usize::try_from(index)
        .ok()
        .filter(|i| *i < count)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "optionIndex must be between 0 and {}",
                count.saturating_sub(1)
            ))
        })?;
    if is_closed(&block.data) {
        return Err(ApiError::conflict(MSG_POLL_CLOSED));
    }
    ensure_may_engage(state, me, &post).await?;
    let multiple = block
        .data
        .get("multiple")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if multiple {
        votes::toggle_multiple(&state.db, post.id, &block_id, me.user.id, option).await?;
    } else {
        votes::vote_single(&state.db, post.id, &block_id, me.user.id, option).await?;
    }
    let choices = votes::choices_of(&state.db, post.id, &block_id, me.user.id).await?;
    let fresh = posts::find_by_id(&state.db, post.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let block = fresh
        .blocks
        .iter()
        .find(|b| b.id == block_id && b.kind == "poll")
        .ok_or_else(|| ApiError::bad_request(MSG_UNKNOWN_POLL))?;
    record_activity(
        state,
        me.user.id,
        "vote",
        &format!("Voted in a poll in \"{}\"", post.title),
        Some(post.id),
        None,
    )
    .await;
    Ok(poll_view(post.id, block, &choices))
}
