//! `POST /api/post/vote` {postId, blockId, optionIndex} → {poll}: the caller votes in a poll
//! block. One vote per user per poll: voting again moves it (in a `multiple` poll, each option
//! toggles). An unknown block or an option out of range is a 400, a poll past its `closesAt` a
//! 409. The poll in the answer carries the counts and the caller's choice (`userVote`, and
//! `userVotes` for multiple-choice polls).

use actix_web::{web, HttpRequest, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;
use serde_json::Value;

use crate::auth::AuthUser;
use crate::domain::blocks::Block;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, FieldValue, Refusal, Sent};
use crate::persistence::posts;
use crate::persistence::votes;
use crate::services::activity::record_activity;
use crate::services::engagement::{ensure_may_engage, readable_post};
use crate::services::posts::MSG_POST_NOT_FOUND;
use crate::state::AppState;

pub const MSG_UNKNOWN_POLL: &str = "This post has no poll with that blockId";
pub const MSG_POLL_CLOSED: &str = "This poll is closed";
pub const MSG_VOTE_RECORDED: &str = "Vote recorded";
pub const MSG_INDEX_REQUIRED: &str = "optionIndex is required";
pub const MSG_BAD_INDEX: &str = "optionIndex must be a whole number";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoteBody {
    #[serde(default)]
    post_id: Option<String>,
    #[serde(default)]
    block_id: Option<String>,
    #[serde(default)]
    #[schema(value_type = Value)]
    option_index: Sent<OptionIndex>,
}

/// `optionIndex`: a whole number, or its text (the range is the poll's, checked against it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionIndex(pub i64);

impl FieldValue for OptionIndex {
    fn read(value: Value) -> Result<Self, Refusal> {
        match value {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        }
        .map(OptionIndex)
        .ok_or_else(|| Refusal::new(MSG_BAD_INDEX))
    }
}
crate::field_value!(OptionIndex);

fn required<'a>(v: &'a Option<String>, name: &str) -> ApiResult<&'a str> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad_request(format!("{name} is required")))
}

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

/// `{message, poll}`: the poll after the vote.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct VoteAnswer {
    message: &'static str,
    poll: PollView,
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

#[tracing::instrument(skip(state, me, req, body))]
pub async fn vote(
    state: web::Data<AppState>,
    me: AuthUser,
    req: HttpRequest,
    body: ApiJson<VoteBody>,
) -> ApiResult<HttpResponse> {
    crate::counting::limit_user(&state.counting(), &req, &me, crate::ratelimit::Action::Vote)
        .await?;
    let body = body.into_inner();
    let post_id = required(&body.post_id, "postId")?;
    let block_id = required(&body.block_id, "blockId")?.to_string();
    let index = body.option_index.required(MSG_INDEX_REQUIRED)?.0;
    let post = readable_post(&state, post_id, Some(&me)).await?;
    if !super::may_read_blocks(&state.db, Some(&me), &post).await? {
        return Err(ApiError::forbidden(super::MSG_SUBSCRIBERS_ONLY));
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
    ensure_may_engage(&state, &me, &post).await?;
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
        &state,
        me.user.id,
        "vote",
        &format!("Voted in a poll in \"{}\"", post.title),
        Some(post.id),
        None,
    )
    .await;
    Ok(HttpResponse::Ok().json(VoteAnswer {
        message: MSG_VOTE_RECORDED,
        poll: poll_view(post.id, block, &choices),
    }))
}
