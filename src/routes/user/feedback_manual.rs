//! `POST /api/user/feedback/manual/{userId}` {message?} (administrators) → {success, message}:
//! opens the feedback modal in every tab of that user (`showFeedbackPrompt(message)`, default
//! 'We'd love your feedback!').

use actix_web::{web, HttpResponse};
use pressroom_actors::events::DEFAULT_FEEDBACK_PROMPT;
use serde::{Deserialize, Serialize};

use crate::auth::AdminUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::parse_json;
use crate::services::feedback;
use crate::state::AppState;

pub const MSG_PROMPT_SENT: &str = "Feedback prompt sent";
pub const MAX_PROMPT_LEN: usize = 500;

#[derive(Deserialize, Default)]
pub struct ManualBody {
    message: Option<String>,
}

/// `{success, message, prompt}`: the prompt as sent.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PromptAnswer {
    success: bool,
    message: &'static str,
    prompt: String,
}

#[tracing::instrument(skip(state, admin, body))]
pub async fn feedback_manual(
    state: web::Data<AppState>,
    admin: AdminUser,
    user_id: web::Path<String>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let body: ManualBody = if body.iter().all(u8::is_ascii_whitespace) {
        ManualBody::default()
    } else {
        parse_json(&body)?
    };
    let user = object_id(&user_id, "userId")?;
    let message = body
        .message
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| DEFAULT_FEEDBACK_PROMPT.to_string());
    if message.chars().count() > MAX_PROMPT_LEN {
        return Err(ApiError::bad_request(format!(
            "Message must be at most {MAX_PROMPT_LEN} characters"
        )));
    }
    feedback::prompt(&state, &admin.0, user, &message).await?;
    Ok(HttpResponse::Ok().json(PromptAnswer {
        success: true,
        message: MSG_PROMPT_SENT,
        prompt: message,
    }))
}
