//! `POST /api/notification/broadcast` {content} (administrators) → 201 {message, count}: a notice
//! to every user (not blocked, not the sender). Each is stored; the users online now get their own
//! `newNotification` and `updateUnreadCount` at once, and `newBroadcastNotification` with the
//! same stored item (its `_id` and every field, plus `broadcast: true`); the others find it when
//! they next look. Guests hear nothing of it.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::Deserialize;
use serde_json::json;

use super::{check_length, present, view, MSG_CONTENT_REQUIRED};
use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiJson;
use crate::notify::push;
use crate::persistence::notifications::{self, Kind, Notification};
use crate::persistence::now;
use crate::state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct BroadcastBody {
    content: Option<String>,
}

/// `{message, count}`: how many users the broadcast reached.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct BroadcastAnswer {
    message: String,
    count: usize,
}

#[tracing::instrument(skip_all)]
pub async fn broadcast(
    state: web::Data<AppState>,
    AdminUser(me): AdminUser,
    body: ApiJson<BroadcastBody>,
) -> ApiResult<HttpResponse> {
    let content = present(body.into_inner().content.as_deref())
        .ok_or_else(|| ApiError::bad_request(MSG_CONTENT_REQUIRED))?;
    check_length(&content)?;
    let audience = notifications::broadcast_audience(&state.db, me.user.id).await?;
    let at = now();
    let items: Vec<Notification> = audience
        .iter()
        .map(|user| Notification {
            id: ObjectId::new(),
            user_id: *user,
            kind: Kind::Admin,
            content: content.clone(),
            read: false,
            navigate_to: None,
            sender_id: Some(me.user.id),
            sender_name: Some(me.user.name.clone()),
            sender_avatar: me.user.avatar.clone(),
            post_id: None,
            post_title: None,
            reply_to: None,
            created_at: at,
        })
        .collect();
    notifications::insert_many(&state.db, &items).await?;
    let online = state.realtime.online().await.user_ids;
    for item in items
        .iter()
        .filter(|n| online.contains(&n.user_id.to_hex()))
    {
        push(&state, item).await;
        let mut notice = view(item);
        notice["broadcast"] = json!(true);
        crate::live::notice_broadcast(&state, &item.user_id.to_hex(), notice);
    }
    audit::record(
        &state,
        &me,
        Action::NoticeBroadcast,
        Target::site(),
        json!({ "content": content, "recipients": items.len() }),
    )
    .await;
    Ok(HttpResponse::Created().json(BroadcastAnswer {
        message: format!("Notification sent to {} users", items.len()),
        count: items.len(),
    }))
}
