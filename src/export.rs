//! A user's copy of their data (`POST /api/user/export`): the job worker claims each requested
//! export under a lease and streams it into a ZIP file. Documents are read with cursors and
//! media files copied from disk, so neither the posts nor the media are held in memory: the
//! database side sends pieces over a bounded channel to a blocking thread that writes the ZIP
//! (`zip` crate). The contents are listed in `docs/account.md`.

use std::io::Write;
use std::path::{Path, PathBuf};

use actix_web::web;
use futures_util::TryStreamExt;
use hmac::{Hmac, Mac};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, Document};
use serde_json::{json, Map, Value};
use sha2::Sha256;

use crate::domain::block_media::media_paths;
use crate::domain::blocks::Block;
use crate::mail::{MailKind, Outgoing};
use crate::persistence::data_exports::{self, DataExport};
use crate::persistence::users::{self, User};
use crate::state::AppState;

/// Days a ready export can be downloaded.
pub const KEEP_DAYS: i64 = 7;
/// Seconds a worker holds an export before another may take it over.
pub const LEASE_SECS: i64 = 1800;

enum Piece {
    /// Starts a new file in the archive.
    Start(String),
    /// Bytes of the current file.
    Bytes(Vec<u8>),
    /// A whole file copied from disk (skipped when it is missing).
    Copy(String, PathBuf),
}

type Tx = tokio::sync::mpsc::Sender<Piece>;

async fn put(tx: &Tx, piece: Piece) -> anyhow::Result<()> {
    tx.send(piece)
        .await
        .map_err(|_| anyhow::anyhow!("the archive writer stopped"))
}

async fn file(tx: &Tx, name: &str, bytes: Vec<u8>) -> anyhow::Result<()> {
    put(tx, Piece::Start(name.to_string())).await?;
    put(tx, Piece::Bytes(bytes)).await
}

/// Writes the pieces into a ZIP at `path`; answers its size.
fn write_zip(path: &Path, mut rx: tokio::sync::mpsc::Receiver<Piece>) -> anyhow::Result<u64> {
    let out = std::fs::File::create(path)?;
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(out));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    while let Some(piece) = rx.blocking_recv() {
        match piece {
            Piece::Start(name) => zip.start_file(name, options)?,
            Piece::Bytes(bytes) => zip.write_all(&bytes)?,
            Piece::Copy(name, from) => {
                if let Ok(mut source) = std::fs::File::open(&from) {
                    zip.start_file(name, options)?;
                    std::io::copy(&mut source, &mut zip)?;
                }
            }
        }
    }
    let mut inner = zip.finish()?;
    inner.flush()?;
    drop(inner);
    Ok(std::fs::metadata(path)?.len())
}

/// A BSON value as plain JSON: ids as hex text, dates as RFC 3339 text.
pub fn plain(value: &Bson) -> Value {
    match value {
        Bson::ObjectId(id) => Value::String(id.to_hex()),
        Bson::DateTime(t) => Value::String(t.try_to_rfc3339_string().unwrap_or_default()),
        Bson::Document(d) => Value::Object(
            d.iter()
                .map(|(k, v)| (k.clone(), plain(v)))
                .collect::<Map<String, Value>>(),
        ),
        Bson::Array(items) => Value::Array(items.iter().map(plain).collect()),
        Bson::Binary(_) => Value::Null,
        other => other.clone().into_relaxed_extjson(),
    }
}

/// Streams the documents of `collection` matching `filter` into `name` as one JSON array,
/// without the fields in `drop`.
async fn json_array(
    state: &AppState,
    tx: &Tx,
    name: &str,
    collection: &str,
    filter: Document,
    drop: &[&str],
) -> anyhow::Result<()> {
    put(tx, Piece::Start(name.to_string())).await?;
    put(tx, Piece::Bytes(b"[".to_vec())).await?;
    let mut cursor = state
        .db
        .database()
        .collection::<Document>(collection)
        .find(filter)
        .sort(doc! { "_id": 1 })
        .await?;
    let mut first = true;
    while let Some(mut d) = cursor.try_next().await? {
        for key in drop {
            d.remove(*key);
        }
        let mut bytes = if first { Vec::new() } else { b",\n".to_vec() };
        first = false;
        serde_json::to_writer(&mut bytes, &plain(&Bson::Document(d)))?;
        put(tx, Piece::Bytes(bytes)).await?;
    }
    put(tx, Piece::Bytes(b"]\n".to_vec())).await
}

fn text(d: &Document, key: &str) -> String {
    match d.get(key) {
        None | Some(Bson::Null) => String::new(),
        Some(Bson::String(s)) => s.clone(),
        Some(v) => match plain(v) {
            Value::String(s) => s,
            other => other.to_string(),
        },
    }
}

/// Streams the documents into `name` as CSV with `columns` (`(header, field)`); `mask` fields
/// show their last four characters only.
async fn csv_file(
    state: &AppState,
    tx: &Tx,
    name: &str,
    collection: &str,
    filter: Document,
    columns: &[(&str, &str)],
    mask: &[&str],
) -> anyhow::Result<()> {
    put(tx, Piece::Start(name.to_string())).await?;
    let row = |cells: Vec<String>| -> anyhow::Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(cells)?;
        w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
    };
    put(
        tx,
        Piece::Bytes(row(columns.iter().map(|c| c.0.to_string()).collect())?),
    )
    .await?;
    let mut cursor = state
        .db
        .database()
        .collection::<Document>(collection)
        .find(filter)
        .sort(doc! { "_id": 1 })
        .await?;
    while let Some(d) = cursor.try_next().await? {
        let cells = columns
            .iter()
            .map(|(_, field)| {
                let value = text(&d, field);
                if mask.contains(field) {
                    mask_last4(&value)
                } else {
                    value
                }
            })
            .collect();
        put(tx, Piece::Bytes(row(cells)?)).await?;
    }
    Ok(())
}

/// `****1234`.
pub fn mask_last4(value: &str) -> String {
    let chars: Vec<char> = value.chars().collect();
    if chars.is_empty() {
        return String::new();
    }
    let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
    format!("****{tail}")
}

/// A post's blocks as Markdown.
pub fn markdown_of(blocks: &[Block]) -> String {
    let plain_text = |html: &str| {
        crate::domain::sanitize::plain_text(html)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = String::new();
    for block in blocks {
        let d = &block.data;
        let s = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("");
        match block.kind.as_str() {
            "header" => {
                let level = d
                    .get("level")
                    .and_then(Value::as_u64)
                    .unwrap_or(2)
                    .clamp(1, 6);
                out.push_str(&format!(
                    "{} {}\n\n",
                    "#".repeat(level as usize),
                    plain_text(s("text"))
                ));
            }
            "paragraph" => out.push_str(&format!("{}\n\n", plain_text(s("text")))),
            "quote" => out.push_str(&format!("> {}\n\n", plain_text(s("text")))),
            "code" => out.push_str(&format!("```\n{}\n```\n\n", s("code"))),
            "delimiter" => out.push_str("---\n\n"),
            "image" => {
                let url = d
                    .get("file")
                    .and_then(|f| f.get("url"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                out.push_str(&format!("![{}]({url})\n\n", plain_text(s("caption"))));
            }
            "list" | "checklist" => {
                let items = d
                    .get("items")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                for item in items {
                    let t = item
                        .as_str()
                        .map(str::to_string)
                        .or_else(|| {
                            item.get("content")
                                .and_then(Value::as_str)
                                .map(str::to_string)
                        })
                        .or_else(|| item.get("text").and_then(Value::as_str).map(str::to_string))
                        .unwrap_or_default();
                    out.push_str(&format!("- {}\n", plain_text(&t)));
                }
                out.push('\n');
            }
            _ => {
                let t = crate::domain::blocks::plain_text_of(std::slice::from_ref(block));
                if !t.trim().is_empty() {
                    out.push_str(&format!("{}\n\n", t.trim()));
                }
            }
        }
    }
    out
}

fn yaml_text(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// Sends every file of `user`'s export.
async fn produce(state: &AppState, user: &User, tx: &Tx) -> anyhow::Result<()> {
    let id = user.id;
    // profile.json: the account itself, without the password hash and the session epoch.
    let mut profile = serde_json::to_value(user)?;
    if let Some(map) = profile.as_object_mut() {
        map.remove("passwordHash");
        map.remove("tokenVersion");
    }
    let raw_user = state
        .db
        .database()
        .collection::<Document>("users")
        .find_one(doc! { "_id": id })
        .await?
        .unwrap_or_default();
    let mut clean = plain(&Bson::Document(raw_user));
    if let Some(map) = clean.as_object_mut() {
        map.remove("passwordHash");
        map.remove("tokenVersion");
        profile = Value::Object(map.clone());
    }
    file(tx, "profile.json", serde_json::to_vec_pretty(&profile)?).await?;
    file(
        tx,
        "consent.json",
        serde_json::to_vec_pretty(&json!({
            "consent": user.consent,
            "consentAt": user.consent_at.map(crate::post_view::iso),
        }))?,
    )
    .await?;

    // posts/: each post as JSON and as Markdown, with the media it uses.
    let media_dir = state.settings.server.media_dir.clone();
    let mut posts = state
        .db
        .database()
        .collection::<Document>(crate::persistence::posts::COLLECTION)
        .find(doc! { "author": id })
        .sort(doc! { "_id": 1 })
        .await?;
    while let Some(mut d) = posts.try_next().await? {
        d.remove("searchText");
        d.remove("trendingScore");
        let slug = d
            .get_str("slug")
            .unwrap_or("post")
            .replace(['/', '\\'], "-");
        let json_value = plain(&Bson::Document(d.clone()));
        file(
            tx,
            &format!("posts/{slug}.json"),
            serde_json::to_vec_pretty(&json_value)?,
        )
        .await?;
        let blocks: Vec<Block> = json_value
            .get("blocks")
            .cloned()
            .and_then(|b| serde_json::from_value(b).ok())
            .unwrap_or_default();
        let front = format!(
            "---\ntitle: {}\nslug: {}\nstatus: {}\nvisibility: {}\ntags: {}\ncreatedAt: {}\npublishedAt: {}\n---\n\n",
            yaml_text(&text(&d, "title")),
            yaml_text(&slug),
            yaml_text(&text(&d, "status")),
            yaml_text(&text(&d, "visibility")),
            json_value.get("tags").cloned().unwrap_or(json!([])),
            yaml_text(&text(&d, "createdAt")),
            yaml_text(&text(&d, "publishedAt")),
        );
        file(
            tx,
            &format!("posts/{slug}.md"),
            format!("{front}{}", markdown_of(&blocks)).into_bytes(),
        )
        .await?;
        let mut media = media_paths(&blocks);
        if let Some(thumb) = d
            .get_str("thumbnail")
            .ok()
            .filter(|t| t.starts_with("/media/"))
        {
            media.push(thumb.to_string());
        }
        media.sort();
        media.dedup();
        for url in media {
            let name = url.trim_start_matches("/media/");
            if name.is_empty() || name.contains("..") || name.contains('/') {
                continue;
            }
            put(
                tx,
                Piece::Copy(format!("posts/{slug}/media/{name}"), media_dir.join(name)),
            )
            .await?;
        }
    }

    json_array(
        state,
        tx,
        "comments.json",
        "comments",
        doc! { "user": id },
        &[],
    )
    .await?;
    json_array(state, tx, "likes.json", "likes", doc! { "userId": id }, &[]).await?;
    json_array(
        state,
        tx,
        "bookmarks.json",
        "bookmarks",
        doc! { "userId": id },
        &[],
    )
    .await?;
    json_array(
        state,
        tx,
        "notifications.json",
        "notifications",
        doc! { "userId": id },
        &["senderAvatar"],
    )
    .await?;
    json_array(
        state,
        tx,
        "activity.json",
        "user_activity",
        doc! { "userId": id },
        &[],
    )
    .await?;
    // passkeys.json: names, kinds and dates; no key material, credential id or user handle.
    json_array(
        state,
        tx,
        "passkeys.json",
        crate::persistence::passkeys::COLLECTION,
        doc! { "userId": id },
        &["credentialId", "userHandle", "staticState", "dynamicState"],
    )
    .await?;
    // api_keys.json and webhooks.json: keys by their prefix, endpoints without their secrets.
    json_array(
        state,
        tx,
        "api_keys.json",
        crate::persistence::api_keys::COLLECTION,
        doc! { "userId": id },
        &["hash"],
    )
    .await?;
    json_array(
        state,
        tx,
        "webhooks.json",
        crate::persistence::webhooks::ENDPOINTS,
        doc! { "ownerId": id },
        &["secrets"],
    )
    .await?;
    json_array(
        state,
        tx,
        "plans.json",
        "plans",
        doc! { "authorId": id },
        &[],
    )
    .await?;

    // follows.json: names and ids only.
    let mut follows = json!({ "following": [], "followers": [] });
    for (key, mine, theirs) in [
        ("following", "followerId", "followeeId"),
        ("followers", "followeeId", "followerId"),
    ] {
        let ids = crate::persistence::account_records::ids_in(
            &state.db,
            crate::persistence::graph::FOLLOWS,
            doc! { mine: id },
            theirs,
        )
        .await?;
        let mut people = Vec::new();
        for chunk in ids.chunks(500) {
            for u in users::find_many(&state.db, chunk).await? {
                people.push(json!({ "id": u.id.to_hex(), "name": u.name }));
            }
        }
        follows[key] = Value::Array(people);
    }
    file(tx, "follows.json", serde_json::to_vec_pretty(&follows)?).await?;

    // Money records.
    let sub_cols: &[(&str, &str)] = &[
        ("id", "_id"),
        ("subscriberId", "subscriberId"),
        ("authorId", "authorId"),
        ("planName", "planName"),
        ("price", "price"),
        ("currency", "currency"),
        ("interval", "interval"),
        ("status", "status"),
        ("currentPeriodStart", "currentPeriodStart"),
        ("currentPeriodEnd", "currentPeriodEnd"),
        ("cancelledAt", "cancelledAt"),
        ("refundedAt", "refundedAt"),
        ("endedAt", "endedAt"),
        ("createdAt", "createdAt"),
    ];
    csv_file(
        state,
        tx,
        "subscriptions.csv",
        "subscriptions",
        doc! { "$or": [ { "subscriberId": id }, { "authorId": id } ] },
        sub_cols,
        &[],
    )
    .await?;
    csv_file(
        state,
        tx,
        "tips.csv",
        crate::persistence::tips::COLLECTION,
        doc! { "$or": [ { "senderId": id }, { "authorId": id } ] },
        &[
            ("id", "_id"),
            ("postId", "postId"),
            ("postTitle", "postTitle"),
            ("fromReaderId", "senderId"),
            ("toWriterId", "authorId"),
            ("amount", "amount"),
            ("currency", "currency"),
            ("fee", "fee"),
            ("message", "message"),
            ("public", "public"),
            ("status", "status"),
            ("refundedAt", "refundedAt"),
            ("createdAt", "createdAt"),
        ],
        &[],
    )
    .await?;
    csv_file(
        state,
        tx,
        "earnings.csv",
        "ledger",
        doc! { "authorId": id },
        &[
            ("id", "_id"),
            ("seq", "seq"),
            ("kind", "kind"),
            ("source", "source"),
            ("currency", "currency"),
            ("gross", "gross"),
            ("fee", "fee"),
            ("amount", "amount"),
            ("subscriptionId", "subscriptionId"),
            ("postId", "postId"),
            ("tipId", "tipId"),
            ("createdAt", "createdAt"),
        ],
        &[],
    )
    .await?;
    csv_file(
        state,
        tx,
        "payouts.csv",
        "payouts",
        doc! { "authorId": id },
        &[
            ("id", "_id"),
            ("amount", "amount"),
            ("currency", "currency"),
            ("status", "status"),
            ("destination", "destination"),
            ("createdAt", "createdAt"),
        ],
        &["destination"],
    )
    .await?;
    csv_file(
        state,
        tx,
        "bank_details.csv",
        "bank_details",
        doc! { "userId": id },
        &[
            ("accountHolderName", "accountHolderName"),
            ("accountNumber", "accountLast4"),
            ("bankCode", "bankCode"),
            ("bankName", "bankName"),
            ("country", "country"),
            ("createdAt", "createdAt"),
        ],
        &["accountLast4"],
    )
    .await?;
    Ok(())
}

/// Where an export's file lives.
pub fn path_of(state: &AppState, id: ObjectId) -> PathBuf {
    state
        .settings
        .accounts
        .export_dir
        .join(format!("{}.zip", id.to_hex()))
}

/// Builds one claimed export.
async fn build(state: &web::Data<AppState>, export: &DataExport) -> anyhow::Result<u64> {
    let user = users::find_by_id(&state.db, export.user_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the account is gone"))?;
    std::fs::create_dir_all(&state.settings.accounts.export_dir)?;
    let path = path_of(state, export.id);
    let partial = path.with_extension("zip.part");
    let (tx, rx) = tokio::sync::mpsc::channel(32);
    let writer = {
        let partial = partial.clone();
        tokio::task::spawn_blocking(move || write_zip(&partial, rx))
    };
    let produced = produce(state, &user, &tx).await;
    drop(tx);
    let written = writer.await?;
    produced?;
    let size = written?;
    std::fs::rename(&partial, &path)?;
    Ok(size)
}

/// Builds every pending export; answers how many were built.
pub async fn run_pending(state: &web::Data<AppState>) -> anyhow::Result<usize> {
    let mut done = 0;
    while let Some(export) = data_exports::claim(&state.db, LEASE_SECS).await? {
        match build(state, &export).await {
            Ok(size) => {
                let expires = chrono::Utc::now() + chrono::Duration::days(KEEP_DAYS);
                data_exports::finish(
                    &state.db,
                    export.id,
                    i64::try_from(size).unwrap_or(i64::MAX),
                    mongodb::bson::DateTime::from_chrono(expires),
                )
                .await?;
                if let Some(user) = users::find_by_id(&state.db, export.user_id).await? {
                    let body = format!(
                        "Hello {},\n\nThe copy of your Pressroom data you asked for is ready. Download it from your settings page within {KEEP_DAYS} days:\n{}\n",
                        user.name,
                        state.settings.public_link("/user-setting#your-data"),
                    );
                    let mail = Outgoing::new(
                        MailKind::Security,
                        &user.email,
                        "Your data export is ready",
                        body,
                    )
                    .for_user(user.id);
                    state.mailer.send_mail(mail).await;
                }
                done += 1;
            }
            Err(e) => {
                tracing::warn!(export = %export.id, error = %e, "a data export failed");
                data_exports::fail(&state.db, export.id).await?;
            }
        }
    }
    Ok(done)
}

pub fn spawn(state: web::Data<AppState>) {
    let every = std::time::Duration::from_secs(state.settings.accounts.export_check_seconds.max(1));
    crate::metrics::job_declared("data-export", every);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let result = run_pending(&state).await;
            crate::metrics::job_ran("data-export", every, result.is_ok());
            if let Err(e) = result {
                tracing::warn!(error = %e, "could not build data exports");
            }
        }
    });
}

/// The signature of a download link.
pub fn signature(key: &[u8], export: ObjectId, user: ObjectId, expires: i64) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key) else {
        return String::new();
    };
    mac.update(format!("export:{}:{}:{expires}", export.to_hex(), user.to_hex()).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_markdown() {
        assert_eq!(mask_last4("GB29NWBK60161331926819"), "****6819");
        assert_eq!(mask_last4("12"), "****12");
        let blocks: Vec<Block> = serde_json::from_value(json!([
            { "id": "a", "type": "header", "data": { "text": "Title", "level": 2 } },
            { "id": "b", "type": "paragraph", "data": { "text": "Some <b>bold</b> text" } },
            { "id": "c", "type": "list", "data": { "style": "unordered", "items": ["one", "two"] } }
        ]))
        .unwrap();
        assert_eq!(
            markdown_of(&blocks),
            "## Title\n\nSome bold text\n\n- one\n- two\n\n"
        );
    }
}
