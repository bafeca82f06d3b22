//! `GET /api/admin/overview` (administrators) → `{online {count, users, guests}, today {since,
//! signups, posts, reports, contactMessages}, unreadContactMessages, openReports,
//! pendingAppeals, totals {users, posts}}`: the figures the dashboard's overview opens with.
//! "Today" is the current UTC day; `posts` counts posts published today, `unreadContactMessages`
//! those not handled, `openReports` those not reviewed.

use actix_web::{web, HttpResponse};
use chrono::{NaiveTime, Utc};
use mongodb::bson::{doc, DateTime};
use serde_json::json;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::{contact_messages, post_appeals, posts, reports, users};
use crate::routes::user::iso;
use crate::state::AppState;

/// The start of the current UTC day.
fn start_of_today() -> DateTime {
    let midnight = Utc::now().date_naive().and_time(NaiveTime::MIN).and_utc();
    DateTime::from_millis(midnight.timestamp_millis())
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
    Ok(HttpResponse::Ok().json(json!({
        "online": {
            "count": online.sockets,
            "users": online.user_ids.len(),
            "guests": online.guests,
        },
        "today": {
            "since": iso(since),
            "signups": signups,
            "posts": posts_today,
            "reports": reports_today,
            "contactMessages": contact_today,
        },
        "unreadContactMessages": unread,
        "openReports": open_reports,
        "pendingAppeals": appeals,
        "totals": { "users": total_users, "posts": total_posts },
    })))
}
