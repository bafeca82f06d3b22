//! `GET /api/post/delivery/{id}` → {postId, announced, sendEmail, notices, emailsSent,
//! emailsFailed, done}: how many followers were told of the post and how many emails went out
//! or failed, for its author or an administrator (others 403). The author's tabs also hear
//! `postDeliveryUpdated` with the same figures while the post goes out.

use actix_web::{web, HttpResponse};

use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::ApiResult;
use crate::services::post_delivery;
use crate::state::AppState;

#[tracing::instrument(skip(state, me))]
pub async fn delivery(
    state: web::Data<AppState>,
    me: AuthUser,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = object_id(&id, "post id")?;
    Ok(HttpResponse::Ok().json(post_delivery::of_post(&state, &me, id).await?))
}
