//! The `renewal_reminders` collection: one record per subscription and period
//! (`_id: "<subscription>:<period end in ms>"`), inserted before the reminder is sent, so each
//! reader is reminded once per period whichever job or administrator sends reminders.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::{Deserialize, Serialize};

use super::{now, Db, DbResult};

pub const COLLECTION: &str = "renewal_reminders";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reminder {
    #[serde(rename = "_id")]
    pub id: String,
    pub subscription_id: ObjectId,
    pub sent_at: DateTime,
}

/// Claims the reminder of this period; `false` when it was sent (or is being sent) already.
pub async fn claim(db: &Db, subscription: ObjectId, period_end: DateTime) -> DbResult<bool> {
    let reminder = Reminder {
        id: format!("{subscription}:{}", period_end.timestamp_millis()),
        subscription_id: subscription,
        sent_at: now(),
    };
    super::leases::claim(db, COLLECTION, &reminder).await
}
