//! `GET /api/subscription/plans/{id}/analytics` (the plan's author or an administrator) →
//! `{planId, planName, currency, activeSubscribers, totalSubscribers, revenue {gross, fees,
//! refunds, net}, refunds, cancellations, renewals, monthly [...]}`: money from the ledger,
//! counts from the subscription history; `monthly` covers the last 12 calendar months (UTC),
//! oldest first.

use std::collections::BTreeMap;

use actix_web::{web, HttpResponse};
use chrono::Datelike;
use mongodb::bson::doc;
use serde_json::json;

use super::load_own_plan;
use crate::auth::AuthUser;
use crate::billing::{ledger::balances, mode, to_chrono};
use crate::error::ApiResult;
use crate::persistence::ledger::{self, EntryKind};
use crate::persistence::{now, subscription_events, subscriptions};
use crate::state::AppState;

/// Months in the series.
pub const MONTHS: i32 = 12;

#[derive(Default)]
struct Month {
    new_subscribers: i64,
    renewals: i64,
    cancellations: i64,
    refunds: i64,
    gross: i64,
    net: i64,
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
    let subs = subscriptions::find(db, doc! { "planId": plan.id }).await?;
    let at = now();
    let active = subs.iter().filter(|s| s.gives_access(at)).count();
    let events = subscription_events::find(db, doc! { "planId": plan.id }).await?;
    let entries = ledger::find(db, doc! { "planId": plan.id }).await?;

    let mut months: BTreeMap<String, Month> = BTreeMap::new();
    let today = to_chrono(at);
    let (mut y, mut m) = (today.year(), today.month() as i32);
    for _ in 0..MONTHS {
        months.insert(format!("{y:04}-{m:02}"), Month::default());
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
    let monthly: Vec<_> = months
        .into_iter()
        .map(|(month, v)| {
            json!({
                "month": month,
                "newSubscribers": v.new_subscribers,
                "renewals": v.renewals,
                "cancellations": v.cancellations,
                "refunds": v.refunds,
                "gross": v.gross,
                "net": v.net,
            })
        })
        .collect();
    let mut subscribers: Vec<_> = subs.iter().map(|s| s.subscriber_id).collect();
    subscribers.sort();
    subscribers.dedup();
    Ok(HttpResponse::Ok().json(json!({
        "planId": plan.id.to_hex(),
        "planName": plan.name,
        "currency": plan.currency,
        "activeSubscribers": active,
        "totalSubscribers": subscribers.len(),
        "revenue": { "gross": gross, "fees": fees, "refunds": refunds, "net": net },
        "refunds": count("refunded"),
        "cancellations": count("cancelled"),
        "renewals": count("renewed"),
        "monthly": monthly,
        "mode": mode(&state),
    })))
}
