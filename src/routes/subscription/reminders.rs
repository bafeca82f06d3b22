//! `POST /api/subscription/reminders` (administrators; the billing job does the same every run)
//! → `{message: 'Renewal reminders sent successfully', sent, alreadySent, failed}`: emails every
//! reader whose renewal is due within `payments.reminder_days`, once per period. The body is not
//! read.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use serde_json::json;

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::services::billing::renewals::send_reminders;
use crate::state::AppState;

pub const MSG_REMINDERS_SENT: &str = "Renewal reminders sent successfully";

/// `{message, sent, alreadySent, failed}`: reminders sent, skipped as sent before, and failed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemindersAnswer {
    pub message: String,
    pub sent: usize,
    pub already_sent: usize,
    pub failed: usize,
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn reminders(state: web::Data<AppState>, admin: AdminUser) -> ApiResult<HttpResponse> {
    let report = send_reminders(&state, mongodb::bson::DateTime::now()).await?;
    crate::audit::record(
        &state,
        &admin.0,
        crate::audit::Action::SubscriptionReminders,
        crate::audit::Target::site(),
        json!({ "sent": report.sent, "alreadySent": report.already_sent, "failed": report.failed }),
    )
    .await;
    Ok(HttpResponse::Ok().json(RemindersAnswer {
        message: MSG_REMINDERS_SENT.to_string(),
        sent: report.sent,
        already_sent: report.already_sent,
        failed: report.failed,
    }))
}
