//! The daily post email's records: `job_leases` (one lease per job run, so that of several
//! server processes exactly one sends a day's email; see [`super::leases`]) and `daily_mail_logs` (one per recipient and
//! day, under a unique index, so a recipient never gets a day's email twice, whatever runs).

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, DateTime, Document};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, leases, now, unique_index, Db, DbContext, DbResult};

pub const LEASES: &str = "job_leases";
pub const LOGS: &str = "daily_mail_logs";

/// What became of a recipient's email.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Claimed; being sent (a run that died leaves it so).
    Sending,
    Sent,
    Failed,
}

/// One recipient's daily email.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DailyMailLog {
    #[serde(rename = "_id")]
    pub id: ObjectId,
    /// The day the email went out (`YYYY-MM-DD`, UTC); it lists the posts of the day before.
    pub date: String,
    pub user_id: ObjectId,
    pub email: String,
    pub post_count: i64,
    pub post_ids: Vec<ObjectId>,
    pub status: Status,
    #[serde(default)]
    pub error: Option<String>,
    /// The email log record of the message.
    #[serde(default)]
    pub email_log_id: Option<ObjectId>,
    pub created_at: DateTime,
    #[serde(default)]
    pub sent_at: Option<DateTime>,
}

/// How taking a run's lease went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lease {
    /// This process runs it now.
    Acquired,
    /// Another process is running it.
    Busy,
    /// It ran to the end already.
    Done,
}

fn leases(db: &Db) -> Collection<Document> {
    db.database().collection(LEASES)
}

fn logs(db: &Db) -> Collection<DailyMailLog> {
    db.database().collection(LOGS)
}

/// One log per recipient and day; the report lists by day.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &logs(db),
        [
            unique_index(doc! { "date": 1, "userId": 1 }, "date_user_unique"),
            index(doc! { "date": -1, "createdAt": -1 }, "date_created"),
            index(doc! { "createdAt": -1, "_id": -1 }, "created"),
        ],
        "creating daily mail log indexes",
    )
    .await?;
    Ok(())
}

/// Takes the lease of run `key` for `owner` ([`super::leases::take_with`]). A lease whose holder
/// has not shown a sign of life for `stale_ms` is taken over; a finished run is [`Lease::Done`]
/// unless `again` (a run by hand), which takes it once more (the per-recipient logs keep anyone
/// from getting the email twice).
pub async fn acquire(
    db: &Db,
    key: &str,
    owner: &str,
    stale_ms: i64,
    again: bool,
) -> DbResult<Lease> {
    let at = now();
    let stale = DateTime::from_millis(at.timestamp_millis() - stale_ms);
    let mut takeable = vec![Bson::Document(
        doc! { "finishedAt": Bson::Null, "heartbeatAt": { "$lt": stale } },
    )];
    if again {
        takeable.push(Bson::Document(doc! { "finishedAt": { "$ne": Bson::Null } }));
    }
    let fields = doc! { "startedAt": at, "heartbeatAt": at, "finishedAt": Bson::Null };
    let takeable = doc! { "$or": takeable };
    if leases::take_with(db, LEASES, key, owner, stale_ms, fields, takeable).await? {
        return Ok(Lease::Acquired);
    }
    let current = leases(db)
        .find_one(doc! { "_id": key })
        .await
        .db_context("reading a job lease")?;
    Ok(match current {
        Some(d) if !matches!(d.get("finishedAt"), None | Some(Bson::Null)) => Lease::Done,
        _ => Lease::Busy,
    })
}

/// Shows the lease's holder is alive (for `stale_ms` more); false when it lost the lease.
pub async fn heartbeat(db: &Db, key: &str, owner: &str, stale_ms: i64) -> DbResult<bool> {
    leases::renew(
        db,
        LEASES,
        key,
        owner,
        stale_ms,
        doc! { "heartbeatAt": now() },
    )
    .await
}

/// Marks the run finished, with its figures.
pub async fn finish(db: &Db, key: &str, owner: &str, figures: Document) -> DbResult<()> {
    leases(db)
        .update_one(
            doc! { "_id": key, "owner": owner },
            doc! { "$set": { "finishedAt": now(), "figures": figures } },
        )
        .await
        .db_context("finishing a job lease")?;
    Ok(())
}

/// Claims a recipient's email for the day; false when someone already did (sent or sending).
pub async fn claim(db: &Db, log: &DailyMailLog) -> DbResult<bool> {
    leases::claim(db, LOGS, log).await
}

/// Records how a claimed email went.
pub async fn record_outcome(
    db: &Db,
    id: ObjectId,
    sent: bool,
    error: Option<String>,
    email_log_id: ObjectId,
) -> DbResult<()> {
    let status = if sent { Status::Sent } else { Status::Failed };
    let mut set = doc! {
        "status": mongodb::bson::to_bson(&status).unwrap_or(Bson::Null),
        "error": error,
        "emailLogId": email_log_id,
    };
    if sent {
        set.insert("sentAt", now());
    }
    logs(db)
        .update_one(doc! { "_id": id }, doc! { "$set": set })
        .await
        .db_context("recording a daily email")?;
    Ok(())
}

/// One page of the logs, of one day when `date` is given, newest first, and how many.
pub async fn page(
    db: &Db,
    date: Option<&str>,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<DailyMailLog>, u64)> {
    let filter = match date {
        Some(d) => doc! { "date": d },
        None => doc! {},
    };
    super::newest_page(&logs(db), filter, skip, limit).await
}
