//! `PATCH /api/notification/mark-all-as-read` → {message, modified}: marks every notification of
//! the caller read; every tab of theirs gets the count 0.

use actix_web::{web, HttpResponse};

use super::signed_in;
use crate::auth::MaybeUser;
use crate::error::ApiResult;
use crate::services::inbox;
use crate::state::AppState;

pub const MSG_ALL_READ: &str = "All notifications marked as read";

/// `{message, modified}`: how many notifications were marked read.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct AllReadAnswer {
    message: &'static str,
    modified: u64,
}

#[tracing::instrument(skip_all)]
pub async fn mark_all_read(state: web::Data<AppState>, user: MaybeUser) -> ApiResult<HttpResponse> {
    let me = signed_in(user)?;
    let modified = inbox::mark_all_read(&state, &me).await?;
    Ok(HttpResponse::Ok().json(AllReadAnswer {
        message: MSG_ALL_READ,
        modified,
    }))
}
