//! `/api/subscription/*`: authors' plans, readers' subscriptions, eligibility. Shared here: how
//! plans and subscriptions are shown and who may act on them.

pub mod analytics;
pub mod cancel;
pub mod check_eligibility;
pub mod lists;
pub mod plans;
pub mod refund;
pub mod reminders;
pub mod status;
pub mod subscribe;
pub mod unsubscribe_author;

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use serde_json::{json, Value};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::plans::{self as plan_store, Plan};
use crate::persistence::subscriptions::{self, Subscription};
use crate::persistence::{now, user_directory, Db};
use crate::routes::user::iso;

pub const MSG_PLAN_NOT_FOUND: &str = "Plan not found";
pub const MSG_INVALID_PLAN_ID: &str = "Invalid plan ID";
pub const MSG_SUBSCRIPTION_NOT_FOUND: &str = "Subscription not found";
pub const MSG_INVALID_SUBSCRIPTION_ID: &str = "Invalid subscription ID";
pub const MSG_NOT_PLAN_OWNER: &str = "Only the plan's author or an administrator can do that";
pub const MSG_NOT_SUBSCRIBER: &str = "Only the subscriber or an administrator can do that";

/// A plan as clients see it.
pub fn plan_view(plan: &Plan, mode: &str, author_name: Option<&str>) -> Value {
    json!({
        "_id": plan.id.to_hex(),
        "authorId": plan.author_id.to_hex(),
        "authorName": author_name,
        "name": plan.name,
        "description": plan.description,
        "price": plan.price,
        "currency": plan.currency,
        "interval": plan.interval,
        "benefits": plan.benefits,
        "status": plan.status,
        "isDeleted": plan.is_deleted,
        "deletedAt": plan.deleted_at.map(iso),
        "createdAt": iso(plan.created_at),
        "updatedAt": iso(plan.updated_at),
        "mode": mode,
    })
}

/// Plans with their authors' names.
pub async fn plan_views(db: &Db, list: &[Plan], mode: &str) -> ApiResult<Vec<Value>> {
    let mut ids: Vec<ObjectId> = list.iter().map(|p| p.author_id).collect();
    ids.sort();
    ids.dedup();
    let authors = user_directory::authors(db, &ids).await?;
    Ok(list
        .iter()
        .map(|p| plan_view(p, mode, authors.get(&p.author_id).map(|a| a.name.as_str())))
        .collect())
}

/// A subscription as clients see it (`subscriptionId`, `planId`, `planName`, `authorId`,
/// `status` as the seed names them).
pub fn subscription_view(sub: &Subscription, names: &HashMap<ObjectId, String>) -> Value {
    json!({
        "_id": sub.id.to_hex(),
        "subscriptionId": sub.id.to_hex(),
        "planId": sub.plan_id.to_hex(),
        "planName": sub.plan_name,
        "authorId": sub.author_id.to_hex(),
        "authorName": names.get(&sub.author_id),
        "subscriberId": sub.subscriber_id.to_hex(),
        "subscriberName": names.get(&sub.subscriber_id),
        "status": sub.status,
        "hasAccess": sub.gives_access(now()),
        "price": sub.price,
        "currency": sub.currency,
        "interval": sub.interval,
        "currentPeriodStart": sub.current_period_start.map(iso),
        "currentPeriodEnd": sub.current_period_end.map(iso),
        "graceEndsAt": sub.grace_ends_at.map(iso),
        "cancelledAt": sub.cancelled_at.map(iso),
        "refundedAt": sub.refunded_at.map(iso),
        "endedAt": sub.ended_at.map(iso),
        "endReason": sub.end_reason,
        "mode": sub.mode,
        "createdAt": iso(sub.created_at),
        "updatedAt": iso(sub.updated_at),
    })
}

/// Subscriptions with the names of their authors and subscribers.
pub async fn subscription_views(db: &Db, list: &[Subscription]) -> ApiResult<Vec<Value>> {
    let mut ids: Vec<ObjectId> = list
        .iter()
        .flat_map(|s| [s.author_id, s.subscriber_id])
        .collect();
    ids.sort();
    ids.dedup();
    let names: HashMap<ObjectId, String> = user_directory::authors(db, &ids)
        .await?
        .into_iter()
        .map(|(id, a)| (id, a.name))
        .collect();
    Ok(list.iter().map(|s| subscription_view(s, &names)).collect())
}

/// Records in the audit log an administrator's act on something of `owner`'s (an owner acting
/// on their own things is not an administrator action).
pub async fn audit_for_other(
    state: &crate::state::AppState,
    me: &AuthUser,
    owner: ObjectId,
    action: crate::audit::Action,
    target: crate::audit::Target,
    details: Value,
) {
    if me.is_admin() && owner != me.user.id {
        crate::audit::record(state, me, action, target, details).await;
    }
}

/// `{userId?, authorId}`: a reader (the caller when absent) and an author.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReaderAuthorBody {
    /// The reader; the caller when absent.
    #[schema(value_type = Option<String>)]
    pub user_id: Option<Value>,
    /// The author.
    #[schema(value_type = String)]
    pub author_id: Option<Value>,
}

/// The `{userId, authorId}` of a body: the reader (the caller when absent) and the author.
pub fn reader_and_author(body: Value, me: &AuthUser) -> ApiResult<(ObjectId, ObjectId)> {
    let f = crate::extract::Fields::of::<ReaderAuthorBody>(body)?;
    let reader = f.text("userId")?;
    let author =
        crate::extract::required_id(f.text("authorId")?.as_deref(), lists::MSG_INVALID_AUTHOR_ID)?;
    let reader = match reader {
        None => me.user.id,
        Some(raw) => crate::extract::required_id(Some(&raw), status::MSG_INVALID_USER_ID)?,
    };
    Ok((reader, author))
}

/// The plan named by a path segment.
pub async fn load_plan(db: &Db, raw: &str) -> ApiResult<Plan> {
    let id = crate::extract::required_id(Some(raw), MSG_INVALID_PLAN_ID)?;
    plan_store::find_by_id(db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_PLAN_NOT_FOUND))
}

/// The plan, if `me` may manage it (its author or an administrator).
pub async fn load_own_plan(db: &Db, raw: &str, me: &AuthUser) -> ApiResult<Plan> {
    let plan = load_plan(db, raw).await?;
    if plan.author_id != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_PLAN_OWNER));
    }
    Ok(plan)
}

/// The subscription, if `me` may act on it (its subscriber or an administrator).
pub async fn load_own_subscription(db: &Db, raw: &str, me: &AuthUser) -> ApiResult<Subscription> {
    let id = crate::extract::required_id(Some(raw), MSG_INVALID_SUBSCRIPTION_ID)?;
    let sub = subscriptions::find_by_id(db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_SUBSCRIPTION_NOT_FOUND))?;
    if sub.subscriber_id != me.user.id && !me.is_admin() {
        if sub.author_id == me.user.id {
            return Err(ApiError::forbidden(MSG_NOT_SUBSCRIBER));
        }
        // Someone else's subscription is not shown to exist.
        return Err(ApiError::not_found(MSG_SUBSCRIPTION_NOT_FOUND));
    }
    Ok(sub)
}
