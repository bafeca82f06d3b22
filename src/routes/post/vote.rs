//! `POST /api/post/vote` {postId, blockId, optionIndex} → {poll}: the caller votes in a poll
//! block. One vote per user per poll: voting again moves it (in a `multiple` poll, each option
//! toggles). An unknown block or an option out of range is a 400, a poll past its `closesAt` a
//! 409. The poll in the answer carries the counts and the caller's choice (`userVote`, and
//! `userVotes` for multiple-choice polls).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::Value;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, FieldValue, Refusal, Sent};
use crate::services::polls::{self, PollView};
use crate::state::AppState;

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

/// `{message, poll}`: the poll after the vote.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct VoteAnswer {
    message: &'static str,
    poll: PollView,
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
    let poll = polls::vote(&state, &me, post_id, block_id, index).await?;
    Ok(HttpResponse::Ok().json(VoteAnswer {
        message: MSG_VOTE_RECORDED,
        poll,
    }))
}
