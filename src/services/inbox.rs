//! A user's notifications (`/api/notification/*`): the list with the unread count, marking read,
//! deleting, replying to an administrator's notice; and the administrators' notices to one user
//! and a user's history (a broadcast to everyone is queued by `jobs::admin_tasks`). Only the addressee
//! reads, marks or deletes a notification; anyone else finds none (404). How a notification is
//! stored and pushed is `services::notify`; how it is shown, `services::notifications`.

use mongodb::bson::oid::ObjectId;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{notifications, users};
use crate::services::notifications::NotificationView;
use crate::services::notify::{notify, push_unread_count, NotificationInput};
use crate::services::people::MSG_USER_NOT_FOUND;
use crate::state::AppState;

pub use crate::persistence::notifications::Kind;

pub const MSG_NOT_FOUND: &str = "Notification not found";
pub const MSG_NO_SENDER: &str = "This notification has no sender to reply to";
pub const MSG_REPLY_BLOCKED: &str = "You cannot reply to this user";
pub const MSG_ONLY_ADMIN_NOTICES: &str = "Only notices from an administrator can be replied to";

/// One page of `me`'s notifications of `kinds` (every kind when empty), newest first: the page,
/// the total of the filter and the unread count over every kind.
pub async fn page(
    state: &AppState,
    me: &AuthUser,
    kinds: &[Kind],
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<NotificationView>, u64, u64)> {
    let (items, total) =
        notifications::list_for_user(&state.db, me.user.id, kinds, skip, limit).await?;
    let unread = crate::services::unread::count(state, me.user.id).await?;
    Ok((
        items.iter().map(NotificationView::of).collect(),
        total,
        unread,
    ))
}

/// Marks notification `id` of `me` read; every tab of theirs gets the new unread count.
pub async fn mark_read(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
) -> ApiResult<NotificationView> {
    let mut notification = notifications::mark_read(&state.db, id, me.user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if !notification.read {
        crate::services::unread::moved(state, me.user.id, -1).await;
        notification.read = true;
    }
    push_unread_count(state, me.user.id).await;
    Ok(NotificationView::of(&notification))
}

/// Marks every notification of `me` read; returns how many were unread. Every tab of theirs
/// gets the count 0.
pub async fn mark_all_read(state: &AppState, me: &AuthUser) -> ApiResult<u64> {
    let modified = notifications::mark_all_read(&state.db, me.user.id).await?;
    crate::services::unread::forget(state, me.user.id).await;
    push_unread_count(state, me.user.id).await;
    Ok(modified)
}

/// Deletes notification `id` of `me`; if it was unread, every tab of theirs gets the new count.
pub async fn delete(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<()> {
    let gone = notifications::delete_owned(&state.db, id, me.user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if !gone.read {
        crate::services::unread::moved(state, me.user.id, -1).await;
        push_unread_count(state, me.user.id).await;
    }
    Ok(())
}

/// `me` answers the administrator's notice `id` (an `admin_reply`, pushed to the sender's tabs);
/// only `admin` notices can be answered.
pub async fn reply(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
    content: &str,
) -> ApiResult<NotificationView> {
    let original = notifications::find_owned(&state.db, id, me.user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if original.kind != Kind::Admin {
        return Err(ApiError::bad_request(MSG_ONLY_ADMIN_NOTICES));
    }
    let sender = original
        .sender_id
        .filter(|s| *s != me.user.id)
        .ok_or_else(|| ApiError::bad_request(MSG_NO_SENDER))?;
    let mut input = NotificationInput::new(sender, Some(me.user.id), Kind::AdminReply, content);
    input.post_id = original.post_id;
    input.reply_to = Some(original.id);
    input.navigate_to = Some(format!(
        "/message-box?type=admin&id={}",
        original.id.to_hex()
    ));
    let notification = notify(state, input)
        .await?
        .ok_or_else(|| ApiError::forbidden(MSG_REPLY_BLOCKED))?;
    Ok(NotificationView::of(&notification))
}

/// The administrator `me`'s notice `content` to `user` (an unknown user is a 404), stored,
/// pushed to their tabs and recorded.
pub async fn send_admin_notice(
    state: &AppState,
    me: &AuthUser,
    user: ObjectId,
    content: &str,
    navigate_to: Option<String>,
) -> ApiResult<NotificationView> {
    let addressee = users::find_by_id(&state.db, user)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    let mut input = NotificationInput::new(user, Some(me.user.id), Kind::Admin, content);
    input.navigate_to = navigate_to;
    let notification = notify(state, input).await?.ok_or_else(|| {
        ApiError::internal(anyhow::anyhow!("an administrator notice was suppressed"))
    })?;
    let details = json!({ "content": notification.content });
    audit::record(
        state,
        me,
        Action::NoticeSend,
        Target::user(&addressee),
        details,
    )
    .await;
    Ok(NotificationView::of(&notification))
}

/// `user`'s most recent notifications (at most 200), newest first.
pub async fn history(state: &AppState, user: ObjectId) -> ApiResult<Vec<NotificationView>> {
    let items = notifications::history(&state.db, user).await?;
    Ok(items.iter().map(NotificationView::of).collect())
}
