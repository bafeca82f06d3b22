//! The figures the administrators' dashboard opens with (`GET /api/admin/overview`): who is
//! online, what happened today (UTC) and what waits for them.

use chrono::{NaiveTime, Utc};
use mongodb::bson::DateTime;
use serde::Serialize;

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

/// The dashboard's figures now.
pub async fn overview(state: &AppState) -> ApiResult<Overview> {
    let since = start_of_today();
    let db = &state.db;
    let (signups, posts_today, reports_today, contact_today) = futures_util::try_join!(
        users::count_created_since(db, since),
        posts::count_published_since(db, since),
        reports::count_created_since(db, since),
        contact_messages::count_created_since(db, since),
    )?;
    let (unread, open_reports, appeals, total_users, total_posts) = futures_util::try_join!(
        contact_messages::count_unhandled(db),
        reports::count_unreviewed(db),
        post_appeals::count_pending(db),
        users::count_all(db),
        posts::count_published(db),
    )?;
    let online = state.realtime.online().await;
    Ok(Overview {
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
    })
}
