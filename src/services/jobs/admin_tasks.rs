//! Administrators' heavy actions, run by the job worker instead of inside their request:
//! retrying failed emails (each send may wait seconds on the mail server) and broadcasting a
//! notice (one notification per user). The request stores a job (`admin_jobs`, status `queued`)
//! and answers 202 at once with its id; every node's worker claims queued jobs one at a time
//! (an atomic `queued → running` update, so a job runs once across the nodes), runs it, records
//! its progress and results on the job, and tells the administrators (`adminJobProgress` to
//! `adminRoom`). `GET /api/admin/jobs/{id}` reads a job.
//!
//! A job whose node died while running it stays `running` with an old `updatedAt`; after
//! `STALE_AFTER` another node's worker takes it up again (its steps are idempotent: each email is
//! claimed before sending, and a broadcast skips users who already have the notice).

use std::time::Duration;

use actix_web::web;
use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, DateTime, Document};
use mongodb::options::ReturnDocument;
use mongodb::Collection;
use serde_json::{json, Value};

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::ApiResult;
use crate::mail::MailKind;
use crate::persistence::notifications::{self, Kind, Notification};
use crate::persistence::users::User;
use crate::persistence::{email_logs, leases, now, Db, DbContext, DbResult};
use crate::post_view::iso;
use crate::services::email_retry::{
    mail_type, send_again, view as log_view, RetryResult, MAX_PER_RETRY,
};
use crate::services::notifications::view as notice_view;
use crate::state::AppState;

pub const COLLECTION: &str = "admin_jobs";
pub const RETRY_EMAILS: &str = "retry_emails";
pub const BROADCAST: &str = "broadcast";
/// Notifications written per step of a broadcast.
const BROADCAST_BATCH: usize = 500;
/// A running job not updated for this long is taken up again by another worker.
pub const STALE_AFTER: Duration = Duration::from_secs(120);
/// How often an idle worker looks for queued jobs (a new job on this node wakes it at once).
const POLL: Duration = Duration::from_secs(1);

fn collection(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

/// Queues a job; returns it as stored.
pub async fn enqueue(
    state: &AppState,
    kind: &str,
    params: Document,
    by: ObjectId,
) -> DbResult<Document> {
    let db = &state.db;
    let at = now();
    let job = doc! {
        "_id": ObjectId::new(),
        "kind": kind,
        "status": "queued",
        "params": params,
        "createdBy": by,
        "done": 0_i64,
        "total": Bson::Null,
        "results": [],
        "message": Bson::Null,
        "createdAt": at,
        "updatedAt": at,
    };
    collection(db)
        .insert_one(&job)
        .await
        .db_context("queueing a job")?;
    state.wakes.admin_jobs.notify_one();
    Ok(job)
}

/// Queues the broadcast of `content` from `sender` to every user (not blocked, not the sender);
/// returns the job as stored.
pub async fn enqueue_broadcast(
    state: &AppState,
    sender: &User,
    content: &str,
) -> DbResult<Document> {
    let mut params = doc! { "content": content, "senderName": &sender.name };
    if let Some(avatar) = &sender.avatar {
        params.insert("senderAvatar", avatar);
    }
    enqueue(state, BROADCAST, params, sender.id).await
}

/// Queues the administrator `me`'s notice `content` to every user (not blocked, not `me`) and
/// records it: how many users it goes to, its job id and the job.
pub async fn start_broadcast(
    state: &AppState,
    me: &AuthUser,
    content: &str,
) -> ApiResult<(usize, String, Value)> {
    let count = notifications::broadcast_audience(&state.db, me.user.id)
        .await?
        .len();
    let job = enqueue_broadcast(state, &me.user, content).await?;
    let job = job_view(&job);
    let job_id = job["_id"].as_str().unwrap_or_default().to_string();
    audit::record(
        state,
        me,
        Action::NoticeBroadcast,
        Target::site(),
        json!({ "content": content, "recipients": count, "jobId": job_id }),
    )
    .await;
    Ok((count, job_id, job))
}

/// Queues sending the failed messages of `kind` again, as `by`; returns the job as stored.
pub async fn enqueue_email_retry(
    state: &AppState,
    kind: MailKind,
    by: ObjectId,
) -> DbResult<Document> {
    enqueue(state, RETRY_EMAILS, doc! { "type": kind.as_str() }, by).await
}

/// A job by id.
pub async fn find(db: &Db, id: ObjectId) -> DbResult<Option<Document>> {
    collection(db)
        .find_one(doc! { "_id": id })
        .await
        .db_context("reading a job")
}

fn int(d: &Document, key: &str) -> Option<i64> {
    match d.get(key) {
        Some(Bson::Int64(n)) => Some(*n),
        Some(Bson::Int32(n)) => Some(i64::from(*n)),
        Some(Bson::Double(n)) => Some(*n as i64),
        _ => None,
    }
}

/// A job as clients see it: `{_id, kind, status, done, total, message, results, createdAt,
/// updatedAt}`.
pub fn job_view(job: &Document) -> Value {
    let results: Vec<Value> = job
        .get_array("results")
        .map(|a| a.iter().map(|b| b.clone().into_relaxed_extjson()).collect())
        .unwrap_or_default();
    let time = |k: &str| job.get_datetime(k).ok().map(|t| iso(*t));
    json!({
        "_id": job.get_object_id("_id").map(|i| i.to_hex()).unwrap_or_default(),
        "kind": job.get_str("kind").unwrap_or_default(),
        "status": job.get_str("status").unwrap_or_default(),
        "done": int(job, "done").unwrap_or(0),
        "total": int(job, "total"),
        "message": job.get_str("message").ok(),
        "results": results,
        "createdAt": time("createdAt"),
        "updatedAt": time("updatedAt"),
    })
}

/// Tells the administrators where a job stands.
fn announce(state: &AppState, job: &Document) {
    let mut v = job_view(job);
    if let Some(o) = v.as_object_mut() {
        // The results are read from the job; the event carries the figures.
        o.remove("results");
        let id = o.get("_id").cloned().unwrap_or(Value::Null);
        o.insert("jobId".into(), id);
    }
    crate::live::admin_job_progress(&state.realtime, v);
}

/// Applies `update` to the job and tells the administrators.
async fn progress(state: &AppState, id: ObjectId, mut update: Document) -> DbResult<()> {
    let set = update
        .entry("$set".to_string())
        .or_insert_with(|| Bson::Document(Document::new()));
    if let Bson::Document(set) = set {
        set.insert("updatedAt", now());
    }
    let job = collection(&state.db)
        .find_one_and_update(doc! { "_id": id }, update)
        .return_document(ReturnDocument::After)
        .await
        .db_context("recording a job's progress")?;
    if let Some(job) = job {
        announce(state, &job);
    }
    Ok(())
}

/// How many jobs a worker tries to take in one look before it waits for the next (another
/// worker may take the one it found first).
const TAKE_TRIES: usize = 3;

/// Claims the oldest queued job (or a stale running one) for this worker: the job as read is
/// taken only if no other worker took that same version of it first
/// ([`leases::take_version`]).
async fn claim(state: &AppState) -> DbResult<Option<Document>> {
    let stale = DateTime::from_millis(
        now().timestamp_millis() - i64::try_from(STALE_AFTER.as_millis()).unwrap_or(0),
    );
    let node = state.realtime.node().unwrap_or("single").to_string();
    for _ in 0..TAKE_TRIES {
        let Some(found) = collection(&state.db)
            .find_one(doc! { "$or": [
                { "status": "queued" },
                { "status": "running", "updatedAt": { "$lt": stale } },
            ] })
            .sort(doc! { "createdAt": 1 })
            .await
            .db_context("finding a job to run")?
        else {
            return Ok(None);
        };
        let Ok(id) = found.get_object_id("_id") else {
            return Ok(None);
        };
        let mut version = doc! { "_id": id, "status": found.get_str("status").unwrap_or("queued") };
        match found.get("updatedAt") {
            Some(at) => version.insert("updatedAt", at.clone()),
            None => version.insert("updatedAt", doc! { "$exists": false }),
        };
        let taken = leases::take_version(
            &state.db,
            COLLECTION,
            version,
            doc! { "status": "running", "node": &node, "updatedAt": now() },
        )
        .await?;
        if taken {
            return find(&state.db, id).await;
        }
    }
    Ok(None)
}

/// Runs one claimed job to its end.
async fn run(state: &AppState, job: Document) {
    let Ok(id) = job.get_object_id("_id") else {
        return;
    };
    announce(state, &job);
    let result = match job.get_str("kind").unwrap_or_default() {
        RETRY_EMAILS => retry_emails(state, id, &job).await,
        BROADCAST => broadcast(state, id, &job).await,
        other => Err(anyhow::anyhow!("unknown job kind {other}").into()),
    };
    if let Err(e) = result {
        tracing::warn!(job = %id, error = %e, "a background job failed");
        let _ = progress(
            state,
            id,
            doc! { "$set": { "status": "failed", "message": "The job failed; it may be started again" } },
        )
        .await;
    }
}

async fn retry_emails(state: &AppState, id: ObjectId, job: &Document) -> DbResult<()> {
    let params = job.get_document("params").cloned().unwrap_or_default();
    let Ok(Some(kind)) = mail_type(params.get_str("type").ok()) else {
        return Err(anyhow::anyhow!("a retry job without a mail type").into());
    };
    let ids = email_logs::retryable_ids(&state.db, kind.as_str(), MAX_PER_RETRY).await?;
    let total = i64::try_from(ids.len()).unwrap_or(i64::MAX);
    progress(state, id, doc! { "$set": { "total": total } }).await?;
    let (mut sent, mut failed) = (0_i64, 0_i64);
    for log_id in ids {
        let result = match email_logs::claim_for_retry(&state.db, log_id).await? {
            None => None,
            Some(log) => match send_again(state, &log, kind).await {
                Ok(outcome) => {
                    if outcome.success {
                        sent += 1;
                    } else {
                        failed += 1;
                    }
                    let now_log = email_logs::find_by_id(&state.db, log_id).await?;
                    Some(match now_log {
                        Some(l) => RetryResult::Log(log_view(&l)),
                        None => RetryResult::Gone(crate::services::email_retry::GoneLog {
                            id: log_id.to_hex(),
                            success: outcome.success,
                            error: outcome.error,
                        }),
                    })
                }
                Err(e) => {
                    // The message stays open for a later retry.
                    let _ = email_logs::release_claim(&state.db, log_id).await;
                    tracing::warn!(error = %e, "a failed email could not be sent again");
                    failed += 1;
                    None
                }
            },
        };
        let mut update = doc! { "$inc": { "done": 1_i64 } };
        if let Some(r) = result {
            let r = mongodb::bson::to_bson(&r).unwrap_or(Bson::Null);
            update.insert("$push", doc! { "results": r });
        }
        progress(state, id, update).await?;
    }
    progress(
        state,
        id,
        doc! { "$set": { "status": "done", "message": format!("{sent} sent, {failed} still failing") } },
    )
    .await
}

async fn broadcast(state: &AppState, id: ObjectId, job: &Document) -> DbResult<()> {
    let params = job.get_document("params").cloned().unwrap_or_default();
    let content = params.get_str("content").unwrap_or_default().to_string();
    let sender = job
        .get_object_id("createdBy")
        .map_err(|_| anyhow::anyhow!("a broadcast without a sender"))?;
    let sender_name = params.get_str("senderName").ok().map(str::to_string);
    let sender_avatar = params.get_str("senderAvatar").ok().map(str::to_string);
    let audience = notifications::broadcast_audience(&state.db, sender).await?;
    // A job taken up again skips the users who already have this broadcast's notice.
    let already: std::collections::HashSet<ObjectId> = state
        .db
        .database()
        .collection::<Document>(notifications::COLLECTION)
        .find(doc! { "broadcastJob": id })
        .projection(doc! { "userId": 1 })
        .await
        .db_context("listing a broadcast's notices")?
        .try_collect::<Vec<_>>()
        .await
        .db_context("listing a broadcast's notices")?
        .iter()
        .filter_map(|d| d.get_object_id("userId").ok())
        .collect();
    let total = i64::try_from(audience.len()).unwrap_or(i64::MAX);
    progress(
        state,
        id,
        doc! { "$set": { "total": total, "done": i64::try_from(already.len()).unwrap_or(0) } },
    )
    .await?;
    let todo: Vec<ObjectId> = audience
        .into_iter()
        .filter(|u| !already.contains(u))
        .collect();
    for batch in todo.chunks(BROADCAST_BATCH) {
        let at = now();
        let items: Vec<Notification> = batch
            .iter()
            .map(|user| Notification {
                id: ObjectId::new(),
                user_id: *user,
                kind: Kind::Admin,
                content: content.clone(),
                read: false,
                navigate_to: None,
                sender_id: Some(sender),
                sender_name: sender_name.clone(),
                sender_avatar: sender_avatar.clone(),
                post_id: None,
                post_title: None,
                reply_to: None,
                created_at: at,
            })
            .collect();
        // Stored with the job's id, so a job taken up again skips who already has it.
        let docs: Vec<Document> = items
            .iter()
            .filter_map(|n| mongodb::bson::to_document(n).ok())
            .map(|mut d| {
                d.insert("broadcastJob", id);
                d
            })
            .collect();
        state
            .db
            .database()
            .collection::<Document>(notifications::COLLECTION)
            .insert_many(docs)
            .await
            .db_context("storing notifications")?;
        let online = state.realtime.online().await.user_ids;
        for item in items
            .iter()
            .filter(|n| online.contains(&n.user_id.to_hex()))
        {
            crate::services::notify::push(state, item).await;
            let mut notice = notice_view(item);
            notice["broadcast"] = json!(true);
            crate::live::notice_broadcast(&state.realtime, &item.user_id.to_hex(), notice);
        }
        let n = i64::try_from(items.len()).unwrap_or(0);
        progress(state, id, doc! { "$inc": { "done": n } }).await?;
    }
    progress(
        state,
        id,
        doc! { "$set": { "status": "done", "message": format!("Notification sent to {total} users") } },
    )
    .await
}

/// Starts this node's worker: it runs queued jobs one at a time.
pub fn spawn(state: web::Data<AppState>) {
    tokio::spawn(async move {
        let by_status =
            crate::persistence::index(doc! { "status": 1, "createdAt": 1 }, "status_created");
        if let Err(e) = collection(&state.db).create_index(by_status).await {
            tracing::debug!(error = %e, "the job index is not in place yet");
        }
        loop {
            match claim(&state).await {
                Ok(Some(job)) => run(&state, job).await,
                Ok(None) => {
                    let _ = tokio::time::timeout(POLL, state.wakes.admin_jobs.notified()).await;
                }
                Err(e) => {
                    tracing::debug!(error = %e, "the job worker could not look for jobs");
                    tokio::time::sleep(POLL).await;
                }
            }
        }
    });
}
