//! `GET /api/subscription/plans/{id}/analytics` (the plan's author or an administrator) →
//! `{planId, planName, currency, activeSubscribers, totalSubscribers, revenue {gross, fees,
//! refunds, net}, refunds, cancellations, renewals, monthly [...]}`: money from the ledger,
//! counts from the subscription history; `monthly` covers the last 12 calendar months (UTC),
//! oldest first.

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use chrono::Datelike;
use serde::Serialize;

use super::load_own_plan;
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::persistence::ledger::{self, EntryKind};
use crate::persistence::{now, subscription_events, subscriptions};
use crate::services::billing::{ledger::balances, mode, to_chrono};
use crate::state::AppState;

/// Months in the series.
pub const MONTHS: i32 = 12;

/// One calendar month (`YYYY-MM`, UTC) of a plan's figures; amounts in minor units.
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanMonth {
    pub month: String,
    pub new_subscribers: i64,
    pub renewals: i64,
    pub cancellations: i64,
    pub refunds: i64,
    pub gross: i64,
    pub net: i64,
}

/// A plan's money (minor units): charged, fees, refunded, and what the author keeps.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PlanRevenue {
    pub gross: i64,
    pub fees: i64,
    pub refunds: i64,
    pub net: i64,
}

/// A plan's figures.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanAnalytics {
    pub plan_id: String,
    pub plan_name: String,
    pub currency: String,
    pub active_subscribers: usize,
    pub total_subscribers: usize,
    pub revenue: PlanRevenue,
    pub refunds: usize,
    pub cancellations: usize,
    pub renewals: usize,
    /// The last 12 months, oldest first.
    pub monthly: Vec<PlanMonth>,
    pub mode: String,
}

fn month_key(at: mongodb::bson::DateTime) -> String {
    let t = to_chrono(at);
    format!("{:04}-{:02}", t.year(), t.month())
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn analytics(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let plan = load_own_plan(&state.db, &path, &me).await?;
    let db = &state.db;
    let subs = subscriptions::of_plan(db, plan.id).await?;
    let at = now();
    let active = subs.iter().filter(|s| s.gives_access(at)).count();
    let events = subscription_events::of_plan(db, plan.id).await?;
    let entries = ledger::of_plan(db, plan.id).await?;

    let mut months: BTreeMap<String, PlanMonth> = BTreeMap::new();
    let today = to_chrono(at);
    let (mut y, mut m) = (today.year(), today.month() as i32);
    for _ in 0..MONTHS {
        months.insert(format!("{y:04}-{m:02}"), PlanMonth::default());
        m -= 1;
        if m == 0 {
            m = 12;
            y -= 1;
        }
    }
    let count = |kind: &str| events.iter().filter(|e| e.kind == kind).count();
    for e in &events {
        if let Some(month) = months.get_mut(&month_key(e.created_at)) {
            match e.kind.as_str() {
                "subscribed" => month.new_subscribers += 1,
                "renewed" => month.renewals += 1,
                "cancelled" => month.cancellations += 1,
                "refunded" => month.refunds += 1,
                _ => {}
            }
        }
    }
    for e in &entries {
        if let Some(month) = months.get_mut(&month_key(e.created_at)) {
            if e.kind == EntryKind::Charge {
                month.gross += e.gross;
            }
            month.net += e.amount;
        }
    }
    let totals = balances(&entries);
    let (gross, fees, refunds, net) = totals.values().fold((0, 0, 0, 0), |acc, b| {
        (
            acc.0 + b.gross,
            acc.1 + b.fees,
            acc.2 + b.refunds,
            acc.3 + b.available,
        )
    });
    let monthly: Vec<PlanMonth> = months
        .into_iter()
        .map(|(month, v)| PlanMonth { month, ..v })
        .collect();
    let mut subscribers: Vec<_> = subs.iter().map(|s| s.subscriber_id).collect();
    subscribers.sort();
    subscribers.dedup();
    Ok(HttpResponse::Ok().json(PlanAnalytics {
        plan_id: plan.id.to_hex(),
        plan_name: plan.name,
        currency: plan.currency,
        active_subscribers: active,
        total_subscribers: subscribers.len(),
        revenue: PlanRevenue {
            gross,
            fees,
            refunds,
            net,
        },
        refunds: count("refunded"),
        cancellations: count("cancelled"),
        renewals: count("renewed"),
        monthly,
        mode: mode(&state).to_string(),
    }))
}
