//! The binary's command line: `serve` (the default) and administrative commands.

use clap::{Parser, Subcommand};

use crate::config::Settings;
use crate::mail::Mailer;
use crate::persistence::users::{self, Role};
use crate::persistence::Db;
use crate::services::jobs::daily_mail::DailyMailer;

#[derive(Parser, Debug)]
#[command(
    name = "pressroom",
    about = "Pressroom: a live multi-author publishing platform"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the server (the default).
    Serve,
    /// Manage administrators.
    Admin {
        #[command(subcommand)]
        action: AdminAction,
    },
    /// Block or unblock an account (ends its sessions when blocking).
    User {
        #[command(subcommand)]
        action: UserAction,
    },
    /// Send mail by hand.
    Mail {
        #[command(subcommand)]
        action: MailAction,
    },
    /// Manage the read index in Redis (feeds, counts, post cards).
    Index {
        #[command(subcommand)]
        action: IndexAction,
    },
    /// Check every post's counters (likes, bookmarks, views, shares, comments) against their
    /// records; `--repair` sets those that differ to their records' number.
    Counters {
        #[command(subcommand)]
        action: CountersAction,
    },
    /// Work on the media directory (`server.media_dir`).
    Media {
        #[command(subcommand)]
        action: MediaAction,
    },
    /// Write a backup of the database (every collection with its indexes) to FILE, a tar
    /// archive (see docs/deploy.md); the server keeps running.
    Backup {
        file: std::path::PathBuf,
        /// Also put the media directory (`server.media_dir`) in the archive.
        #[arg(long)]
        media: bool,
    },
    /// Restore a backup into the configured database, which must hold no documents (unless
    /// --force), then rebuild the read index.
    Restore {
        file: std::path::PathBuf,
        /// Replace everything in a database that holds documents.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum MailAction {
    /// Send the daily post email of a day (it lists the posts of the day before) to everyone
    /// who has not had it yet.
    Daily {
        /// The day, YYYY-MM-DD (UTC); today when left out.
        #[arg(long)]
        date: Option<String>,
    },
}

#[derive(Subcommand, Debug)]
pub enum CountersAction {
    /// Compare the counters with the records and list every difference.
    Verify {
        /// Set each differing counter to its records' number (and list what changed).
        #[arg(long)]
        repair: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum MediaAction {
    /// Make the resized variants (400, 800, 1600 pixels wide, in the original format and WebP)
    /// of stored pictures that lack them (pictures stored before variants were made), then
    /// record each post's pictures' sizes and variants where the post lacks them; the server
    /// keeps running and pages use the variants as they appear.
    Variants,
}

/// The configured database, reachable, with the read index in Redis as its write observer when
/// Redis is reachable: what a command writes reaches the running servers' indexes as a server's
/// own writes do.
async fn observed_db(settings: &Settings) -> anyhow::Result<Db> {
    let db = Db::connect(&settings.database).await?;
    db.ping().await.map_err(|e| {
        anyhow::anyhow!("the database at the configured address is not reachable: {e}")
    })?;
    let redis = crate::redis_pool::Redis::connect(&settings.redis, &settings.database.name)?;
    Ok(if redis.is_configured() && redis.ping().await.is_ok() {
        let observer = crate::feeds::Feeds::new(redis, &db)?;
        db.with_observer(std::sync::Arc::new(observer))
    } else {
        db
    })
}

/// Runs a media command; returns the line to print.
pub async fn run_media(settings: &Settings, action: MediaAction) -> anyhow::Result<String> {
    let MediaAction::Variants = action;
    let dir = &settings.server.media_dir;
    let report = crate::persistence::media::backfill_variants(dir).await?;
    let db = observed_db(settings).await?;
    let posts = crate::persistence::media::record_post_images(&db, dir).await?;
    Ok(format!(
        "{} stored pictures in {}: {} variant files written, {} pictures could not be read; {} posts looked at, {} given their pictures' sizes and variants",
        report.files,
        dir.display(),
        report.written,
        report.failed,
        posts.posts,
        posts.updated
    ))
}

#[derive(Subcommand, Debug)]
pub enum IndexAction {
    /// Rebuild the read index from the database (the running servers switch to it when done).
    Rebuild,
}

#[derive(Subcommand, Debug)]
pub enum AdminAction {
    /// Make the account with this email an administrator.
    Grant { email: String },
    /// Make the administrator with this email an ordinary user.
    Revoke { email: String },
}

#[derive(Subcommand, Debug)]
pub enum UserAction {
    /// Block the account with this email.
    Block { email: String },
    /// Unblock the account with this email.
    Unblock { email: String },
}

/// Runs an index command against the configured database and Redis; returns the line to print.
pub async fn run_index(settings: &Settings, action: IndexAction) -> anyhow::Result<String> {
    let IndexAction::Rebuild = action;
    let db = Db::connect(&settings.database).await?;
    db.ping().await.map_err(|e| {
        anyhow::anyhow!("the database at the configured address is not reachable: {e}")
    })?;
    let redis = crate::redis_pool::Redis::connect(&settings.redis, &settings.database.name)?;
    if !redis.is_configured() {
        anyhow::bail!("no Redis is configured (set REDIS_URL or redis.url)");
    }
    redis
        .ping()
        .await
        .map_err(|e| anyhow::anyhow!("Redis at the configured address is not reachable: {e}"))?;
    let feeds = crate::feeds::Feeds::new(redis, &db)?;
    let report = feeds.rebuild().await?;
    Ok(format!(
        "read index rebuilt (generation {}): {} posts, {} follows, {} blocks, {} bookmarks, {} changes during the rebuild, in {:.1} s",
        report.generation,
        report.posts,
        report.follows,
        report.blocks,
        report.bookmarks,
        report.touched,
        report.seconds
    ))
}

/// What `counters verify` found and did, and whether the counters now match their records.
pub struct CountersReport {
    pub text: String,
    pub consistent: bool,
}

/// Runs `counters verify [--repair]` against the configured database (and Redis, so running
/// servers' read indexes hear of repaired counters); returns the report to print.
pub async fn run_counters(
    settings: &Settings,
    action: CountersAction,
) -> anyhow::Result<CountersReport> {
    let CountersAction::Verify { repair } = action;
    let db = observed_db(settings).await?;
    let found = crate::persistence::counter_repair::verify(&db, repair).await?;
    let mut lines = Vec::new();
    for d in &found.differences {
        lines.push(format!(
            "post {} {}: stored {}, records {}{}",
            d.post.to_hex(),
            d.field,
            d.stored,
            d.records,
            if d.repaired { " -> repaired" } else { "" }
        ));
    }
    let repaired = found.differences.iter().filter(|d| d.repaired).count();
    lines.push(if repair {
        format!(
            "{} posts checked: {} counters differed from their records, {repaired} repaired",
            found.posts,
            found.differences.len()
        )
    } else {
        format!(
            "{} posts checked: {} counters differ from their records{}",
            found.posts,
            found.differences.len(),
            if found.differences.is_empty() {
                ""
            } else {
                " (run with --repair to fix them)"
            }
        )
    });
    Ok(CountersReport {
        text: lines.join("\n"),
        consistent: found.differences.len() == repaired,
    })
}

/// Runs `backup` or `restore` against the configured database; returns the line to print.
pub async fn run_backup(settings: &Settings, command: Command) -> anyhow::Result<String> {
    let db = Db::connect(&settings.database).await?;
    db.ping().await.map_err(|e| {
        anyhow::anyhow!("the database at the configured address is not reachable: {e}")
    })?;
    match command {
        Command::Backup { file, media } => {
            let media_dir = media.then_some(settings.server.media_dir.as_path());
            let manifest = crate::backup::backup(&db, &file, media_dir).await?;
            let documents: u64 = manifest.collections.iter().map(|c| c.documents).sum();
            Ok(format!(
                "backup of {} written to {}: {} collections, {documents} documents, {} media files",
                manifest.database,
                file.display(),
                manifest.collections.len(),
                manifest.media.len()
            ))
        }
        Command::Restore { file, force } => {
            let restored =
                crate::backup::restore(&db, &file, &settings.server.media_dir, force).await?;
            let mut line = format!(
                "restored {} into {}: {} collections, {} documents, {} media files",
                file.display(),
                settings.database.name,
                restored.collections,
                restored.documents,
                restored.media
            );
            let redis =
                crate::redis_pool::Redis::connect(&settings.redis, &settings.database.name)?;
            if redis.is_configured() && redis.ping().await.is_ok() {
                let report = crate::feeds::Feeds::new(redis, &db)?.rebuild().await?;
                line.push_str(&format!(
                    "; read index rebuilt (generation {}, {} posts); running servers rebuild their search index from it",
                    report.generation, report.posts
                ));
            } else {
                line.push_str("; no Redis reachable: servers build the read index when they start");
            }
            Ok(line)
        }
        _ => anyhow::bail!("not a backup command"),
    }
}

/// Runs an administrative command against the configured database; returns the line to print.
pub async fn run_admin(settings: &Settings, command: Command) -> anyhow::Result<String> {
    // Changes made here reach the running servers' indexes (a blocked user leaves user search).
    let db = observed_db(settings).await?;
    if let Command::Mail {
        action: MailAction::Daily { date },
    } = &command
    {
        return send_daily_mail(settings, db, date.as_deref()).await;
    }
    let (email, outcome) = match &command {
        Command::Admin {
            action: AdminAction::Grant { email },
        } => (email.clone(), "is now an administrator"),
        Command::Admin {
            action: AdminAction::Revoke { email },
        } => (email.clone(), "is no longer an administrator"),
        Command::User {
            action: UserAction::Block { email },
        } => (email.clone(), "is blocked"),
        Command::User {
            action: UserAction::Unblock { email },
        } => (email.clone(), "is unblocked"),
        Command::Serve
        | Command::Mail { .. }
        | Command::Index { .. }
        | Command::Counters { .. }
        | Command::Media { .. }
        | Command::Backup { .. }
        | Command::Restore { .. } => {
            anyhow::bail!("not an account command")
        }
    };
    let user = users::find_by_email(&db, &email).await?.ok_or_else(|| {
        anyhow::anyhow!(
            "no account with the email {}",
            users::normalize_email(&email)
        )
    })?;
    match command {
        Command::Admin {
            action: AdminAction::Grant { .. },
        } => users::set_role(&db, user.id, Role::Admin).await?,
        Command::Admin {
            action: AdminAction::Revoke { .. },
        } => {
            if user.role == Role::Admin
                && users::count_active_admins(&db, Some(user.id)).await? == 0
            {
                anyhow::bail!(
                    "{} is the last administrator; grant someone else first",
                    user.email
                );
            }
            users::set_role(&db, user.id, Role::User).await?
        }
        Command::User {
            action: UserAction::Block { .. },
        } => users::set_blocked(&db, user.id, true).await?,
        Command::User {
            action: UserAction::Unblock { .. },
        } => users::set_blocked(&db, user.id, false).await?,
        Command::Serve
        | Command::Mail { .. }
        | Command::Index { .. }
        | Command::Counters { .. }
        | Command::Media { .. }
        | Command::Backup { .. }
        | Command::Restore { .. } => None,
    };
    Ok(format!("{} {outcome}", user.email))
}

/// `mail daily [--date YYYY-MM-DD]`: runs the daily post email by hand.
async fn send_daily_mail(
    settings: &Settings,
    db: Db,
    date: Option<&str>,
) -> anyhow::Result<String> {
    let date = match date {
        Some(raw) => chrono::NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d")
            .map_err(|_| anyhow::anyhow!("--date must be a date like 2024-05-31, not '{raw}'"))?,
        None => chrono::Utc::now().date_naive(),
    };
    // The one index the run relies on, in case the server never prepared this database.
    crate::persistence::daily_mail::ensure_indexes(&db).await?;
    let mailer = Mailer::new(&settings.mail, db.clone())?;
    let job = DailyMailer {
        db: &db,
        mailer: &mailer,
        settings,
    };
    let s = job.run(date, true).await?;
    Ok(match s.outcome.as_str() {
        "busy" => format!("the daily post email of {date} is being sent by another process"),
        _ => format!(
            "daily post email of {date}: {} sent, {} failed, {} with nothing new, {} had it already ({} recipients)",
            s.sent, s.failed, s.nothing_new, s.already_claimed, s.recipients
        ),
    })
}
