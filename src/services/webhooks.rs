//! Webhooks: endpoints people register, the events sent to them and their delivery, as the
//! Standard Webhooks specification describes (`domain::webhooks` for signatures and addresses).
//!
//! An event is queued off the request that caused it ([`emit`]): one delivery per listening
//! endpoint, with a message id that stays the same on every attempt. The worker
//! (`jobs::webhooks`) takes due deliveries under a lease and sends them ([`deliver`]): a 2xx is
//! success; anything else, a redirect included (never followed), is retried on
//! `webhooks.retry_schedule_seconds` (or later when the endpoint asks with `Retry-After`); 410
//! disables the endpoint; an endpoint that fails every delivery for `disable_after_days` is
//! disabled and its owner told. Every address an endpoint resolves to is checked at creation and
//! before every attempt: `https` to public addresses only (loopback over `http` only when
//! `webhooks.allow_loopback` is on, for tests).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;
use serde_json::{json, Value};

use crate::domain::webhooks::{self as spec};
use crate::error::{ApiError, ApiResult};
use crate::mail::{MailKind, Outgoing};
use crate::persistence::users::{self, Role, User};
use crate::persistence::webhooks::{self as store, Attempt, Delivery, Endpoint, Secret, Status};
use crate::state::AppState;

/// Hours an old secret keeps signing after a rotation.
pub const ROTATION_OVERLAP_HOURS: i64 = 24;
/// Bytes of an endpoint's answer kept in the delivery log.
const RESPONSE_KEPT: usize = 512;

pub const MSG_NOT_FOUND: &str = "Webhook not found";
pub const MSG_NO_EVENTS: &str = "Choose at least one event type for the endpoint.";
pub const MSG_DESCRIPTION: &str = "A description can be at most 200 characters.";

/// An endpoint as its owner sees it (the secret only in the creation and rotation answers).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EndpointView {
    pub id: String,
    pub url: String,
    pub events: Vec<String>,
    pub description: String,
    /// A site-wide (administrator's) endpoint.
    pub site: bool,
    pub disabled: bool,
    pub disabled_reason: Option<String>,
    pub created_at: String,
}

fn iso(at: DateTime) -> String {
    at.to_chrono()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

impl From<&Endpoint> for EndpointView {
    fn from(e: &Endpoint) -> Self {
        EndpointView {
            id: e.id.to_hex(),
            url: e.url.clone(),
            events: e.events.clone(),
            description: e.description.clone(),
            site: e.site,
            disabled: e.disabled,
            disabled_reason: e.disabled_reason.clone(),
            created_at: iso(e.created_at),
        }
    }
}

/// One delivery in an endpoint's log.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryView {
    pub id: String,
    pub webhook_id: String,
    /// The `webhook-id` header, the same on every attempt.
    pub message_id: String,
    pub event_type: String,
    /// Attempts made.
    pub attempt: i32,
    /// `pending`, `succeeded` or `failed`.
    pub status: String,
    /// The last attempt's HTTP status, if an answer came.
    pub response_status: Option<i32>,
    /// The last attempt's time (or the creation's before any).
    pub at: String,
    /// The last attempt's duration and the first bytes of its answer.
    pub duration_ms: Option<i64>,
    pub response: Option<String>,
    /// The body sent.
    pub payload: String,
}

impl From<&Delivery> for DeliveryView {
    fn from(d: &Delivery) -> Self {
        let last = d.attempts.last();
        DeliveryView {
            id: d.id.to_hex(),
            webhook_id: d.endpoint_id.to_hex(),
            message_id: d.message_id.clone(),
            event_type: d.event_type.clone(),
            attempt: d.attempt,
            status: match d.status {
                s if s.is_pending() => "pending",
                Status::Succeeded => "succeeded",
                _ => "failed",
            }
            .into(),
            response_status: last.and_then(|a| a.response_status),
            at: iso(last.map_or(d.created_at, |a| a.at)),
            duration_ms: last.map(|a| a.duration_ms),
            response: last.map(|a| a.response.clone()),
            payload: d.body.clone(),
        }
    }
}

/// What an endpoint asks for, unchecked.
pub struct EndpointInput {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    pub description: Option<String>,
}

fn check_events(user: &User, site: bool, events: &[String]) -> ApiResult<Vec<String>> {
    if events.is_empty() {
        return Err(ApiError::bad_request(MSG_NO_EVENTS));
    }
    let mut out = Vec::new();
    for e in events {
        let Some(known) = spec::event_type(e) else {
            let names: Vec<&str> = spec::EVENT_TYPES.iter().map(|t| t.name).collect();
            return Err(ApiError::bad_request(format!(
                "Unknown event type \"{e}\". Event types are: {}.",
                names.join(", ")
            )));
        };
        if known.admin && !(site && user.role == Role::Admin) {
            return Err(ApiError::bad_request(format!(
                "Only site-wide endpoints of administrators can receive \"{e}\"."
            )));
        }
        if !out.contains(e) {
            out.push(e.clone());
        }
    }
    Ok(out)
}

/// The addresses `url` may be delivered to, or a refusal saying why not.
pub async fn resolve_allowed(
    state: &AppState,
    url: &str,
) -> Result<(reqwest::Url, Vec<SocketAddr>), String> {
    let parsed = reqwest::Url::parse(url).map_err(|_| format!("\"{url}\" is not a URL."))?;
    let loopback_ok = state.settings.webhooks.allow_loopback;
    match parsed.scheme() {
        "https" => {}
        "http" if loopback_ok => {}
        _ => return Err("Webhook URLs must use https.".into()),
    }
    let host = parsed
        .host_str()
        .ok_or_else(|| format!("\"{url}\" has no host."))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let port = parsed.port_or_known_default().unwrap_or(443);
    let addrs = super::outbound::lookup(&host, port)
        .await
        .ok_or_else(|| format!("The host \"{host}\" could not be found."))?;
    if let Some(ip) = super::outbound::first_refused(&addrs, loopback_ok) {
        return Err(format!(
            "Webhook URLs must reach a public address; {host} resolves to {ip}, which is private, local or reserved."
        ));
    }
    if parsed.scheme() == "http" && !addrs.iter().all(|a| a.ip().is_loopback()) {
        return Err("Webhook URLs must use https.".into());
    }
    Ok((parsed, addrs))
}

async fn check_url(state: &AppState, url: &str) -> ApiResult<String> {
    let url = url.trim();
    if url.is_empty() || url.len() > 2000 {
        return Err(ApiError::bad_request(
            "Give the endpoint's URL (at most 2000 characters).",
        ));
    }
    resolve_allowed(state, url)
        .await
        .map_err(ApiError::bad_request)?;
    Ok(url.to_string())
}

fn check_description(d: Option<String>) -> ApiResult<String> {
    let d = d.unwrap_or_default().trim().to_string();
    if d.chars().count() > 200 {
        return Err(ApiError::bad_request(MSG_DESCRIPTION));
    }
    Ok(d)
}

/// Registers an endpoint for `user` (`site`: an administrator's site-wide one); answers it with
/// its secret, shown this once.
pub async fn create(
    state: &AppState,
    user: &User,
    site: bool,
    input: EndpointInput,
) -> ApiResult<(Endpoint, String)> {
    if site && user.role != Role::Admin {
        return Err(ApiError::forbidden(
            "Only administrators can add site-wide webhooks.",
        ));
    }
    let url = check_url(state, input.url.as_deref().unwrap_or("")).await?;
    let events = check_events(user, site, &input.events.unwrap_or_default())?;
    let description = check_description(input.description)?;
    let max = state.settings.webhooks.max_endpoints;
    if store::count_of(&state.db, user.id).await? >= max {
        return Err(ApiError::bad_request(format!(
            "You can have at most {max} webhook endpoints. Remove one you no longer use first."
        )));
    }
    let secret = spec::new_secret();
    let endpoint = Endpoint {
        id: ObjectId::new(),
        owner_id: user.id,
        site,
        url,
        events,
        description,
        secrets: vec![Secret {
            sealed: state.bank_cipher.seal(&secret),
            created_at: DateTime::now(),
            expires_at: None,
        }],
        disabled: false,
        disabled_reason: None,
        failing_since: None,
        created_at: DateTime::now(),
    };
    store::insert_endpoint(&state.db, &endpoint).await?;
    Ok((endpoint, secret))
}

/// `user`'s endpoint `id` (404 for anyone else's).
pub async fn own(state: &AppState, user: &User, id: ObjectId) -> ApiResult<Endpoint> {
    store::find_endpoint(&state.db, id)
        .await?
        .filter(|e| e.owner_id == user.id)
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))
}

pub async fn list(state: &AppState, user: &User) -> ApiResult<Vec<EndpointView>> {
    Ok(store::endpoints_of(&state.db, user.id)
        .await?
        .iter()
        .map(EndpointView::from)
        .collect())
}

/// Why an endpoint its owner turned off hears nothing.
pub const MSG_TURNED_OFF: &str = "Turned off by its owner.";

/// Changes an endpoint; `disabled` turns it off (its owner's pause) or back on.
pub async fn update(
    state: &AppState,
    user: &User,
    id: ObjectId,
    input: EndpointInput,
    disabled: Option<bool>,
) -> ApiResult<EndpointView> {
    let endpoint = own(state, user, id).await?;
    let mut set = mongodb::bson::Document::new();
    if let Some(url) = input.url {
        set.insert("url", check_url(state, &url).await?);
    }
    if let Some(events) = input.events {
        set.insert("events", check_events(user, endpoint.site, &events)?);
    }
    if input.description.is_some() {
        set.insert("description", check_description(input.description)?);
    }
    match disabled {
        Some(false) => {
            set.insert("disabled", false);
            set.insert("disabledReason", mongodb::bson::Bson::Null);
            set.insert("failingSince", mongodb::bson::Bson::Null);
        }
        Some(true) if !endpoint.disabled => {
            set.insert("disabled", true);
            set.insert("disabledReason", MSG_TURNED_OFF);
        }
        _ => {}
    }
    if !set.is_empty() {
        store::update_endpoint(&state.db, id, set).await?;
    }
    let after = own(state, user, id).await?;
    Ok(EndpointView::from(&after))
}

pub async fn remove(state: &AppState, user: &User, id: ObjectId) -> ApiResult<()> {
    own(state, user, id).await?;
    store::delete_endpoint(&state.db, id).await?;
    Ok(())
}

/// A new secret; the previous ones keep signing for [`ROTATION_OVERLAP_HOURS`].
pub async fn rotate(state: &AppState, user: &User, id: ObjectId) -> ApiResult<String> {
    let endpoint = own(state, user, id).await?;
    let now = chrono::Utc::now();
    let overlap = DateTime::from_chrono(now + chrono::Duration::hours(ROTATION_OVERLAP_HOURS));
    let mut secrets: Vec<Secret> = endpoint
        .secrets
        .into_iter()
        .filter(|s| s.expires_at.is_none_or(|at| at.to_chrono() > now))
        .map(|mut s| {
            s.expires_at = Some(s.expires_at.map_or(overlap, |at| at.min(overlap)));
            s
        })
        .collect();
    let secret = spec::new_secret();
    secrets.push(Secret {
        sealed: state.bank_cipher.seal(&secret),
        created_at: DateTime::now(),
        expires_at: None,
    });
    let secrets = mongodb::bson::to_bson(&secrets).map_err(ApiError::internal)?;
    store::update_endpoint(&state.db, id, mongodb::bson::doc! { "secrets": secrets }).await?;
    Ok(secret)
}

fn message(event_type: &str, data: Value) -> String {
    json!({
        "type": event_type,
        "timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "data": data,
    })
    .to_string()
}

fn delivery(endpoint: &Endpoint, event_type: &str, body: String) -> Delivery {
    Delivery {
        id: ObjectId::new(),
        message_id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
        endpoint_id: endpoint.id,
        owner_id: endpoint.owner_id,
        event_type: event_type.to_string(),
        body,
        status: Status::Queued,
        attempt: 0,
        next_attempt_at: DateTime::now(),
        attempts: Vec::new(),
        created_at: DateTime::now(),
    }
}

/// Queues a test event to the endpoint (disabled or not).
pub async fn send_test(state: &AppState, user: &User, id: ObjectId) -> ApiResult<Delivery> {
    let endpoint = own(state, user, id).await?;
    let body = message(
        "webhook.test",
        json!({ "webhookId": endpoint.id.to_hex(), "message": "A test event from Pressroom." }),
    );
    let d = delivery(&endpoint, "webhook.test", body);
    store::insert_deliveries(&state.db, std::slice::from_ref(&d)).await?;
    Ok(d)
}

/// Sends one of `user`'s deliveries again, with the same message id.
pub async fn resend(state: &AppState, user: &User, id: ObjectId) -> ApiResult<Delivery> {
    let d = store::find_delivery(&state.db, id)
        .await?
        .filter(|d| d.owner_id == user.id)
        .ok_or_else(|| ApiError::not_found("Delivery not found"))?;
    store::requeue(&state.db, d.id).await?;
    Ok(d)
}

pub async fn deliveries(
    state: &AppState,
    user: &User,
    id: ObjectId,
) -> ApiResult<Vec<DeliveryView>> {
    own(state, user, id).await?;
    Ok(store::deliveries_of(&state.db, id, 100)
        .await?
        .iter()
        .map(DeliveryView::from)
        .collect())
}

/// Queues `event_type` about something of `owner`'s (none: site-wide only) for every endpoint
/// that listens, beside the request that caused it.
pub fn emit(state: &AppState, event_type: &'static str, owner: Option<ObjectId>, data: Value) {
    let db = state.db.clone();
    let Ok(handle) = tokio::runtime::Handle::try_current() else {
        return;
    };
    handle.spawn(async move {
        let result = async {
            let endpoints = store::listening(&db, owner, event_type).await?;
            let endpoints = still_entitled(&db, endpoints).await?;
            let body = message(event_type, data);
            let list: Vec<Delivery> = endpoints
                .iter()
                .map(|e| delivery(e, event_type, body.clone()))
                .collect();
            store::insert_deliveries(&db, &list).await
        }
        .await;
        if let Err(e) = result {
            tracing::error!(error = %e, event_type, "could not queue webhook deliveries");
        }
    });
}

/// Of `endpoints`, those whose owners may still hear: not blocked, and administrators still
/// for a site-wide one (an endpoint outlives neither its owner's block nor their role).
async fn still_entitled(
    db: &crate::persistence::Db,
    endpoints: Vec<Endpoint>,
) -> crate::persistence::DbResult<Vec<Endpoint>> {
    if endpoints.is_empty() {
        return Ok(endpoints);
    }
    let mut owners: Vec<ObjectId> = endpoints.iter().map(|e| e.owner_id).collect();
    owners.sort();
    owners.dedup();
    let people: std::collections::HashMap<ObjectId, User> = users::find_many(db, &owners)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    Ok(endpoints
        .into_iter()
        .filter(|e| {
            people
                .get(&e.owner_id)
                .is_some_and(|u| !u.blocked && (!e.site || u.role == Role::Admin))
        })
        .collect())
}

/// A post as events describe it: never its text (a subscriber-only post's text must not reach
/// an endpoint that is not its author's).
pub fn post_data(state: &AppState, post: &crate::persistence::posts::Post) -> Value {
    json!({
        "id": post.id.to_hex(),
        "slug": post.slug,
        "title": post.title,
        "url": state.settings.public_link(&format!("/post/{}", post.slug)),
        "authorId": post.author.to_hex(),
        "status": post.status.as_str(),
        "visibility": post.visibility.as_str(),
    })
}

/// The signatures of `body` under every live secret of the endpoint, space-separated.
fn signatures(state: &AppState, endpoint: &Endpoint, id: &str, ts: i64, body: &str) -> String {
    let now = DateTime::now();
    endpoint
        .secrets
        .iter()
        .filter(|s| s.expires_at.is_none_or(|at| at > now))
        .filter_map(|s| state.bank_cipher.open(&s.sealed).ok())
        .filter_map(|secret| spec::sign(&secret, id, ts, body))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The worker's HTTP client for endpoints addressed by IP (no name to pin): redirects never
/// followed, the configured timeout.
pub fn shared_client(state: &AppState) -> reqwest::Client {
    client_builder(state).build().unwrap_or_default()
}

fn client_builder(state: &AppState) -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(state.settings.webhooks.timeout_seconds))
        .user_agent("Pressroom-Webhooks/1")
}

/// One attempt at a delivery taken by the worker.
pub async fn deliver(state: &AppState, shared: &reqwest::Client, d: Delivery) {
    let Ok(Some(endpoint)) = store::find_endpoint(&state.db, d.endpoint_id).await else {
        let _ = store::record_attempt(
            &state.db,
            d.id,
            &gone("the endpoint was removed"),
            Status::Failed,
            DateTime::now(),
        )
        .await;
        return;
    };
    if endpoint.disabled && d.event_type != "webhook.test" {
        let _ = store::record_attempt(
            &state.db,
            d.id,
            &gone("the endpoint is disabled"),
            Status::Failed,
            DateTime::now(),
        )
        .await;
        return;
    }
    let started = Instant::now();
    let outcome = send(state, shared, &endpoint, &d).await;
    let duration_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    let (status, response, retry_after) = match outcome {
        Ok(answer) => answer,
        Err(why) => (None, why, None),
    };
    let attempt = Attempt {
        at: DateTime::now(),
        response_status: status.map(i32::from),
        duration_ms,
        response,
    };
    let ok = status.is_some_and(|s| (200..300).contains(&s));
    if ok {
        let _ = store::record_attempt(
            &state.db,
            d.id,
            &attempt,
            Status::Succeeded,
            DateTime::now(),
        )
        .await;
        if endpoint.failing_since.is_some() {
            let _ = store::update_endpoint(
                &state.db,
                endpoint.id,
                mongodb::bson::doc! { "failingSince": null },
            )
            .await;
        }
        return;
    }
    if status == Some(410) {
        let _ =
            store::record_attempt(&state.db, d.id, &attempt, Status::Failed, DateTime::now()).await;
        disable(state, &endpoint, "The endpoint answered 410 Gone.").await;
        return;
    }
    let schedule = &state.settings.webhooks.retry_schedule_seconds;
    let made = usize::try_from(d.attempt).unwrap_or(0);
    let (next_status, next_at) = match schedule.get(made) {
        Some(&wait) => {
            // Later when the endpoint asks (at most a day later); never sooner than planned.
            let wait = retry_after.map_or(wait, |asked| wait.max(asked.min(86_400)));
            let at = DateTime::from_millis(
                DateTime::now().timestamp_millis()
                    + i64::try_from(wait * 1000).unwrap_or(i64::MAX / 2),
            );
            (Status::Retrying, at)
        }
        None => (Status::Failed, DateTime::now()),
    };
    let _ = store::record_attempt(&state.db, d.id, &attempt, next_status, next_at).await;
    let since = endpoint.failing_since.unwrap_or_else(DateTime::now);
    if endpoint.failing_since.is_none() {
        let _ = store::update_endpoint(
            &state.db,
            endpoint.id,
            mongodb::bson::doc! { "failingSince": since },
        )
        .await;
    }
    let limit = chrono::Duration::days(state.settings.webhooks.disable_after_days);
    if chrono::Utc::now() - since.to_chrono() >= limit {
        disable(state, &endpoint, "Every delivery failed for days.").await;
    }
}

fn gone(why: &str) -> Attempt {
    Attempt {
        at: DateTime::now(),
        response_status: None,
        duration_ms: 0,
        response: format!("Not sent: {why}."),
    }
}

/// Sends the delivery: the answer's status, first bytes and `Retry-After` (seconds), or why
/// nothing was sent or received.
async fn send(
    state: &AppState,
    shared: &reqwest::Client,
    endpoint: &Endpoint,
    d: &Delivery,
) -> Result<(Option<u16>, String, Option<u64>), String> {
    let (url, addrs) = resolve_allowed(state, &endpoint.url)
        .await
        .map_err(|why| format!("Not sent: {why}"))?;
    // A name is pinned to the addresses just checked, so it cannot resolve elsewhere between
    // the check and the connection; an address needs no pinning.
    let host = url.host_str().unwrap_or_default().to_string();
    let by_address = super::outbound::is_address(&host);
    let pinned;
    let client = if by_address {
        shared
    } else {
        pinned = client_builder(state)
            .resolve_to_addrs(&host, &addrs)
            .build()
            .map_err(|e| format!("Not sent: {e}"))?;
        &pinned
    };
    let ts = chrono::Utc::now().timestamp();
    let signature = signatures(state, endpoint, &d.message_id, ts, &d.body);
    let res = client
        .post(url)
        .header("content-type", "application/json")
        .header("webhook-id", &d.message_id)
        .header("webhook-timestamp", ts.to_string())
        .header("webhook-signature", signature)
        .body(d.body.clone())
        .send()
        .await
        .map_err(|e| format!("No answer: {}", without_url(&e)))?;
    let status = res.status().as_u16();
    let retry_after = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| spec::retry_after_seconds(v, chrono::Utc::now()));
    let bytes = res.bytes().await.unwrap_or_default();
    let kept = String::from_utf8_lossy(&bytes[..bytes.len().min(RESPONSE_KEPT)]).to_string();
    Ok((Some(status), kept, retry_after))
}

fn without_url(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "the endpoint did not answer in time".into()
    } else if e.is_connect() {
        "could not connect".into()
    } else {
        "the request failed".into()
    }
}

/// Disables an endpoint, gives up its pending deliveries and tells its owner.
async fn disable(state: &AppState, endpoint: &Endpoint, why: &str) {
    let set = mongodb::bson::doc! { "disabled": true, "disabledReason": why };
    if store::update_endpoint(&state.db, endpoint.id, set)
        .await
        .is_err()
    {
        return;
    }
    let _ = store::fail_pending(&state.db, endpoint.id).await;
    if let Ok(Some(owner)) = users::find_by_id(&state.db, endpoint.owner_id).await {
        let body = format!(
            "Hello {},\n\nYour webhook endpoint {} was disabled: {why}\n\nNo more events are sent to it. Fix the endpoint, then turn it back on in Settings → Developers:\n{}\n",
            owner.name,
            endpoint.url,
            state.settings.public_link("/user-setting#developers"),
        );
        let mail = Outgoing::new(
            MailKind::Security,
            &owner.email,
            "A webhook endpoint was disabled",
            body,
        )
        .for_user(owner.id);
        state.mailer.send_mail(mail).await;
    }
}

/// The post events of a change from `before` (none: a new post) to `after`.
pub fn post_changed(
    state: &AppState,
    before: Option<&crate::persistence::posts::Post>,
    after: &crate::persistence::posts::Post,
) {
    use crate::domain::post::PostStatus::Published;
    let was = before.is_some_and(|b| b.status == Published);
    let is = after.status == Published;
    let event = match (was, is) {
        (false, true) => "post.published",
        (true, true) => "post.updated",
        (true, false) => "post.unpublished",
        (false, false) => return,
    };
    emit(state, event, Some(after.author), post_data(state, after));
}
