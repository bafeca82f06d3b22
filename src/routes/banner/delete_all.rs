//! `DELETE /api/bannerNotification/delete-all` (administrators) → {message, deletedCount}: removes
//! every banner; everyone hides theirs (`broadcastNotificationDeletedAll`).

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::routes::answers::DeletedAnswer;

use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::live::{self, banners::DeletedAll};
use crate::persistence::banners;
use crate::state::AppState;

pub const MSG_DELETED_ALL: &str = "All notifications deleted";

#[tracing::instrument(skip_all)]
pub async fn delete_all(state: web::Data<AppState>, admin: AdminUser) -> ApiResult<HttpResponse> {
    let deleted = banners::delete_all(&state.db).await?;
    state.live.banners.do_send(DeletedAll);
    live::banners_deleted(&state.realtime);
    let details = json!({ "deletedCount": deleted });
    audit::record(
        &state,
        &admin.0,
        Action::BannerDeleteAll,
        Target::site(),
        details,
    )
    .await;
    Ok(HttpResponse::Ok().json(DeletedAnswer::new(MSG_DELETED_ALL, deleted)))
}
