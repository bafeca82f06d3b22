//! MongoDB access: one client per process, one module per collection, idempotent indexes and
//! numbered migrations at startup.

pub mod account_deletions;
pub mod account_records;
pub mod achievements;
pub mod activity;
pub mod admin_settings;
pub mod api_keys;
pub mod audit_log;
pub mod bank_details;
pub mod banners;
pub mod blocks;
pub mod bookmarks;
pub mod categories;
pub mod comments;
pub mod contact_messages;
pub mod counter_repair;
pub mod daily_mail;
pub mod data_exports;
pub mod email_logs;
pub mod feedback;
pub mod follows;
pub mod google_identities;
pub mod graph;
pub mod guest_visits;
pub mod imports;
pub mod index_state;
pub mod leases;
pub mod ledger;
pub mod likes;
pub mod local_payments;
pub mod locations;
pub mod media;
pub mod migrations;
pub mod notifications;
pub mod observer;
pub mod otps;
pub mod passkeys;
pub mod payment_customers;
pub mod payments;
pub mod payouts;
pub mod plans;
pub mod post_appeals;
pub mod post_mail;
pub mod post_revisions;
pub mod posts;
pub mod push_deliveries;
pub mod push_devices;
pub mod reading_time;
pub mod redirects;
pub mod refunds;
pub mod renewal_reminders;
pub mod reports;
pub mod revoked_tokens;
pub mod series;
pub mod sessions;
pub mod shares;
pub mod site_analytics;
pub mod site_export;
pub mod subscriber_feeds;
pub mod subscription_claims;
pub mod subscription_criteria;
pub mod subscription_events;
pub mod subscriptions;
pub mod tips;
pub mod two_factor;
pub mod user_directory;
pub mod users;
pub mod views;
pub mod votes;
pub mod webhook_events;
pub mod webhooks;

use std::sync::Arc;
use std::time::Duration;

use mongodb::bson::doc;
use mongodb::error::{ErrorKind, WriteFailure};
use mongodb::options::ClientOptions;
use mongodb::{Client, Database};
use secrecy::ExposeSecret;

use crate::config::DatabaseSettings;
use observer::{Change, WriteObserver};

/// Errors of the persistence layer, classified for the client-facing mapping.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The database could not be reached (503).
    #[error("database unavailable: {0}")]
    Unavailable(#[source] mongodb::error::Error),
    /// A unique index refused the write; the payload names what was duplicated.
    #[error("duplicate {0}")]
    Duplicate(&'static str),
    /// Any other failure, with context.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

pub type DbResult<T> = Result<T, DbError>;

/// Whether an error means the database is unreachable rather than the operation being wrong.
pub fn is_unavailable(err: &mongodb::error::Error) -> bool {
    matches!(
        *err.kind,
        ErrorKind::ServerSelection { .. }
            | ErrorKind::Io(_)
            | ErrorKind::ConnectionPoolCleared { .. }
            | ErrorKind::DnsResolve { .. }
    )
}

/// Whether an error is a duplicate-key refusal from a unique index.
pub fn is_duplicate_key(err: &mongodb::error::Error) -> bool {
    match &*err.kind {
        ErrorKind::Write(WriteFailure::WriteError(e)) => e.code == 11000,
        // FerretDB's SQLite backend reports a unique index broken by `findAndModify` as an
        // internal error (code 1) naming the constraint, not as 11000.
        ErrorKind::Command(e) => {
            e.code == 11000 || (e.code == 1 && e.message.contains("UNIQUE constraint failed"))
        }
        ErrorKind::InsertMany(e) => e
            .write_errors
            .as_ref()
            .is_some_and(|errs| errs.iter().any(|w| w.code == 11000)),
        _ => false,
    }
}

/// Inserts `docs` with one unordered `insertMany`, each unless a document with the same unique
/// key (its `_id`, or a unique index) is stored already. Returns the positions in `docs` of those
/// stored before; the others are stored now. Any other failure is an error.
pub async fn insert_new<T>(
    coll: &mongodb::Collection<T>,
    docs: &[T],
    what: &'static str,
) -> DbResult<std::collections::HashSet<usize>>
where
    T: serde::Serialize + Send + Sync,
{
    let mut before = std::collections::HashSet::new();
    if docs.is_empty() {
        return Ok(before);
    }
    let Err(e) = coll.insert_many(docs).ordered(false).await else {
        return Ok(before);
    };
    let ErrorKind::InsertMany(ref failure) = *e.kind else {
        return Err(e).db_context(what);
    };
    if failure.write_concern_error.is_some() {
        return Err(e).db_context(what);
    }
    for w in failure.write_errors.iter().flatten() {
        if w.code != 11000 {
            return Err(e.clone()).db_context(what);
        }
        before.insert(w.index);
    }
    Ok(before)
}

/// The sort document of a list's order: the field, then `_id` the same way.
pub fn sort_document(sort: crate::domain::params::SortBy) -> mongodb::bson::Document {
    doc! { sort.field: sort.order, "_id": sort.order }
}

/// Adds context to a driver error and classifies it.
pub trait DbContext<T> {
    fn db_context(self, what: &'static str) -> DbResult<T>;
}

impl<T> DbContext<T> for Result<T, mongodb::error::Error> {
    fn db_context(self, what: &'static str) -> DbResult<T> {
        self.map_err(|e| {
            if is_unavailable(&e) {
                DbError::Unavailable(e)
            } else {
                DbError::Other(anyhow::Error::new(e).context(what))
            }
        })
    }
}

/// The process's database handle; cheap to clone. It carries the observer that hears of writes
/// (see `observer`), so every clone reports to the same indexes.
#[derive(Clone)]
pub struct Db {
    client: Client,
    database: Database,
    observer: Option<Arc<dyn WriteObserver>>,
    /// What the client was built from, for `with_own_pool`.
    options: Arc<ClientOptions>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("database", &self.database.name())
            .field("observed", &self.observer.is_some())
            .finish()
    }
}

impl Db {
    /// Builds the client without touching the network: the server starts even when the database
    /// is down and serves again when it returns.
    pub async fn connect(settings: &DatabaseSettings) -> anyhow::Result<Self> {
        let mut options = ClientOptions::parse(settings.uri.expose_secret()).await?;
        options.app_name = Some("pressroom".into());
        options.server_selection_timeout =
            Some(Duration::from_millis(settings.server_selection_timeout_ms));
        options.connect_timeout = Some(Duration::from_millis(settings.server_selection_timeout_ms));
        // Every command's time and failure go to the metrics (`pressroom_db_*`).
        if pressroom_actors::metrics::enabled() {
            options.command_event_handler = Some(mongodb::event::EventHandler::callback(
                crate::metrics::record_db_command,
            ));
        }
        let client = Client::with_options(options.clone())?;
        let database = client.database(&settings.name);
        Ok(Self {
            client,
            database,
            observer: None,
            options: Arc::new(options),
        })
    }

    /// The same database through a connection pool of its own, for the long reads of index
    /// builds. FerretDB ends a cursor when the connection that opened it closes, and the driver
    /// closes a connection whose operation was abandoned (a request whose client went away, a
    /// timed-out check); in a shared pool that connection can be the one a build's cursor lives
    /// on, between two batches.
    pub fn with_own_pool(&self) -> DbResult<Self> {
        let client = Client::with_options((*self.options).clone())
            .db_context("creating a connection pool")?;
        let database = client.database(self.database.name());
        Ok(Self {
            client,
            database,
            observer: self.observer.clone(),
            options: self.options.clone(),
        })
    }

    /// The same handle, reporting its writes to `observer`.
    pub fn with_observer(mut self, observer: Arc<dyn WriteObserver>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// The same handle without an observer: writes made through it reach only the records (the
    /// index rebuild reads through it).
    pub fn unobserved(&self) -> Self {
        Self {
            observer: None,
            ..self.clone()
        }
    }

    /// Reports a change to the observer, once the write is done.
    pub async fn changed(&self, change: Change) {
        if let Some(observer) = &self.observer {
            observer.changed(change).await;
        }
    }

    pub fn database(&self) -> &Database {
        &self.database
    }

    /// Round trip to the database.
    pub async fn ping(&self) -> DbResult<()> {
        self.database
            .run_command(doc! { "ping": 1 })
            .await
            .db_context("pinging the database")
            .map(|_| ())
    }

    /// Creates every index (idempotent) and applies pending migrations.
    pub async fn prepare(&self) -> anyhow::Result<()> {
        users::ensure_indexes(self).await?;
        otps::ensure_indexes(self).await?;
        revoked_tokens::ensure_indexes(self).await?;
        sessions::ensure_indexes(self).await?;
        account_deletions::ensure_indexes(self).await?;
        data_exports::ensure_indexes(self).await?;
        imports::ensure_indexes(self).await?;
        two_factor::ensure_indexes(self).await?;
        passkeys::ensure_indexes(self).await?;
        api_keys::ensure_indexes(self).await?;
        push_devices::ensure_indexes(self).await?;
        push_deliveries::ensure_indexes(self).await?;
        webhooks::ensure_indexes(self).await?;
        email_logs::ensure_indexes(self).await?;
        categories::ensure_indexes(self).await?;
        posts::ensure_indexes(self).await?;
        post_appeals::ensure_indexes(self).await?;
        post_revisions::ensure_indexes(self).await?;
        media::ensure_indexes(self).await?;
        notifications::ensure_indexes(self).await?;
        banners::ensure_indexes(self).await?;
        locations::ensure_indexes(self).await?;
        feedback::ensure_indexes(self).await?;
        guest_visits::ensure_indexes(self).await?;
        likes::ensure_indexes(self).await?;
        bookmarks::ensure_indexes(self).await?;
        views::ensure_indexes(self).await?;
        shares::ensure_indexes(self).await?;
        reading_time::ensure_indexes(self).await?;
        votes::ensure_indexes(self).await?;
        comments::ensure_indexes(self).await?;
        follows::ensure_indexes(self).await?;
        post_mail::ensure_indexes(self).await?;
        blocks::ensure_indexes(self).await?;
        activity::ensure_indexes(self).await?;
        audit_log::ensure_indexes(self).await?;
        contact_messages::ensure_indexes(self).await?;
        daily_mail::ensure_indexes(self).await?;
        reports::ensure_indexes(self).await?;
        series::ensure_indexes(self).await?;
        plans::ensure_indexes(self).await?;
        subscriptions::ensure_indexes(self).await?;
        payments::ensure_indexes(self).await?;
        refunds::ensure_indexes(self).await?;
        ledger::ensure_indexes(self).await?;
        payouts::ensure_indexes(self).await?;
        bank_details::ensure_indexes(self).await?;
        subscription_events::ensure_indexes(self).await?;
        local_payments::ensure_indexes(self).await?;
        tips::ensure_indexes(self).await?;
        subscription_criteria::seed_defaults(self).await?;
        migrations::run(self).await?;
        self.warn_unless_store_serves_indexes().await;
        Ok(())
    }

    /// Warns when the store is a FerretDB without the project's fix for its SQLite backend
    /// (`scripts/ferretdb/index-pushdown.patch`, which the scripts build in): on it no filter is
    /// served by an index, so every lookup and write slows down as the store grows. MongoDB, and
    /// FerretDB built by the scripts, say nothing.
    async fn warn_unless_store_serves_indexes(&self) {
        let Ok(info) = self
            .client
            .database("admin")
            .run_command(doc! { "buildInfo": 1 })
            .await
        else {
            return;
        };
        if let Ok(version) = info.get_str("ferretdbVersion") {
            if !version.contains("-pressroom.") {
                tracing::warn!(
                    ferretdb = version,
                    "the store is FerretDB without Pressroom's fix for its SQLite backend: no query is served by an index, so requests slow down as the store grows; run the FerretDB scripts/run builds (docs/deploy.md)"
                );
            }
        }
    }

    /// Prepares the database before the server takes requests when it answers within
    /// `wait` (so unique indexes guard the very first writes); otherwise keeps trying in the
    /// background, so the server still starts while the database is down.
    pub async fn prepare_or_retry(&self, wait: Duration) {
        match tokio::time::timeout(wait, self.prepare()).await {
            Ok(Ok(())) => tracing::info!("database indexes and migrations are in place"),
            Ok(Err(e)) => {
                tracing::warn!(error = %format!("{e:#}"), "database not ready; retrying in the background");
                self.prepare_in_background();
            }
            Err(_) => {
                tracing::warn!("database slow to answer; preparing it in the background");
                self.prepare_in_background();
            }
        }
    }

    /// Keeps trying `prepare` in the background until the database answers.
    pub fn prepare_in_background(&self) {
        let db = self.clone();
        tokio::spawn(async move {
            let mut delay = Duration::from_millis(500);
            loop {
                match db.prepare().await {
                    Ok(()) => {
                        tracing::info!("database indexes and migrations are in place");
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(error = %format!("{e:#}"), "database not ready; retrying");
                        tokio::time::sleep(delay).await;
                        delay = (delay * 2).min(Duration::from_secs(10));
                    }
                }
            }
        });
    }

    /// Drops the whole database (tests only).
    pub async fn drop_database(&self) -> DbResult<()> {
        self.database
            .drop()
            .await
            .db_context("dropping the database")
    }

    pub fn client(&self) -> &Client {
        &self.client
    }
}

/// When each record of `records` about these posts (`post_field` holds the post id) was created
/// since `since`: the per-day series of post analytics are tallied from these.
pub async fn creation_times(
    records: &mongodb::Collection<mongodb::bson::Document>,
    post_field: &str,
    posts: &[mongodb::bson::oid::ObjectId],
    since: mongodb::bson::DateTime,
    what: &'static str,
) -> DbResult<Vec<mongodb::bson::DateTime>> {
    use futures_util::TryStreamExt;
    let docs: Vec<mongodb::bson::Document> = records
        .find(doc! { post_field: { "$in": posts }, "createdAt": { "$gte": since } })
        .projection(doc! { "createdAt": 1 })
        .await
        .db_context(what)?
        .try_collect()
        .await
        .db_context(what)?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_datetime("createdAt").ok().copied())
        .collect())
}

/// One page of the documents of `records` matching `filter` in `sort` order (with
/// `projection`, when given), and how many match: the numbered pages of the lists.
pub async fn page_of<T>(
    records: &mongodb::Collection<T>,
    filter: mongodb::bson::Document,
    sort: mongodb::bson::Document,
    projection: Option<mongodb::bson::Document>,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<T>, u64)>
where
    T: serde::de::DeserializeOwned + Send + Sync,
{
    use futures_util::TryStreamExt;
    let mut find = records
        .find(filter.clone())
        .sort(sort)
        .skip(skip)
        .limit(limit);
    if let Some(projection) = projection {
        find = find.projection(projection);
    }
    let found = find
        .await
        .db_context("listing a page")?
        .try_collect()
        .await
        .db_context("reading a page")?;
    let total = records
        .count_documents(filter)
        .await
        .db_context("counting a list")?;
    Ok((found, total))
}

/// [`page_of`], newest first (`createdAt`, then `_id`).
pub async fn newest_page<T>(
    records: &mongodb::Collection<T>,
    filter: mongodb::bson::Document,
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<T>, u64)>
where
    T: serde::de::DeserializeOwned + Send + Sync,
{
    page_of(
        records,
        filter,
        doc! { "createdAt": -1, "_id": -1 },
        None,
        skip,
        limit,
    )
    .await
}

/// Creates `models` on `records`, one command per index. Idempotent on MongoDB and FerretDB
/// alike: FerretDB v1 drops the connection when a single `createIndexes` command names several
/// indexes that all exist already (every start of a server on a prepared database), which left
/// `prepare` failing, and its migrations unapplied, after a restart.
pub async fn create_indexes<T: Send + Sync>(
    records: &mongodb::Collection<T>,
    models: impl IntoIterator<Item = mongodb::IndexModel>,
    what: &'static str,
) -> DbResult<()> {
    for model in models {
        records.create_index(model).await.db_context(what)?;
    }
    Ok(())
}

/// An index on `keys` named `name`.
pub fn index(keys: mongodb::bson::Document, name: &str) -> mongodb::IndexModel {
    mongodb::IndexModel::builder()
        .keys(keys)
        .options(
            mongodb::options::IndexOptions::builder()
                .name(name.to_string())
                .build(),
        )
        .build()
}

/// A unique index on `keys` named `name`.
pub fn unique_index(keys: mongodb::bson::Document, name: &str) -> mongodb::IndexModel {
    mongodb::IndexModel::builder()
        .keys(keys)
        .options(
            mongodb::options::IndexOptions::builder()
                .name(name.to_string())
                .unique(true)
                .build(),
        )
        .build()
}

/// Current time as a BSON date.
pub fn now() -> mongodb::bson::DateTime {
    mongodb::bson::DateTime::now()
}
