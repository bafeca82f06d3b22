//! What every engagement handler shares: loading a post one may engage with, refusing across a
//! block, toggling a per-(user, post) mark, recording the activity and telling the author.

use super::activity::record_activity;
use super::posts::{visible_to, MSG_POST_NOT_FOUND};
use crate::auth::AuthUser;
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::blocks;
use crate::persistence::likes::{self, MarkKind};
use crate::persistence::notifications::Kind;
use crate::persistence::posts::{self, Post};
use crate::services::notify::{notify, NotificationInput};
use crate::state::AppState;

/// A block stands between the caller and the other user.
pub const MSG_BLOCKED_INTERACTION: &str = "You cannot interact with this user";

/// Loads a post by id that the viewer may read (others: 404 'Post not found').
pub async fn readable_post(
    state: &AppState,
    raw_id: &str,
    viewer: Option<&AuthUser>,
) -> ApiResult<Post> {
    let id = object_id(raw_id, "post id")?;
    posts::find_by_id(&state.db, id)
        .await?
        .filter(|p| visible_to(p, viewer))
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))
}

/// Refuses (403) when either user blocked the other.
pub async fn ensure_not_blocked(
    db: &crate::persistence::Db,
    me: mongodb::bson::oid::ObjectId,
    other: mongodb::bson::oid::ObjectId,
) -> ApiResult<()> {
    if me != other && blocks::between(db, me, other).await? {
        return Err(ApiError::forbidden(MSG_BLOCKED_INTERACTION));
    }
    Ok(())
}

/// Refuses (403) to add engagement to a post when a block stands between the caller and its
/// author. Taking engagement back is always allowed, so callers check only when adding.
pub async fn ensure_may_engage(state: &AppState, me: &AuthUser, post: &Post) -> ApiResult<()> {
    if post.author != me.user.id && blocks::between(&state.db, me.user.id, post.author).await? {
        return Err(ApiError::forbidden(MSG_BLOCKED_INTERACTION));
    }
    Ok(())
}

/// Tells the post's author about engagement by `me`. A failure is logged, never returned: the
/// engagement itself succeeded. `notify` skips oneself and blocked pairs.
pub async fn tell_user(
    state: &AppState,
    me: &AuthUser,
    to: mongodb::bson::oid::ObjectId,
    kind: Kind,
    post: &Post,
    content: &str,
) {
    let input = NotificationInput::from_user(to, &me.user, kind, content).about(post);
    if let Err(e) = notify(state, input).await {
        tracing::warn!(error = %e, "could not create a notification");
    }
}

/// What differs between the toggles of a per-(user, post) mark (like, bookmark).
pub struct MarkToggle {
    pub mark: MarkKind,
    /// Activity type and the verb of its description (`Liked "Title"`).
    pub activity: &'static str,
    pub verb: &'static str,
    /// Notification sent to the author when the mark is set.
    pub notification: Kind,
}

/// What a toggle left: whether the mark is on, the post's count of marks, and the post.
pub struct Toggled {
    pub on: bool,
    pub count: i64,
    pub post_id: String,
}

/// Toggles the caller's mark on a post: readable post, a block refuses only adding, safe under
/// simultaneous toggles; a new mark is recorded as activity and tells the author.
pub async fn toggle_mark(
    state: &AppState,
    me: &AuthUser,
    post_id: &str,
    toggle: &MarkToggle,
) -> ApiResult<Toggled> {
    let post = readable_post(state, post_id, Some(me)).await?;
    if !likes::has_mark(&state.db, toggle.mark, me.user.id, post.id).await? {
        ensure_may_engage(state, me, &post).await?;
    }
    let toggled = likes::toggle_mark(&state.db, toggle.mark, me.user.id, post.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if toggled.changed && toggled.on {
        record_activity(
            state,
            me.user.id,
            toggle.activity,
            &format!("{} \"{}\"", toggle.verb, post.title),
            Some(post.id),
            None,
        )
        .await;
        tell_user(state, me, post.author, toggle.notification, &post, "").await;
    }
    Ok(Toggled {
        on: toggled.on,
        count: toggled.count.max(0),
        post_id: post.id.to_hex(),
    })
}
