//! Tips: a reader pays a writer once for one post. Every refusal (the post, the writer, the
//! amount, blocks) happens before the provider is asked; one tip is made of simultaneous or
//! repeated requests (the reader's `Idempotency-Key`, unique in the store, and a claim on
//! (reader, post) for [`RECENT_TIP_SECONDS`] that also joins two tabs without a shared key); the
//! provider is asked under `tip:<id>`, so a retried call makes no second charge; the writer is
//! credited once (the ledger takes each source once), told once (live and stored), paid out with
//! the rest of their balance, and a refund reverses the credit once.

use std::time::Duration;

use mongodb::bson::doc;
use mongodb::bson::oid::ObjectId;

use super::ledger::{append, NewEntry};
use super::subscribe::ANSWER_LOST_AFTER_MS;
use super::{customer_for, eligibility, mode, provider_error};
use crate::domain::money::{format_amount, minimum_charge, platform_fee};
use crate::domain::post::{PostStatus, Visibility};
use crate::error::{ApiError, ApiResult};
use crate::live::{self, TipReceived, Tipper};
use crate::payments::{Charge, ChargeRequest, ChargeStatus, ProviderError};
use crate::persistence::ledger::EntryKind;
use crate::persistence::notifications::Kind;
use crate::persistence::posts::{self, Post};
use crate::persistence::tips::{self, Tip, TipSettings, TipStatus};
use crate::persistence::users::User;
use crate::persistence::{blocks, now, users};
use crate::ratelimit::Kind as Limit;
use crate::services::notify::{notify, NotificationInput};
use crate::state::AppState;

pub const MSG_THANKS: &str = "Thank you for your tip";
pub const MSG_POST_NOT_FOUND: &str = "Post not found";
pub const MSG_POST_BLOCKED: &str = "This post has been blocked and cannot be tipped";
pub const MSG_OWN_POST: &str = "You cannot tip your own post";
pub const MSG_BLOCKED: &str = "You cannot tip this writer";
pub const MSG_NOT_ELIGIBLE: &str = "This writer does not accept tips yet";
pub const MSG_SIGN_IN: &str = "Sign in to support this post";
pub const MSG_KEY_REUSED: &str =
    "This Idempotency-Key was already used for a different tip; use a new key for a new tip";
pub const MSG_IN_FLIGHT: &str = "This tip is still being processed; try again in a moment";
pub const MSG_MOMENTS_AGO: &str =
    "You tipped this post a moment ago; wait a minute before tipping it again";
pub const MSG_TIP_NOT_FOUND: &str = "Tip not found";
/// Longest public message, in characters.
pub const MAX_MESSAGE_CHARS: usize = 280;
/// A second tip of the same reader to the same post this soon is the first one (a double click,
/// two tabs) unless the first failed.
pub const RECENT_TIP_SECONDS: i64 = 60;
/// Suggested amounts a writer may set.
pub const MAX_SUGGESTED: usize = 5;
/// What a writer suggests until they choose: 3, 5 and 10 of the currency.
pub const DEFAULT_SUGGESTED: [i64; 3] = [300, 500, 1000];

/// A tip to make, its fields checked for type.
#[derive(Debug, Clone)]
pub struct TipRequest {
    pub post_id: ObjectId,
    pub amount: i64,
    pub currency: String,
    pub message: Option<String>,
    pub public: bool,
    pub payment_method: Option<String>,
    /// The reader's `Idempotency-Key`.
    pub client_key: Option<String>,
}

/// What tipping gave.
pub struct Given {
    pub tip: Tip,
    /// Set when the reader must confirm the payment in the browser (the `stripe` provider).
    pub client_secret: Option<String>,
    /// An earlier request made this tip; this one charged nothing.
    pub replayed: bool,
}

/// A writer's tip settings, the defaults until they save some.
pub async fn settings_for(state: &AppState, author: ObjectId) -> ApiResult<TipSettings> {
    Ok(match tips::settings_of(&state.db, author).await? {
        Some(s) => s,
        None => TipSettings {
            author_id: author,
            currency: state
                .settings
                .payments
                .currencies
                .first()
                .cloned()
                .unwrap_or_else(|| "usd".into()),
            suggested_amounts: DEFAULT_SUGGESTED.to_vec(),
            updated_at: now(),
        },
    })
}

/// The smallest and largest tip in `currency`.
pub fn bounds(state: &AppState, currency: &str) -> (i64, i64) {
    (
        minimum_charge(currency),
        state.settings.payments.tip_max_amount,
    )
}

/// A post that may be tipped, with its writer and their settings.
pub struct Target {
    pub post: Post,
    pub author: User,
    pub settings: TipSettings,
}

/// Whether `reader` may tip the post `post_id`: the refusal a tip would meet, in the order the
/// checks are made (the post, its writer, blocks, the writer's eligibility).
pub async fn target(
    state: &AppState,
    reader: Option<&User>,
    post_id: ObjectId,
) -> ApiResult<Target> {
    let db = &state.db;
    let post = posts::find_by_id(db, post_id)
        .await?
        .filter(|p| {
            p.status == PostStatus::Published
                && p.is_published
                && p.visibility != Visibility::Private
        })
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if post.blocked {
        return Err(ApiError::forbidden(MSG_POST_BLOCKED));
    }
    let author = users::find_by_id(db, post.author)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
    if let Some(reader) = reader {
        if reader.id == author.id {
            return Err(ApiError::forbidden(MSG_OWN_POST));
        }
        if reader.blocked || blocks::between(db, reader.id, author.id).await? {
            return Err(ApiError::forbidden(MSG_BLOCKED));
        }
    }
    // The stored verdict (kept by every assessment: the writer's eligibility page, plans, tip
    // settings), not a fresh assessment, which reads all the writer's posts on every post view.
    if author.blocked || !author.is_eligible_for_subscription {
        return Err(ApiError::forbidden(MSG_NOT_ELIGIBLE));
    }
    let settings = settings_for(state, author.id).await?;
    Ok(Target {
        post,
        author,
        settings,
    })
}

/// The writer of a post (404 when there is no such post).
pub async fn author_of(state: &AppState, post: ObjectId) -> ApiResult<ObjectId> {
    posts::find_by_id(&state.db, post)
        .await?
        .map(|p| p.author)
        .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))
}

/// Assesses the writer again (their eligibility as stored), when they open their tip settings.
pub async fn refresh_eligibility(state: &AppState, writer: &User) {
    if let Err(e) = eligibility::assess(state, writer.clone()).await {
        tracing::warn!(error = %e, "could not assess a writer's eligibility");
    }
}

/// Checks the amount and currency against the writer's currency and the bounds.
fn check_amount(state: &AppState, target: &Target, amount: i64, currency: &str) -> ApiResult<()> {
    let wanted = &target.settings.currency;
    if currency != wanted {
        return Err(ApiError::bad_request(format!(
            "This writer accepts tips in {}",
            wanted.to_uppercase()
        )));
    }
    let (min, max) = bounds(state, currency);
    if amount < min {
        return Err(ApiError::bad_request(format!(
            "The smallest tip is {}",
            format_amount(min, currency)
        )));
    }
    if amount > max {
        return Err(ApiError::bad_request(format!(
            "The largest tip is {}",
            format_amount(max, currency)
        )));
    }
    Ok(())
}

/// Whether `tip` is what `req` asks for (the same post, amount and currency).
fn same(tip: &Tip, req: &TipRequest) -> bool {
    tip.post_id == req.post_id && tip.amount == req.amount && tip.currency == req.currency
}

/// Waits (briefly) for the tip a claim names to be written: it is inserted right after its claim.
async fn claimed_tip(state: &AppState, id: ObjectId) -> ApiResult<Option<Tip>> {
    for _ in 0..20 {
        if let Some(tip) = tips::find_by_id(&state.db, id).await? {
            return Ok(Some(tip));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(None)
}

/// A tip the caller may see: the reader who made it, the writer paid, or an administrator.
pub async fn load(state: &AppState, id: ObjectId) -> ApiResult<Tip> {
    tips::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_TIP_NOT_FOUND))
}

/// Tips the post `req.post_id` from `reader`, charging through the provider once.
pub async fn give(state: &AppState, reader: &User, req: TipRequest) -> ApiResult<Given> {
    let db = &state.db;
    let target = target(state, Some(reader), req.post_id).await?;
    check_amount(state, &target, req.amount, &req.currency)?;
    let request_key = req
        .client_key
        .as_ref()
        .map(|k| format!("{}:{k}", reader.id));
    if let Some(key) = &request_key {
        if let Some(earlier) = tips::find_one(db, doc! { "requestKey": key }).await? {
            if !same(&earlier, &req) {
                return Err(ApiError::conflict(MSG_KEY_REUSED));
            }
            return replay(state, earlier).await;
        }
    }
    let id = ObjectId::new();
    let slot = format!("{}:{}", reader.id, req.post_id);
    let mut claimed = false;
    for _ in 0..3 {
        let held = match tips::claim(db, &slot, id).await? {
            Ok(_) => {
                claimed = true;
                break;
            }
            Err(held) => held,
        };
        let age_ms = now().timestamp_millis() - held.created_at.timestamp_millis();
        if age_ms < RECENT_TIP_SECONDS * 1000 {
            match claimed_tip(state, held.tip_id).await? {
                // A double click, a retry, another tab: the same tip.
                Some(other) if other.status != TipStatus::Failed => {
                    if !same(&other, &req) {
                        return Err(ApiError::conflict(MSG_MOMENTS_AGO));
                    }
                    return replay(state, other).await;
                }
                // The earlier one was declined (try another card at once), or never came to
                // exist: this tip takes the claim over.
                _ => {}
            }
        }
        if tips::take_over(db, &held, id).await? {
            claimed = true;
            break;
        }
    }
    if !claimed {
        return Err(ApiError::conflict(MSG_IN_FLIGHT));
    }
    if let Err(e) = state
        .limiter
        .hit(Limit::TipReader, &reader.id.to_hex())
        .await
    {
        tips::release(db, &slot, id).await?;
        return Err(e);
    }
    let at = now();
    let tip = Tip {
        id,
        post_id: target.post.id,
        post_title: target.post.title.clone(),
        author_id: target.author.id,
        sender_id: reader.id,
        amount: req.amount,
        currency: req.currency.clone(),
        fee: platform_fee(req.amount, state.settings.payments.platform_fee_percent),
        message: req.message.clone(),
        public: req.public,
        hidden: false,
        status: TipStatus::Pending,
        request_key: request_key.unwrap_or_else(|| format!("tip:{id}")),
        idempotency_key: format!("tip:{id}"),
        payment_method: req.payment_method.clone(),
        provider_payment_id: None,
        failure_reason: None,
        refund_reason: None,
        refunded_by: None,
        refunded_at: None,
        provider_refund_id: None,
        refund_status: None,
        mode: mode(state).into(),
        created_at: at,
        updated_at: at,
    };
    if let Err(earlier) = tips::insert_once(db, &tip).await? {
        // The same key, sent at the same moment for another post.
        tips::release(db, &slot, id).await?;
        if !same(&earlier, &req) {
            return Err(ApiError::conflict(MSG_KEY_REUSED));
        }
        return replay(state, earlier).await;
    }
    let charge = ask_provider(state, &tip, reader).await?;
    let (tip, client_secret) = settle(state, &tip, &charge).await?;
    if let ChargeStatus::Failed { reason } = charge.status {
        return Err(ApiError::PaymentRequired(reason));
    }
    Ok(Given {
        tip,
        client_secret,
        replayed: false,
    })
}

/// Asks the provider to charge `tip` (under its idempotency key: asking again answers the same
/// charge). A refusal is applied to the tip before the error is answered; an unreachable provider
/// leaves it pending, for a retry to ask again.
async fn ask_provider(state: &AppState, tip: &Tip, reader: &User) -> ApiResult<Charge> {
    let customer = customer_for(state, reader).await?;
    let answer = state
        .payments
        .charge(ChargeRequest {
            customer,
            amount: tip.amount,
            currency: tip.currency.clone(),
            payment_method: tip.payment_method.clone(),
            off_session: false,
            description: format!("Tip for \"{}\"", tip.post_title),
            metadata: vec![
                ("kind".into(), "tip".into()),
                ("tipId".into(), tip.id.to_hex()),
                ("postId".into(), tip.post_id.to_hex()),
                ("authorId".into(), tip.author_id.to_hex()),
            ],
            idempotency_key: tip.idempotency_key.clone(),
        })
        .await;
    match answer {
        Ok(charge) => Ok(charge),
        Err(ProviderError::Unavailable(cause)) => {
            Err(provider_error(ProviderError::Unavailable(cause)))
        }
        Err(e) => {
            let failed = Charge {
                id: String::new(),
                status: ChargeStatus::Failed {
                    reason: e.to_string(),
                },
                payment_method: None,
            };
            settle(state, tip, &failed).await?;
            Err(provider_error(e))
        }
    }
}

/// Answers a tip an earlier request made: as it stands, asking the provider where it is still
/// waiting (by its id, or — its first answer lost — by the same call under the same key).
async fn replay(state: &AppState, tip: Tip) -> ApiResult<Given> {
    let db = &state.db;
    let mut tip = tip;
    // Another request is asking the provider right now: wait for its answer.
    for _ in 0..50 {
        if tip.status != TipStatus::Pending || tip.provider_payment_id.is_some() {
            break;
        }
        if now().timestamp_millis() - tip.created_at.timestamp_millis() >= ANSWER_LOST_AFTER_MS {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        tip = tips::find_by_id(db, tip.id).await?.unwrap_or(tip);
    }
    let given = |tip: Tip, client_secret: Option<String>| Given {
        tip,
        client_secret,
        replayed: true,
    };
    match tip.status {
        TipStatus::Failed => {
            return Err(ApiError::PaymentRequired(
                tip.failure_reason
                    .clone()
                    .unwrap_or_else(|| "The payment failed".into()),
            ))
        }
        TipStatus::Pending => {}
        _ => return Ok(given(tip, None)),
    }
    let charge = match tip.provider_payment_id.clone() {
        Some(id) => state
            .payments
            .retrieve_charge(id)
            .await
            .map_err(provider_error)?,
        None if now().timestamp_millis() - tip.created_at.timestamp_millis()
            < ANSWER_LOST_AFTER_MS =>
        {
            return Err(ApiError::conflict(MSG_IN_FLIGHT));
        }
        None => {
            let reader = users::find_by_id(db, tip.sender_id)
                .await?
                .ok_or_else(|| ApiError::not_found(MSG_TIP_NOT_FOUND))?;
            ask_provider(state, &tip, &reader).await?
        }
    };
    let (tip, client_secret) = settle(state, &tip, &charge).await?;
    if let ChargeStatus::Failed { reason } = charge.status {
        return Err(ApiError::PaymentRequired(reason));
    }
    Ok(given(tip, client_secret))
}

/// Applies the provider's answer about `tip` (from the call, a retry or a webhook): paid credits
/// the writer once and tells them once; waiting records the provider's id; failed frees the
/// reader to try again at once. Returns the tip after it and the client secret of a waiting
/// payment.
pub async fn settle(
    state: &AppState,
    tip: &Tip,
    charge: &Charge,
) -> ApiResult<(Tip, Option<String>)> {
    let db = &state.db;
    let provider_id = Some(charge.id.as_str()).filter(|id| !id.is_empty());
    match &charge.status {
        ChargeStatus::Succeeded => {
            let mut set = doc! { "status": TipStatus::Succeeded.as_str() };
            if let Some(id) = provider_id {
                set.insert("providerPaymentId", id);
            }
            let moved = tips::transition(db, tip.id, &[TipStatus::Pending], set).await?;
            let current = match &moved {
                Some(t) => t.clone(),
                None => reload(state, tip.id).await?,
            };
            if current.status == TipStatus::Failed {
                tracing::warn!(tip = %tip.id, "a tip marked failed was reported paid; left for an administrator");
                return Ok((current, None));
            }
            credit(state, &current).await?;
            if moved.is_some() {
                tell_writer(state, &current).await;
            }
            Ok((current, None))
        }
        ChargeStatus::Pending { client_secret } => {
            let current = match provider_id {
                Some(id) => tips::set(db, tip.id, doc! { "providerPaymentId": id })
                    .await?
                    .unwrap_or_else(|| tip.clone()),
                None => tip.clone(),
            };
            Ok((current, client_secret.clone()))
        }
        ChargeStatus::Failed { reason } => {
            let mut set = doc! { "status": TipStatus::Failed.as_str(), "failureReason": reason };
            if let Some(id) = provider_id {
                set.insert("providerPaymentId", id);
            }
            let moved = tips::transition(db, tip.id, &[TipStatus::Pending], set).await?;
            tips::release(db, &format!("{}:{}", tip.sender_id, tip.post_id), tip.id).await?;
            let current = match moved {
                Some(t) => t,
                None => reload(state, tip.id).await?,
            };
            Ok((current, None))
        }
    }
}

async fn reload(state: &AppState, id: ObjectId) -> ApiResult<Tip> {
    tips::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("tip {id} vanished")))
}

/// The ledger source of a tip's credit and of its refund.
pub fn credit_source(tip: ObjectId) -> String {
    format!("tip:{tip}")
}

pub fn refund_source(tip: ObjectId) -> String {
    format!("tip-refund:{tip}")
}

/// Credits the writer for a paid tip (once: the ledger takes each source once).
async fn credit(state: &AppState, tip: &Tip) -> ApiResult<()> {
    append(
        &state.db,
        NewEntry {
            author_id: tip.author_id,
            kind: EntryKind::Charge,
            source: credit_source(tip.id),
            currency: tip.currency.clone(),
            gross: tip.amount,
            fee: tip.fee,
            amount: tip.amount - tip.fee,
            plan_id: None,
            subscription_id: None,
            post_id: Some(tip.post_id),
            tip_id: Some(tip.id),
        },
    )
    .await?;
    Ok(())
}

/// The writer's notification text: "Ana tipped $5 on 'Post title': 'Thanks!'".
pub fn notice_text(reader: &str, tip: &Tip) -> String {
    let mut text = format!(
        "{reader} tipped {} on '{}'",
        format_amount(tip.amount, &tip.currency),
        tip.post_title
    );
    if let Some(message) = tip.message.as_deref().filter(|m| !m.is_empty()) {
        text.push_str(&format!(": '{message}'"));
    }
    text
}

/// Tells the writer: a stored notification (live to their tabs as every notification is) and
/// the `tipReceived` event. A failure is logged; the tip stands.
async fn tell_writer(state: &AppState, tip: &Tip) {
    let reader = match users::find_by_id(&state.db, tip.sender_id).await {
        Ok(Some(u)) => u,
        _ => return,
    };
    let post = posts::find_by_id(&state.db, tip.post_id)
        .await
        .ok()
        .flatten();
    let mut input = NotificationInput::from_user(
        tip.author_id,
        &reader,
        Kind::Tip,
        &notice_text(&reader.name, tip),
    );
    input = match &post {
        Some(p) => input.about(p),
        None => input,
    };
    if let Err(e) = notify(state, input).await {
        tracing::warn!(error = %e, "could not notify the writer of a tip");
    }
    crate::services::webhooks::emit(
        state,
        "tip.received",
        Some(tip.author_id),
        serde_json::json!({
            "id": tip.id.to_hex(),
            "postId": tip.post_id.to_hex(),
            "amount": tip.amount,
            "currency": tip.currency,
            "fromId": reader.id.to_hex(),
            "fromName": reader.name,
            "message": tip.message,
        }),
    );
    live::tip_received(
        &state.realtime,
        &tip.author_id.to_hex(),
        TipReceived {
            tip_id: tip.id.to_hex(),
            post_id: tip.post_id.to_hex(),
            amount: tip.amount,
            currency: tip.currency.clone(),
            from: Tipper {
                id: reader.id.to_hex(),
                name: reader.name.clone(),
            },
            message: tip.message.clone(),
        },
    );
}
