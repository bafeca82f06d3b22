//! `GET /api/admin/overview` (administrators) → `{online {count, users, guests}, today {since,
//! signups, posts, reports, contactMessages}, unreadContactMessages, openReports,
//! pendingAppeals, totals {users, posts}}`: the figures the dashboard's overview opens with.
//! "Today" is the current UTC day; `posts` counts posts published today, `unreadContactMessages`
//! those not handled, `openReports` those not reviewed.

use actix_web::{web, HttpResponse};
use chrono::{NaiveTime, Utc};
use mongodb::bson::{doc, DateTime};
use serde::Serialize;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::{contact_messages, post_appeals, posts, reports, users};
use crate::post_view::iso;
use crate::state::AppState;

/// The start of the current UTC day.
fn start_of_today() -> DateTime {
    let midnight = Utc::now().date_naive().and_time(NaiveTime::MIN).and_utc();
    DateTime::from_millis(midnight.timestamp_millis())
}

/// The figures the dashboard's overview opens with.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    pub online: OnlineFigures,
    pub today: TodayFigures,
    pub unread_contact_messages: u64,
    pub open_reports: u64,
    pub pending_appeals: u64,
    pub totals: OverviewTotals,
}

/// Connected sockets, signed-in users among them, and guests.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OnlineFigures {
    pub count: usize,
    pub users: usize,
    pub guests: usize,
}

/// Since the start of the current UTC day.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TodayFigures {
    pub since: String,
    pub signups: u64,
    pub posts: u64,
    pub reports: u64,
    pub contact_messages: u64,
}

/// Users, and published posts.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OverviewTotals {
    pub users: u64,
    pub posts: u64,
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn overview(state: web::Data<AppState>, admin: AdminUser) -> ApiResult<HttpResponse> {
    let since = start_of_today();
    let today = doc! { "createdAt": { "$gte": since } };
    let db = &state.db;
    let (signups, posts_today, reports_today, contact_today) = futures_util::try_join!(
        users::count(db, today.clone()),
        posts::count(
            db,
            doc! { "status": "published", "createdAt": { "$gte": since } }
        ),
        reports::count(db, today.clone()),
        contact_messages::count(db, today.clone()),
    )?;
    let (unread, open_reports, appeals, total_users, total_posts) = futures_util::try_join!(
        contact_messages::count(db, doc! { "isHandled": false }),
        reports::count(db, doc! { "isReviewed": false }),
        post_appeals::count_pending(db),
        users::count(db, doc! {}),
        posts::count(db, doc! { "status": "published" }),
    )?;
    let online = state.realtime.online().await;
    Ok(HttpResponse::Ok().json(Overview {
        online: OnlineFigures {
            count: online.people,
            users: online.user_ids.len(),
            guests: online.guests,
        },
        today: TodayFigures {
            since: iso(since),
            signups,
            posts: posts_today,
            reports: reports_today,
            contact_messages: contact_today,
        },
        unread_contact_messages: unread,
        open_reports,
        pending_appeals: appeals,
        totals: OverviewTotals {
            users: total_users,
            posts: total_posts,
        },
    }))
}
