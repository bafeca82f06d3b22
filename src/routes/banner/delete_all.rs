//! `DELETE /api/bannerNotification/delete-all` (administrators) → {message, deletedCount}: removes
//! every banner; everyone hides theirs (`broadcastNotificationDeletedAll`).

use actix_web::{web, HttpResponse};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::routes::answers::DeletedAnswer;
use crate::services::banners;
use crate::state::AppState;

pub const MSG_DELETED_ALL: &str = "All notifications deleted";

#[tracing::instrument(skip_all)]
pub async fn delete_all(state: web::Data<AppState>, admin: AdminUser) -> ApiResult<HttpResponse> {
    let deleted = banners::delete_all(&state, &admin.0).await?;
    Ok(HttpResponse::Ok().json(DeletedAnswer::new(MSG_DELETED_ALL, deleted)))
}
