//! Reading plans and subscriptions:
//! - `GET /api/subscription/plans/author/{authorId}` → {plans, count}: an author's active plans
//!   (public);
//! - `GET /api/subscription/my-plans?includeDeleted=true` → {plans, count}: the caller's plans
//!   with their active subscriber counts (deleted ones only when asked);
//! - `GET /api/subscription/my-subscriptions?includeEnded=true` → {plans, count}: the caller's
//!   subscriptions (running ones; ended ones only when asked);
//! - `GET /api/subscription/author/{authorId}/subscriptions` → {subscriptions, count}: every
//!   subscription to an author's plans, for the author and administrators.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use super::{
    plan_views, subscription_views, OwnPlanView, OwnPlansAnswer, PlansAnswer, SubscriptionView,
};
use crate::auth::{AuthUser, MaybeUser};
use crate::domain::money::PlanStatus;
use crate::domain::params::required_id;
use crate::error::{ApiError, ApiResult};
use crate::persistence::plans;
use crate::persistence::subscriptions;
use crate::persistence::{now, users};
use crate::services::billing::mode;
use crate::state::AppState;

pub const MSG_INVALID_AUTHOR_ID: &str = "Invalid author ID";
pub const MSG_AUTHOR_NOT_FOUND: &str = "Author not found";

/// Optional switches of the lists.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ListSwitches {
    #[serde(default)]
    pub include_deleted: Option<String>,
    #[serde(default)]
    pub include_ended: Option<String>,
}

/// `{subscriptions, count, mode}`: subscriptions of a reader or to an author (a reader's own
/// come under the key `plans`, as the seed names it).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SubscriptionsAnswer {
    pub subscriptions: Vec<SubscriptionView>,
    pub count: usize,
    pub mode: String,
}

/// `{plans, count, mode}`: the caller's subscriptions.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MySubscriptionsAnswer {
    pub plans: Vec<SubscriptionView>,
    pub count: usize,
    pub mode: String,
}

fn switch(raw: &Option<String>, name: &str) -> ApiResult<bool> {
    match raw.as_deref().map(str::trim) {
        None | Some("") | Some("false") | Some("0") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(_) => Err(ApiError::bad_request(format!(
            "{name} must be true or false"
        ))),
    }
}

#[tracing::instrument(skip_all)]
pub async fn author_plans(
    state: web::Data<AppState>,
    _viewer: MaybeUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let author = required_id(Some(&path), MSG_INVALID_AUTHOR_ID)?;
    let user = users::find_by_id(&state.db, author)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_AUTHOR_NOT_FOUND))?;
    let list: Vec<_> = if user.blocked {
        Vec::new()
    } else {
        plans::by_author(&state.db, author, false)
            .await?
            .into_iter()
            .filter(|p| p.status == PlanStatus::Active)
            .collect()
    };
    let plans = plan_views(&state.db, &list, mode(&state)).await?;
    Ok(HttpResponse::Ok().json(PlansAnswer {
        count: plans.len(),
        plans,
        mode: mode(&state).to_string(),
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn my_plans(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<ListSwitches>,
) -> ApiResult<HttpResponse> {
    let include_deleted = switch(&query.include_deleted, "includeDeleted")?;
    let list = plans::by_author(&state.db, me.user.id, include_deleted).await?;
    let running = subscriptions::giving_access_to_author(&state.db, me.user.id, now()).await?;
    let views = plan_views(&state.db, &list, mode(&state)).await?;
    let plans: Vec<OwnPlanView> = views
        .into_iter()
        .zip(&list)
        .map(|(view, plan)| OwnPlanView {
            plan: view,
            active_subscribers: running.iter().filter(|s| s.plan_id == plan.id).count(),
        })
        .collect();
    Ok(HttpResponse::Ok().json(OwnPlansAnswer {
        count: plans.len(),
        plans,
        mode: mode(&state).to_string(),
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn my_subscriptions(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<ListSwitches>,
) -> ApiResult<HttpResponse> {
    let include_ended = switch(&query.include_ended, "includeEnded")?;
    let list = subscriptions::of_reader(&state.db, me.user.id, include_ended).await?;
    let plans = subscription_views(&state.db, &list).await?;
    Ok(HttpResponse::Ok().json(MySubscriptionsAnswer {
        count: plans.len(),
        plans,
        mode: mode(&state).to_string(),
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn author_subscriptions(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let author = required_id(Some(&path), MSG_INVALID_AUTHOR_ID)?;
    if author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(
            "Only the author or an administrator can see an author's subscribers",
        ));
    }
    let list = subscriptions::to_author(&state.db, author).await?;
    let subscriptions = subscription_views(&state.db, &list).await?;
    Ok(HttpResponse::Ok().json(SubscriptionsAnswer {
        count: subscriptions.len(),
        subscriptions,
        mode: mode(&state).to_string(),
    }))
}
