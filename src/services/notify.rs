//! Creating notifications: persist first, then push `newNotification` and `updateUnreadCount` to
//! the addressee. The engagement API calls [`notify`] for likes, bookmarks, comments and replies;
//! the notification API for administrator notices and replies; appeals go to every administrator
//! with [`notify_admins`].

use std::collections::HashSet;

use mongodb::bson::oid::ObjectId;

use crate::error::ApiResult;
use crate::live;
use crate::persistence::notifications::{self, Kind, Notification};
use crate::persistence::{blocks, now, posts, users};
use crate::services::notifications::view;
use crate::state::AppState;

/// What to tell whom.
#[derive(Debug, Clone)]
pub struct NotificationInput {
    /// The addressee.
    pub user_id: ObjectId,
    /// Who caused it (`None`: the system).
    pub sender_id: Option<ObjectId>,
    pub kind: Kind,
    pub content: String,
    pub post_id: Option<ObjectId>,
    /// Where a click leads (a path inside the site).
    pub navigate_to: Option<String>,
    /// The notification this one answers.
    pub reply_to: Option<ObjectId>,
    /// The sender's name and avatar when the caller has them at hand (else they are read).
    pub sender_card: Option<(String, Option<String>)>,
    /// The post's title when the caller has it at hand (else it is read).
    pub post_title: Option<String>,
}

impl NotificationInput {
    /// A notification of `kind` from `sender` to `user` about nothing in particular.
    pub fn new(user_id: ObjectId, sender_id: Option<ObjectId>, kind: Kind, content: &str) -> Self {
        NotificationInput {
            user_id,
            sender_id,
            kind,
            content: content.to_string(),
            post_id: None,
            navigate_to: None,
            reply_to: None,
            sender_card: None,
            post_title: None,
        }
    }

    /// From `sender`, whose name and avatar are copied in without reading them again.
    pub fn from_user(user_id: ObjectId, sender: &users::User, kind: Kind, content: &str) -> Self {
        let mut input = NotificationInput::new(user_id, Some(sender.id), kind, content);
        input.sender_card = Some((sender.name.clone(), sender.avatar.clone()));
        input
    }

    /// About `post`, whose id, title and address are copied in without reading them again.
    pub fn about(mut self, post: &posts::Post) -> Self {
        self.post_id = Some(post.id);
        self.post_title = Some(post.title.clone());
        self.navigate_to = Some(format!("/post/{}", post.slug));
        self
    }
}

/// Builds the stored form: the sender's name and avatar and the post's title are copied in.
async fn build(state: &AppState, input: NotificationInput) -> ApiResult<Notification> {
    let sender = match (input.sender_card, input.sender_id) {
        (Some(card), _) => Some(card),
        (None, Some(id)) => users::find_by_id(&state.db, id)
            .await?
            .map(|u| (u.name, u.avatar)),
        (None, None) => None,
    };
    let post_title = match (input.post_title, input.post_id) {
        (Some(title), _) => Some(title),
        (None, Some(id)) => posts::find_by_id(&state.db, id).await?.map(|p| p.title),
        (None, None) => None,
    };
    Ok(Notification {
        id: ObjectId::new(),
        user_id: input.user_id,
        kind: input.kind,
        content: input.content,
        read: false,
        navigate_to: input.navigate_to,
        sender_id: input.sender_id,
        sender_name: sender.as_ref().map(|(name, _)| name.clone()),
        sender_avatar: sender.and_then(|(_, avatar)| avatar),
        post_id: input.post_id,
        post_title,
        reply_to: input.reply_to,
        created_at: now(),
    })
}

/// Whether a notification is part of moderation: administrators' notices, the answers to them
/// and appeals to administrators. A block between the two users never silences these.
pub fn is_moderation(kind: Kind) -> bool {
    matches!(kind, Kind::Admin | Kind::AdminReply | Kind::Appeal)
}

/// Stores a notification and pushes it with the new unread count to the addressee's tabs, or
/// to their devices when they have no tab open (`services::push`).
/// Returns `None` (nothing stored) when the sender is the addressee (administrator notices
/// excepted: an administrator may note something to themselves) or when either blocked the
/// other (moderation excepted: see [`is_moderation`]).
pub async fn notify(state: &AppState, input: NotificationInput) -> ApiResult<Option<Notification>> {
    if let Some(sender) = input.sender_id {
        if sender == input.user_id && input.kind != Kind::Admin {
            return Ok(None);
        }
        if sender != input.user_id
            && !is_moderation(input.kind)
            && blocks::between(&state.db, input.user_id, sender).await?
        {
            return Ok(None);
        }
    }
    let notification = build(state, input).await?;
    notifications::insert(&state.db, &notification).await?;
    super::unread::moved(state, notification.user_id, 1).await;
    push(state, &notification).await;
    super::push::offer(state, &notification).await;
    Ok(Some(notification))
}

/// Tells the addressees of notifications stored together (the new-post worker's notices, which
/// it stores in batches and filters by the same block rule beforehand): each one's unread count
/// moves, their tabs show it, and those with a tab open anywhere in the cluster hear their new
/// count (the others read it when they next open one); those of them in `pushable` with no tab
/// open get a push on their devices (`services::push`). Returns those pushed.
pub async fn delivered(
    state: &AppState,
    stored: &[&Notification],
    pushable: &HashSet<ObjectId>,
) -> HashSet<ObjectId> {
    if stored.is_empty() {
        return HashSet::new();
    }
    let online: HashSet<String> = state.realtime.online().await.user_ids.into_iter().collect();
    for n in stored {
        super::unread::moved(state, n.user_id, 1).await;
        let user = n.user_id.to_hex();
        live::notification_created(&state.realtime, &user, view(n));
        if online.contains(&user) {
            push_unread_count(state, n.user_id).await;
        }
    }
    super::push::offer_many(state, stored, pushable, &online).await
}

/// Sends a copy of `input` (its `user_id` ignored) to every administrator but the sender.
pub async fn notify_admins(state: &AppState, input: NotificationInput) -> ApiResult<usize> {
    let mut sent = 0;
    for admin in notifications::admin_ids(&state.db).await? {
        let mut copy = input.clone();
        copy.user_id = admin;
        if notify(state, copy).await?.is_some() {
            sent += 1;
        }
    }
    Ok(sent)
}

/// Pushes a stored notification and its addressee's unread count.
pub async fn push(state: &AppState, notification: &Notification) {
    let user = notification.user_id.to_hex();
    live::notification_created(&state.realtime, &user, view(notification));
    push_unread_count(state, notification.user_id).await;
}

/// Pushes `user`'s current unread count to their tabs (after any change).
pub async fn push_unread_count(state: &AppState, user: ObjectId) {
    match super::unread::count(state, user).await {
        Ok(count) => live::unread_count_changed(&state.realtime, &user.to_hex(), count),
        Err(e) => tracing::warn!(error = %e, "could not count unread notifications"),
    }
}
