//! What every engagement handler shares: loading a post one may engage with, refusing across a
//! block, toggling a per-(user, post) mark, recording the activity and telling the author.

use super::activity::record_activity;
use super::posts::{visible_to, MSG_INVALID_SLUG, MSG_POST_NOT_FOUND};
use actix_web::HttpRequest;

use crate::auth::AuthUser;
use crate::counting::{self, Identified};
use crate::domain::params::object_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::blocks;
use crate::persistence::likes::{self, MarkKind};
use crate::persistence::notifications::Kind;
use crate::persistence::posts::{self, Post};
use crate::persistence::views::VIEW_WINDOW_MS;
use crate::persistence::{reading_time, shares, views};
use crate::ratelimit::Action;
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

/// A like: the activity and notice of a post liked.
pub const LIKE_TOGGLE: MarkToggle = MarkToggle {
    mark: likes::LIKE,
    activity: "like",
    verb: "Liked",
    notification: Kind::Like,
};

/// A bookmark: the activity and notice of a post bookmarked.
pub const BOOKMARK_TOGGLE: MarkToggle = MarkToggle {
    mark: crate::persistence::bookmarks::BOOKMARK,
    activity: "bookmark",
    verb: "Bookmarked",
    notification: Kind::Bookmark,
};

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

/// Whether `me` likes and bookmarks `post`.
pub async fn marks_of(state: &AppState, me: &AuthUser, post: &Post) -> ApiResult<(bool, bool)> {
    let liked = likes::exists(&state.db, me.user.id, post.id).await?;
    let bookmarked = crate::persistence::bookmarks::exists(&state.db, me.user.id, post.id).await?;
    Ok((liked, bookmarked))
}

/// Counts a share of `post` by `reader` (once per reader and post; never one's own post, never a
/// crawler's) and records it in `me`'s activity; answers the post's share count.
pub async fn share(
    state: &AppState,
    req: &HttpRequest,
    me: Option<&AuthUser>,
    reader: &str,
    post: &Post,
) -> ApiResult<i64> {
    let own = me.is_some_and(|m| m.user.id == post.author);
    let counts =
        !own && !counting::is_crawler(req) && shares::claim(&state.db, post.id, reader).await?;
    if !counts {
        return Ok(post.share_count.max(0));
    }
    let count = shares::record(&state.db, post.id, reader, me.map(|m| m.user.id))
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if let Some(me) = me {
        record_activity(
            state,
            me.user.id,
            "share",
            &format!("Shared \"{}\"", post.title),
            Some(post.id),
            None,
        )
        .await;
    }
    Ok(count)
}

/// Counts a view of the post at `slug` (once per reader within the view window; never the
/// author's, never a crawler's), within the engagement limits; answers the post's views and who
/// the reader is (their cookie to set).
pub async fn track_view(
    state: &AppState,
    req: &HttpRequest,
    me: Option<&AuthUser>,
    slug: &str,
    guest_id: Option<&str>,
) -> ApiResult<(i64, Identified)> {
    let slug = slug.trim();
    if slug.is_empty() || slug == "undefined" || slug == "null" {
        return Err(ApiError::bad_request(MSG_INVALID_SLUG));
    }
    let who = counting::identify(&state.counting(), req, me, guest_id).await?;
    state.limiter.engagement(Action::View, &who).await?;
    let post = crate::services::posts::find_by_slug(state, slug)
        .await?
        .filter(|p| visible_to(p, me))
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    let viewer = who.reader.key();
    let own = me.is_some_and(|m| m.user.id == post.author);
    if own || counting::is_crawler(req) || !views::claim(&state.db, post.id, &viewer).await? {
        return Ok((post.views.max(0), who));
    }
    let views = views::record(&state.db, post.id, &viewer, me.map(|m| m.user.id))
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    Ok((views, who))
}

/// Adds `seconds` of reading by the reader to `post` (none for a crawler; capped per view
/// window, [`reading_time_cap`]); returns the reader's total.
pub async fn add_reading_time(
    state: &AppState,
    req: &HttpRequest,
    me: Option<&AuthUser>,
    post: &Post,
    seconds: i64,
    guest_id: Option<&str>,
) -> ApiResult<i64> {
    let who = counting::identify(&state.counting(), req, me, guest_id).await?;
    let reader = who.reader.key();
    let cap = reading_time_cap(state, post);
    let seconds = if counting::is_crawler(req) {
        0
    } else {
        seconds
    };
    Ok(reading_time::add(
        &state.db,
        post.id,
        &reader,
        me.map(|m| m.user.id),
        seconds,
        cap,
        VIEW_WINDOW_MS,
    )
    .await?)
}

/// Most seconds of reading one reader's time on a post counts per view window: the configured
/// multiple of the post's estimated reading time (at least a minute), never more than the window.
pub fn reading_time_cap(state: &AppState, post: &Post) -> i64 {
    let estimate = post.reading_time.max(1) * 60;
    let multiple = state.settings.counting.reading_time_multiple.max(1);
    (estimate * multiple).min(VIEW_WINDOW_MS / 1000)
}
