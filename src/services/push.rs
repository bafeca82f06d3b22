//! Web Push to a person's devices, decided by presence: an event for someone with a live socket
//! reaches their tabs (`services::notify`) and is not pushed; someone with no socket anywhere in
//! the cluster gets one push per device, by their switches and quiet hours. Pushes are queued
//! (`persistence::push_deliveries`) and sent by the worker (`jobs::push`), off the request.

use std::collections::{HashMap, HashSet};

use chrono::Utc;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::{Deserialize, Serialize};

use crate::domain::push::{
    check_subscription, too_many_devices, PushKind, PushMessage, PushPreferences, QuietHours,
};
use crate::error::{ApiError, ApiResult};
use crate::persistence::notifications::{self, Kind, Notification};
use crate::persistence::push_deliveries::{self as outbox, PushDelivery};
use crate::persistence::push_devices::{self as devices, Device};
use crate::persistence::users::User;
use crate::state::AppState;

pub const MSG_DEVICE_NOT_FOUND: &str = "Device not found";
pub const MSG_DEVICE_REMOVED: &str = "Device removed";
pub const MSG_NO_KEY: &str = "Push is not available right now. Try again later.";

/// A device as its owner sees it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceView {
    pub id: String,
    pub label: String,
    /// The push service's address for this device (the app compares it with its own).
    pub endpoint: String,
    pub created_at: String,
    pub last_delivery_at: Option<String>,
}

impl From<&Device> for DeviceView {
    fn from(d: &Device) -> Self {
        let iso = |t: DateTime| t.try_to_rfc3339_string().unwrap_or_default();
        DeviceView {
            id: d.id.to_hex(),
            label: d.label.clone(),
            endpoint: d.endpoint.clone(),
            created_at: iso(d.created_at),
            last_delivery_at: d.last_delivery_at.map(iso),
        }
    }
}

/// The browser's `PushSubscription` JSON with a label.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubscriptionInput {
    pub endpoint: String,
    /// When the subscription ends (milliseconds since the epoch), if the browser says.
    #[serde(default)]
    pub expiration_time: Option<f64>,
    pub keys: SubscriptionKeys,
    #[serde(default)]
    pub label: Option<String>,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeys {
    pub p256dh: String,
    pub auth: String,
}

/// The switches to change (those left out stay as they are).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreferencesInput {
    pub replies: Option<bool>,
    pub likes: Option<bool>,
    pub new_posts: Option<bool>,
    pub admin: Option<bool>,
    pub money: Option<bool>,
    pub banners: Option<bool>,
    pub quiet_hours: Option<QuietHours>,
}

/// The server's VAPID public key (base64url), made on the first call when none is stored.
pub async fn public_key(state: &AppState) -> ApiResult<String> {
    match state.push.keys(&state.db, &state.bank_cipher).await {
        Ok(keys) => Ok(keys.public.clone()),
        Err(why) => {
            tracing::error!(error = %why, "the VAPID key is not available");
            Err(ApiError::Unavailable(anyhow::anyhow!(MSG_NO_KEY)))
        }
    }
}

/// Registers a device for `user` (the same endpoint again updates it). Answers the device and
/// whether it is new.
pub async fn subscribe(
    state: &AppState,
    user: &User,
    input: SubscriptionInput,
) -> ApiResult<(DeviceView, bool)> {
    let checked = check_subscription(
        &input.endpoint,
        &input.keys.p256dh,
        &input.keys.auth,
        input.label.as_deref().unwrap_or_default(),
        state.settings.push.allow_insecure_endpoints,
    )?;
    let known = devices::find_by_endpoint(&state.db, &checked.endpoint).await?;
    let max = state.settings.push.max_devices;
    if known.as_ref().is_none_or(|d| d.user_id != user.id)
        && devices::count_of_user(&state.db, user.id).await? >= max
    {
        return Err(ApiError::bad_request(too_many_devices(max)));
    }
    let expires_at = input
        .expiration_time
        .filter(|t| t.is_finite() && *t > 0.0)
        .map(|t| DateTime::from_millis(t as i64));
    let device = Device {
        id: ObjectId::new(),
        user_id: user.id,
        endpoint: checked.endpoint,
        p256dh: checked.p256dh,
        auth: checked.auth,
        label: checked.label,
        created_at: DateTime::now(),
        last_delivery_at: None,
        expires_at,
    };
    let (stored, new) = devices::upsert(&state.db, &device).await?;
    Ok((DeviceView::from(&stored), new))
}

/// A person's devices, newest first.
pub async fn list(state: &AppState, user: &User) -> ApiResult<Vec<DeviceView>> {
    Ok(devices::of_user(&state.db, user.id)
        .await?
        .iter()
        .map(DeviceView::from)
        .collect())
}

/// Removes one of a person's devices (and what was queued for it).
pub async fn remove(state: &AppState, user: &User, id: ObjectId) -> ApiResult<()> {
    if !devices::remove_own(&state.db, user.id, id).await? {
        return Err(ApiError::not_found(MSG_DEVICE_NOT_FOUND));
    }
    outbox::drop_for_device(&state.db, id).await?;
    Ok(())
}

pub async fn preferences(state: &AppState, user: &User) -> ApiResult<PushPreferences> {
    Ok(devices::preferences_of(&state.db, user.id).await?)
}

/// Changes the switches given; answers them all.
pub async fn save_preferences(
    state: &AppState,
    user: &User,
    input: PreferencesInput,
) -> ApiResult<PushPreferences> {
    let mut prefs = devices::preferences_of(&state.db, user.id).await?;
    let set = |slot: &mut bool, value: Option<bool>| {
        if let Some(v) = value {
            *slot = v;
        }
    };
    set(&mut prefs.replies, input.replies);
    set(&mut prefs.likes, input.likes);
    set(&mut prefs.new_posts, input.new_posts);
    set(&mut prefs.admin, input.admin);
    set(&mut prefs.money, input.money);
    set(&mut prefs.banners, input.banners);
    if let Some(quiet) = input.quiet_hours {
        quiet.check()?;
        prefs.quiet_hours = QuietHours {
            start: quiet.start.trim().to_string(),
            end: quiet.end.trim().to_string(),
            time_zone: quiet.time_zone.trim().to_string(),
            ..quiet
        };
    }
    devices::save_preferences(&state.db, user.id, &prefs).await?;
    Ok(prefs)
}

/// The switch a notification falls under (`None`: never pushed).
fn kind_of(kind: Kind) -> Option<PushKind> {
    match kind {
        Kind::Like => Some(PushKind::Likes),
        Kind::Comment | Kind::Reply => Some(PushKind::Replies),
        Kind::Admin | Kind::AdminReply | Kind::Appeal => Some(PushKind::Admin),
        Kind::Subscription | Kind::Tip => Some(PushKind::Money),
        Kind::NewPost => Some(PushKind::NewPosts),
        Kind::Bookmark => None,
    }
}

fn urgency_of(kind: PushKind) -> &'static str {
    match kind {
        PushKind::Admin | PushKind::Banners => "high",
        PushKind::Likes => "low",
        _ => "normal",
    }
}

/// Where a notification's push leads (a path inside the site).
fn link_of(n: &Notification) -> String {
    n.navigate_to
        .clone()
        .unwrap_or_else(|| "/notifications".into())
}

/// The message of a notification.
fn message(n: &Notification, badge: u64) -> PushMessage {
    let title = match n.kind {
        Kind::Admin | Kind::AdminReply => "Pressroom".to_string(),
        _ => n.sender_name.clone().unwrap_or_else(|| "Pressroom".into()),
    };
    let tag = match (n.kind, n.post_id) {
        (Kind::NewPost, Some(post)) => format!("post-{}", post.to_hex()),
        _ => format!("n-{}", n.id.to_hex()),
    };
    PushMessage {
        title,
        body: n.content.clone(),
        url: link_of(n),
        tag,
        badge,
    }
}

/// Pushes a notification just stored to its addressee's devices when they have no live socket
/// (their tabs heard it already otherwise). Failures are logged: the notification stands.
pub async fn offer(state: &AppState, n: &Notification) {
    let user = n.user_id.to_hex();
    if !state.realtime.online_among(vec![user]).await.is_empty() {
        return;
    }
    if let Err(e) = offer_offline(state, n).await {
        tracing::warn!(error = %e, "could not queue a push");
    }
}

async fn offer_offline(state: &AppState, n: &Notification) -> ApiResult<()> {
    let Some(kind) = kind_of(n.kind) else {
        return Ok(());
    };
    let targets = devices::of_user(&state.db, n.user_id).await?;
    if targets.is_empty() {
        return Ok(());
    }
    let prefs = devices::preferences_of(&state.db, n.user_id).await?;
    if !prefs.allows(kind, Utc::now()) {
        return Ok(());
    }
    let badge = super::unread::count(state, n.user_id).await.unwrap_or(0);
    let (event, message) = match (kind, n.post_id) {
        (PushKind::Likes, Some(post)) => {
            let Some(m) = likes_message(state, n, post, badge).await? else {
                return Ok(());
            };
            m
        }
        _ => (format!("n:{}", n.id.to_hex()), message(n, badge)),
    };
    queue(state, &event, &targets, &message, urgency_of(kind)).await
}

/// Likes are pushed at most once per post and period: the first like of a period is pushed,
/// telling how many came since the last push; the others wait for the next period's first.
async fn likes_message(
    state: &AppState,
    n: &Notification,
    post: ObjectId,
    badge: u64,
) -> ApiResult<Option<(String, PushMessage)>> {
    let period_ms = state.settings.push.like_batch_seconds.max(1) * 1000;
    let Ok(previous) = outbox::claim_like_push(&state.db, n.user_id, post, period_ms).await? else {
        return Ok(None);
    };
    let since = previous.unwrap_or(n.created_at);
    let count = notifications::count_about_since(&state.db, n.user_id, post, Kind::Like, since)
        .await?
        .max(1);
    let title = n.post_title.clone().unwrap_or_else(|| "your post".into());
    let body = if count == 1 {
        format!(
            "{} liked \u{201c}{title}\u{201d}",
            n.sender_name.as_deref().unwrap_or("Someone")
        )
    } else {
        format!("{count} people liked \u{201c}{title}\u{201d}")
    };
    let message = PushMessage {
        title: "Pressroom".into(),
        body,
        url: link_of(n),
        tag: format!("likes-{}", post.to_hex()),
        badge,
    };
    Ok(Some((
        format!("likes:{}:{}", post.to_hex(), n.id.to_hex()),
        message,
    )))
}

/// Pushes notices stored together (the new-post worker's) to those of their addressees who are
/// in `pushable` (their alerts say `instant`) and not in `online` (the user ids with a live
/// socket, which the caller has just read). Returns those a push was queued for.
pub async fn offer_many(
    state: &AppState,
    stored: &[&Notification],
    pushable: &HashSet<ObjectId>,
    online: &HashSet<String>,
) -> HashSet<ObjectId> {
    let candidates: Vec<&Notification> = stored
        .iter()
        .copied()
        .filter(|n| pushable.contains(&n.user_id) && !online.contains(&n.user_id.to_hex()))
        .collect();
    if candidates.is_empty() {
        return HashSet::new();
    }
    match offer_many_offline(state, &candidates).await {
        Ok(pushed) => pushed,
        Err(e) => {
            tracing::warn!(error = %e, "could not queue pushes");
            HashSet::new()
        }
    }
}

async fn offer_many_offline(
    state: &AppState,
    candidates: &[&Notification],
) -> ApiResult<HashSet<ObjectId>> {
    let ids: Vec<ObjectId> = candidates.iter().map(|n| n.user_id).collect();
    let mut by_user: HashMap<ObjectId, Vec<Device>> = HashMap::new();
    for d in devices::of_users(&state.db, &ids).await? {
        by_user.entry(d.user_id).or_default().push(d);
    }
    if by_user.is_empty() {
        return Ok(HashSet::new());
    }
    let with_devices: Vec<ObjectId> = by_user.keys().copied().collect();
    let prefs = devices::preferences_of_users(&state.db, &with_devices).await?;
    let now = Utc::now();
    let mut batch = Vec::new();
    let mut pushed = HashSet::new();
    for n in candidates {
        let Some(targets) = by_user.get(&n.user_id) else {
            continue;
        };
        let Some(kind) = kind_of(n.kind) else {
            continue;
        };
        if !prefs
            .get(&n.user_id)
            .cloned()
            .unwrap_or_default()
            .allows(kind, now)
        {
            continue;
        }
        let badge = super::unread::count(state, n.user_id).await.unwrap_or(0);
        let m = message(n, badge);
        batch.extend(deliveries(
            &format!("n:{}", n.id.to_hex()),
            targets,
            &m,
            urgency_of(kind),
        ));
        pushed.insert(n.user_id);
    }
    if !batch.is_empty() {
        outbox::enqueue(&state.db, &batch).await?;
        state.wakes.push.notify_one();
    }
    Ok(pushed)
}

fn deliveries(
    event: &str,
    targets: &[Device],
    message: &PushMessage,
    urgency: &str,
) -> Vec<PushDelivery> {
    let payload = message.encode();
    let topic = message.topic();
    let now = DateTime::now();
    targets
        .iter()
        .map(|d| PushDelivery {
            id: ObjectId::new(),
            event: event.to_string(),
            device_id: d.id,
            user_id: d.user_id,
            payload: payload.clone(),
            topic: topic.clone(),
            urgency: urgency.to_string(),
            status: "queued".into(),
            attempt: 0,
            next_attempt_at: now,
            lease: None,
            created_at: now,
        })
        .collect()
}

async fn queue(
    state: &AppState,
    event: &str,
    targets: &[Device],
    message: &PushMessage,
    urgency: &str,
) -> ApiResult<()> {
    outbox::enqueue(&state.db, &deliveries(event, targets, message, urgency)).await?;
    state.wakes.push.notify_one();
    Ok(())
}

/// Devices read at a time when an urgent banner goes out to everyone.
const BANNER_PAGE: i64 = 500;

/// Pushes an urgent global banner to the devices of everyone with no tab open and banners on,
/// in the background (a page of devices at a time); a regional banner is not pushed (the
/// server does not know where a device is).
pub fn offer_banner(
    state: actix_web::web::Data<AppState>,
    banner: &crate::persistence::banners::Banner,
) {
    if banner.region != crate::persistence::banners::GLOBAL_REGION {
        return;
    }
    let url = banner
        .link
        .clone()
        .filter(|l| l.starts_with('/'))
        .unwrap_or_else(|| "/".into());
    let message = PushMessage {
        title: banner.title.clone(),
        body: banner.message.clone(),
        url,
        tag: format!("banner-{}", banner.id.to_hex()),
        badge: 0,
    };
    let event = format!("banner:{}", banner.id.to_hex());
    tokio::spawn(async move {
        if let Err(e) = banner_to_everyone(&state, &event, message).await {
            tracing::warn!(error = %e, "could not queue the pushes of an urgent banner");
        }
    });
}

async fn banner_to_everyone(state: &AppState, event: &str, message: PushMessage) -> ApiResult<()> {
    let mut after = None;
    loop {
        let page = devices::page_after(&state.db, after, BANNER_PAGE).await?;
        let Some(last) = page.last().map(|d| d.id) else {
            return Ok(());
        };
        after = Some(last);
        let users: Vec<ObjectId> = page.iter().map(|d| d.user_id).collect();
        let online: HashSet<String> = state
            .realtime
            .online_among(users.iter().map(|u| u.to_hex()).collect())
            .await
            .into_iter()
            .collect();
        let prefs = devices::preferences_of_users(&state.db, &users).await?;
        let now = Utc::now();
        let targets: Vec<Device> = page
            .into_iter()
            .filter(|d| !online.contains(&d.user_id.to_hex()))
            .filter(|d| {
                prefs
                    .get(&d.user_id)
                    .cloned()
                    .unwrap_or_default()
                    .allows(PushKind::Banners, now)
            })
            .collect();
        if !targets.is_empty() {
            queue(
                state,
                event,
                &targets,
                &message,
                urgency_of(PushKind::Banners),
            )
            .await?;
        }
    }
}
