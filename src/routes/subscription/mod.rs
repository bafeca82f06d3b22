//! `/api/subscription/*`: authors' plans, readers' subscriptions, eligibility. Shared here: how
//! plans and subscriptions are shown and who may act on them.

pub mod analytics;
pub mod cancel;
pub mod check_eligibility;
pub mod lists;
pub mod plans;
pub mod private_feed;
pub mod refund;
pub mod reminders;
pub mod status;
pub mod subscribe;
pub mod unsubscribe_author;

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::domain::money::Interval;
use crate::domain::money::PlanStatus;
use crate::error::{ApiError, ApiResult};
use crate::extract::Sent;
use crate::persistence::plans::{self as plan_store, Plan};
use crate::persistence::subscriptions::{self, SubStatus, Subscription};
use crate::persistence::{now, user_directory, Db};
use crate::post_view::iso;

pub const MSG_PLAN_NOT_FOUND: &str = "Plan not found";
pub const MSG_INVALID_PLAN_ID: &str = "Invalid plan ID";
pub const MSG_SUBSCRIPTION_NOT_FOUND: &str = "Subscription not found";
pub const MSG_INVALID_SUBSCRIPTION_ID: &str = "Invalid subscription ID";
pub const MSG_NOT_PLAN_OWNER: &str = "Only the plan's author or an administrator can do that";
pub const MSG_NOT_SUBSCRIBER: &str = "Only the subscriber or an administrator can do that";

/// A plan as clients see it (`authorName` is null where the answer does not look it up).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanView {
    #[serde(rename = "_id")]
    pub id: String,
    pub author_id: String,
    pub author_name: Option<String>,
    pub name: String,
    pub description: String,
    /// In the currency's smallest unit.
    pub price: i64,
    pub currency: String,
    pub interval: Interval,
    pub benefits: Vec<String>,
    pub status: PlanStatus,
    pub is_deleted: bool,
    pub deleted_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// `test` or `live`: the payment provider's mode.
    pub mode: String,
}

/// A plan as clients see it.
pub fn plan_view(plan: &Plan, mode: &str, author_name: Option<&str>) -> PlanView {
    PlanView {
        id: plan.id.to_hex(),
        author_id: plan.author_id.to_hex(),
        author_name: author_name.map(str::to_string),
        name: plan.name.clone(),
        description: plan.description.clone(),
        price: plan.price,
        currency: plan.currency.clone(),
        interval: plan.interval,
        benefits: plan.benefits.clone(),
        status: plan.status,
        is_deleted: plan.is_deleted,
        deleted_at: plan.deleted_at.map(iso),
        created_at: iso(plan.created_at),
        updated_at: iso(plan.updated_at),
        mode: mode.to_string(),
    }
}

/// `{message, plan, mode}`: the answer of a change to a plan.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PlanAnswer {
    pub message: String,
    pub plan: PlanView,
    pub mode: String,
}

/// `{plans, count, mode}`: an author's plans.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PlansAnswer {
    pub plans: Vec<PlanView>,
    pub count: usize,
    pub mode: String,
}

/// A plan of the caller's own, with its subscribers who have access now.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnPlanView {
    #[serde(flatten)]
    pub plan: PlanView,
    pub active_subscribers: usize,
}

/// `{plans, count, mode}`: the caller's own plans.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OwnPlansAnswer {
    pub plans: Vec<OwnPlanView>,
    pub count: usize,
    pub mode: String,
}

/// Plans with their authors' names.
pub async fn plan_views(db: &Db, list: &[Plan], mode: &str) -> ApiResult<Vec<PlanView>> {
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
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionView {
    #[serde(rename = "_id")]
    pub id: String,
    pub subscription_id: String,
    pub plan_id: String,
    pub plan_name: String,
    pub author_id: String,
    pub author_name: Option<String>,
    pub subscriber_id: String,
    pub subscriber_name: Option<String>,
    pub status: SubStatus,
    pub has_access: bool,
    pub price: i64,
    pub currency: String,
    pub interval: Interval,
    pub current_period_start: Option<String>,
    pub current_period_end: Option<String>,
    pub grace_ends_at: Option<String>,
    pub cancelled_at: Option<String>,
    pub refunded_at: Option<String>,
    pub ended_at: Option<String>,
    pub end_reason: Option<String>,
    pub mode: String,
    pub created_at: String,
    pub updated_at: String,
}

/// A subscription as clients see it.
pub fn subscription_view(
    sub: &Subscription,
    names: &HashMap<ObjectId, String>,
) -> SubscriptionView {
    SubscriptionView {
        id: sub.id.to_hex(),
        subscription_id: sub.id.to_hex(),
        plan_id: sub.plan_id.to_hex(),
        plan_name: sub.plan_name.clone(),
        author_id: sub.author_id.to_hex(),
        author_name: names.get(&sub.author_id).cloned(),
        subscriber_id: sub.subscriber_id.to_hex(),
        subscriber_name: names.get(&sub.subscriber_id).cloned(),
        status: sub.status,
        has_access: sub.gives_access(now()),
        price: sub.price,
        currency: sub.currency.clone(),
        interval: sub.interval,
        current_period_start: sub.current_period_start.map(iso),
        current_period_end: sub.current_period_end.map(iso),
        grace_ends_at: sub.grace_ends_at.map(iso),
        cancelled_at: sub.cancelled_at.map(iso),
        refunded_at: sub.refunded_at.map(iso),
        ended_at: sub.ended_at.map(iso),
        end_reason: sub.end_reason.clone(),
        mode: sub.mode.clone(),
        created_at: iso(sub.created_at),
        updated_at: iso(sub.updated_at),
    }
}

/// The view of one subscription, with the names of its author and subscriber.
pub async fn subscription_view_of(db: &Db, sub: &Subscription) -> ApiResult<SubscriptionView> {
    subscription_views(db, std::slice::from_ref(sub))
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a subscription had no view")))
}

/// `{message, subscription, mode}`: the answer of a change to a subscription.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SubscriptionAnswer {
    pub message: String,
    pub subscription: SubscriptionView,
    pub mode: String,
}

/// Subscriptions with the names of their authors and subscribers.
pub async fn subscription_views(
    db: &Db,
    list: &[Subscription],
) -> ApiResult<Vec<SubscriptionView>> {
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

/// `{userId?, authorId}`: a reader (the caller when absent) and an author.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReaderAuthorBody {
    /// The reader; the caller when absent.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub user_id: Sent<UserIdText>,
    /// The author.
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub author_id: Sent<AuthorIdText>,
}

crate::text_field! {
    /// `userId` as sent (an id, checked by [`ReaderAuthorBody::validate`]).
    UserIdText = "userId";
    /// `authorId` as sent (an id, checked by [`ReaderAuthorBody::validate`]).
    AuthorIdText = "authorId";
}

impl ReaderAuthorBody {
    /// The reader (the caller when absent) and the author.
    pub fn validate(&self, me: &AuthUser) -> ApiResult<(ObjectId, ObjectId)> {
        let reader = self.user_id.value()?;
        let author = self.author_id.value()?.map(|a| a.0.as_str());
        let author = crate::domain::params::required_id(author, lists::MSG_INVALID_AUTHOR_ID)?;
        let reader = match reader {
            None => me.user.id,
            Some(raw) => {
                crate::domain::params::required_id(Some(&raw.0), status::MSG_INVALID_USER_ID)?
            }
        };
        Ok((reader, author))
    }
}

/// The plan named by a path segment.
pub async fn load_plan(db: &Db, raw: &str) -> ApiResult<Plan> {
    let id = crate::domain::params::required_id(Some(raw), MSG_INVALID_PLAN_ID)?;
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
    let id = crate::domain::params::required_id(Some(raw), MSG_INVALID_SUBSCRIPTION_ID)?;
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
