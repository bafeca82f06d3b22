//! `POST /api/post/time-spent/{postId}` {duration} → {message, duration, updatedAt}: adds the
//! seconds a reader spent on a post (a positive number up to `MAX_READING_SECONDS` per report,
//! rounded to whole seconds, at least 1). Readers are counted like views (`crate::counting`): a
//! reader's time on a post counts at most `counting.reading_time_multiple` times the post's
//! estimated reading time per 30 minutes (and never more than those 30 minutes); crawlers' time
//! is not counted. `duration` in the answer is the reader's total on the post.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::Value;

use crate::auth::MaybeUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::optional_body;
use crate::extract::{FieldValue, Refusal, Sent};
use crate::post_view::iso;
use crate::services::engagement::{add_reading_time, readable_post};
use crate::state::AppState;

/// Longest reading time one report may add: four hours.
pub const MAX_READING_SECONDS: f64 = 4.0 * 60.0 * 60.0;
pub const MSG_TIME_RECORDED: &str = "Reading time recorded";
/// Seed 000 §5: "Submitting reading time: postId must be a string, else 'Invalid postId'".
pub const MSG_INVALID_POST_ID: &str = "Invalid postId";

/// The post id a reading-time report names; anything but an id is 400 'Invalid postId'.
pub fn parse_post_id(raw: &str) -> ApiResult<mongodb::bson::oid::ObjectId> {
    mongodb::bson::oid::ObjectId::parse_str(raw.trim())
        .map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_POST_ID))
}

/// `{duration, guestId?}` (not in the document: the body is optional and the route takes any).
/// Other keys are ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeSpentBody {
    #[serde(default)]
    duration: Sent<Duration>,
    #[serde(default)]
    guest_id: Option<String>,
}

/// Reads a number of seconds: a JSON number or numeric text, positive and at most four hours,
/// rounded to whole seconds (at least 1). `key` names the field in the messages.
fn read_seconds(value: &Value, key: &str) -> Result<i64, Refusal> {
    let seconds = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|v| v.is_finite())
    .ok_or_else(|| Refusal::new(format!("{key} must be a number of seconds")))?;
    if seconds <= 0.0 || seconds > MAX_READING_SECONDS {
        return Err(Refusal::new(format!(
            "{key} must be more than 0 and at most {MAX_READING_SECONDS} seconds"
        )));
    }
    // Bounded above, so the conversion cannot overflow.
    Ok((seconds.round() as i64).max(1))
}

/// Declares the newtypes of the reading-time fields, each answering with its key.
macro_rules! seconds_field {
    ($($(#[$doc:meta])* $name:ident = $key:literal;)+) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name(pub i64);

        impl FieldValue for $name {
            fn read(value: Value) -> Result<Self, Refusal> {
                read_seconds(&value, $key).map($name)
            }
        }

        impl $name {
            /// The seconds, required ("`<key>` is required" when missing or `null`).
            pub fn of(sent: &Sent<$name>) -> ApiResult<i64> {
                Ok(sent.required(concat!($key, " is required"))?.0)
            }
        }

        crate::field_value!($name);
    )+};
}

seconds_field! {
    /// `duration` of a reader's report.
    Duration = "duration";
    /// `timeSpent` of the administrators' dashboard tracker.
    TimeSpent = "timeSpent";
}

/// `{message, postId, duration, updatedAt}`: the reader's total time on the post (seconds).
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimeSpentAnswer {
    message: &'static str,
    post_id: String,
    duration: i64,
    updated_at: String,
}

#[tracing::instrument(skip(state, viewer, req, body))]
pub async fn time_spent(
    state: web::Data<AppState>,
    viewer: MaybeUser,
    req: HttpRequest,
    post_id: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    parse_post_id(&post_id)?;
    let body: TimeSpentBody = optional_body(&body)?;
    let seconds = Duration::of(&body.duration)?;
    let me = viewer.0.as_ref();
    let post = readable_post(&state, &post_id, me).await?;
    let total =
        add_reading_time(&state, &req, me, &post, seconds, body.guest_id.as_deref()).await?;
    Ok(HttpResponse::Ok().json(TimeSpentAnswer {
        message: MSG_TIME_RECORDED,
        post_id: post.id.to_hex(),
        duration: total,
        updated_at: iso(mongodb::bson::DateTime::now()),
    }))
}
