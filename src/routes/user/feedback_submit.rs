//! `POST /api/user/feedback/submit` {rating 1–5, message} → 201 {success, feedback}.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, FieldValue, Refusal, Sent};
use crate::services::feedback::{self, FeedbackView};
use crate::state::AppState;

pub const MSG_BAD_RATING: &str = "Rating must be a whole number from 1 to 5";
pub const MSG_MESSAGE_REQUIRED: &str = "Feedback message is required";
pub const MAX_MESSAGE_LEN: usize = 2000;

// `{rating, message}`; other keys are ignored.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct SubmitBody {
    #[serde(default)]
    #[schema(value_type = Value)]
    rating: Sent<Rating>,
    message: Option<String>,
}

/// A rating: a whole number from 1 to 5 (a text, a fraction or `null` is refused with
/// [`MSG_BAD_RATING`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating(pub i32);

impl FieldValue for Rating {
    fn read(value: Value) -> Result<Self, Refusal> {
        value
            .as_i64()
            .filter(|r| (1..=5).contains(r))
            .and_then(|r| i32::try_from(r).ok())
            .map(Rating)
            .ok_or_else(|| Refusal::new(MSG_BAD_RATING))
    }
}
crate::field_value!(Rating);

/// `{success, feedback}`: the feedback as stored.
#[derive(Serialize, utoipa::ToSchema)]
pub struct FeedbackSubmitAnswer {
    success: bool,
    feedback: FeedbackView,
}

#[tracing::instrument(skip_all)]
pub async fn feedback_submit(
    state: web::Data<AppState>,
    me: AuthUser,
    body: ApiJson<SubmitBody>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner();
    let rating = body.rating.required(MSG_BAD_RATING)?.0;
    let message = body.message.unwrap_or_default().trim().to_string();
    if message.is_empty() {
        return Err(ApiError::bad_request(MSG_MESSAGE_REQUIRED));
    }
    if message.chars().count() > MAX_MESSAGE_LEN {
        return Err(ApiError::bad_request(format!(
            "Feedback message must be at most {MAX_MESSAGE_LEN} characters"
        )));
    }
    let feedback = feedback::submit(&state, me.user.id, rating, message).await?;
    Ok(HttpResponse::Created().json(FeedbackSubmitAnswer {
        success: true,
        feedback,
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ratings_are_whole_numbers_from_one_to_five() {
        let parse_rating = |raw: Option<&Value>| -> ApiResult<i32> {
            let sent = match raw {
                None => Sent::Missing,
                Some(v) => serde_json::from_value::<Sent<Rating>>(v.clone()).unwrap(),
            };
            Ok(sent.required(MSG_BAD_RATING)?.0)
        };
        for ok in [1, 3, 5] {
            assert_eq!(parse_rating(Some(&json!(ok))).unwrap(), ok);
        }
        for bad in [
            json!(0),
            json!(6),
            json!(2.5),
            json!("4"),
            json!(null),
            json!(-1),
        ] {
            assert!(parse_rating(Some(&bad)).is_err(), "case {bad}");
        }
        assert!(parse_rating(None).is_err());
    }
}
