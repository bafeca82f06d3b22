//! Writers' archives brought in: an upload (WordPress, Medium, Substack, Ghost, a Pressroom
//! export) or a feed address becomes an import that the job worker reads into a preview
//! (`parsing` → `preview`); once the writer confirms, the worker writes its posts
//! (`importing` → `done`), each remembering where it came from (`importedFrom`), so an entry a
//! writer imported once is never written twice. Cancelling stops the worker at its next step;
//! what it wrote stays listed and can be removed at once.
//!
//! `source` reads each platform into one shape, `fetch` brings images and feeds home under the
//! SSRF guard, `write` is the worker.

pub mod fetch;
mod images;
mod preview;
pub mod source;
pub mod write;

use std::path::{Path, PathBuf};

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;
use serde_json::{json, Value};

use crate::audit;
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::imports::{
    self, Import, ImportCounts, ImportProgress, ImportReport, CANCELLED, PARSING,
};
use crate::persistence::posts;
use crate::post_view::iso;
use crate::state::AppState;
pub use source::{Source, MSG_UNKNOWN_SOURCE};

pub const MSG_NOT_FOUND: &str = "Import not found";
pub const MSG_ONE_AT_A_TIME: &str =
    "An import of yours is still being read or written; wait for it to finish or cancel it first.";
pub const MSG_NOT_IN_PREVIEW: &str = "Only an import waiting in its preview can be confirmed.";
pub const MSG_CANNOT_CANCEL: &str = "This import has ended; there is nothing to cancel.";
pub const MSG_FILE_REQUIRED: &str = "Choose the export file to import.";
pub const MSG_FEED_URL: &str = "Give the feed's address (http or https).";
pub const MSG_EMPTY_FILE: &str = "The file is empty.";
pub const MSG_COMMENTS: &str = "comments must be \"import\" or \"skip\".";
/// Imports listed at most.
pub const LIST_LIMIT: i64 = 50;

/// An import as its writer sees it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportView {
    pub id: String,
    /// `wordpress`, `medium`, `substack`, `ghost`, `pressroom` or `feed`.
    pub source: String,
    /// `parsing`, `preview`, `importing`, `done`, `failed` or `cancelled`.
    pub status: String,
    pub file_name: Option<String>,
    /// The feed's address.
    pub url: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub counts: ImportCounts,
    pub warnings: Vec<String>,
    /// Up to three posts as they will look (`title`, `slug`, `status`, `kind`, `date`, `blocks`);
    /// not in lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub sample: Option<Vec<Value>>,
    pub progress: ImportProgress,
    pub report: Option<ImportReport>,
    /// Why it failed.
    pub error: Option<String>,
}

impl ImportView {
    pub fn of(import: Import, with_sample: bool) -> Self {
        ImportView {
            id: import.id.to_hex(),
            source: import.source,
            status: import.status,
            file_name: import.file_name,
            url: import.url,
            created_at: iso(import.created_at),
            updated_at: iso(import.updated_at),
            counts: import.counts,
            warnings: import.warnings,
            sample: with_sample.then_some(import.sample),
            progress: import.progress,
            report: import.report,
            error: import.error,
        }
    }
}

/// The import's folder (its upload and what it unpacks to); never served.
pub fn folder_of(state: &AppState, id: ObjectId) -> PathBuf {
    state.settings.import.dir.join(id.to_hex())
}

/// How far an archive may unpack.
pub fn archive_limits(state: &AppState) -> source::ArchiveLimits {
    source::ArchiveLimits {
        max_bytes: state.settings.import.max_unpacked_bytes,
        max_files: state.settings.import.max_archive_files,
    }
}

/// The stored upload of an import.
pub fn upload_of(folder: &Path) -> PathBuf {
    folder.join("upload")
}

fn new_import(owner: ObjectId, source: Source) -> Import {
    let now = DateTime::now();
    Import {
        id: ObjectId::new(),
        owner_id: owner,
        source: source.as_str().to_string(),
        status: PARSING.to_string(),
        file_name: None,
        url: None,
        created_at: now,
        updated_at: now,
        counts: ImportCounts::default(),
        warnings: Vec::new(),
        sample: Vec::new(),
        progress: ImportProgress {
            phase: PARSING.to_string(),
            done: 0,
            total: 0,
        },
        report: None,
        error: None,
        keep_status: false,
        import_comments: false,
        lease_until: None,
    }
}

/// Refuses a second import while one of the writer's is read or written.
pub async fn check_none_running(state: &AppState, me: &AuthUser) -> ApiResult<()> {
    crate::services::api_keys::require_scope(me, "write:drafts")?;
    if imports::active_count(&state.db, me.user.id).await? > 0 {
        return Err(ApiError::conflict(MSG_ONE_AT_A_TIME));
    }
    Ok(())
}

/// Starts the import of an upload already written to `folder` (its `upload` file).
pub async fn start_upload(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
    source: Source,
    file_name: Option<String>,
) -> ApiResult<ImportView> {
    let upload = upload_of(&folder_of(state, id));
    let limits = archive_limits(state);
    tokio::task::spawn_blocking(move || source::check(source, &upload, limits))
        .await
        .map_err(ApiError::internal)?
        .map_err(|e| ApiError::bad_request(e.0))?;
    let mut import = new_import(me.user.id, source);
    import.id = id;
    import.file_name = file_name;
    imports::insert(&state.db, &import).await?;
    started(state, me, &import).await;
    Ok(ImportView::of(import, false))
}

/// Starts the import of a feed: its address is checked now as far as it can be without fetching
/// (an address, http or https, not a private or local one written as such); the worker fetches it.
pub async fn start_feed(state: &AppState, me: &AuthUser, url: &str) -> ApiResult<ImportView> {
    let url = url.trim();
    let parsed = reqwest::Url::parse(url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
        .ok_or_else(|| ApiError::bad_request(MSG_FEED_URL))?;
    if url.len() > 2000 {
        return Err(ApiError::bad_request(MSG_FEED_URL));
    }
    let host = parsed.host_str().unwrap_or_default();
    if crate::services::outbound::is_address(host) || host.eq_ignore_ascii_case("localhost") {
        fetch::allowed(&state.settings.import, url)
            .await
            .map_err(|why| ApiError::bad_request(format!("The feed cannot be fetched: {why}.")))?;
    }
    check_none_running(state, me).await?;
    let mut import = new_import(me.user.id, Source::Feed);
    import.url = Some(url.to_string());
    imports::insert(&state.db, &import).await?;
    started(state, me, &import).await;
    Ok(ImportView::of(import, false))
}

async fn started(state: &AppState, me: &AuthUser, import: &Import) {
    audit::record(
        state,
        me,
        audit::Action::ImportStart,
        audit::Target::id("import", import.id),
        json!({ "source": import.source, "fileName": import.file_name, "url": import.url }),
    )
    .await;
    tracing::info!(user_id = %me.user.id, import = %import.id, source = %import.source, "import started");
    state.wakes.imports.notify_one();
}

/// The writer's import `id`.
pub async fn get(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<ImportView> {
    let import = imports::find_for(&state.db, me.user.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    Ok(ImportView::of(import, true))
}

/// The writer's imports, newest first.
pub async fn list(state: &AppState, me: &AuthUser) -> ApiResult<Vec<ImportView>> {
    Ok(imports::list_for(&state.db, me.user.id, LIST_LIMIT)
        .await?
        .into_iter()
        .map(|i| ImportView::of(i, false))
        .collect())
}

/// The writer confirmed the preview: the worker writes the posts.
pub async fn confirm(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
    keep_status: bool,
    comments: Option<&str>,
) -> ApiResult<ImportView> {
    let import_comments = match comments.map(str::trim) {
        None | Some("skip") => false,
        Some("import") => true,
        Some(_) => return Err(ApiError::bad_request(MSG_COMMENTS)),
    };
    crate::services::api_keys::require_scope(me, "write:drafts")?;
    if keep_status {
        crate::services::api_keys::require_scope(me, "publish:posts")?;
    }
    let found = imports::find_for(&state.db, me.user.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if !imports::confirm(&state.db, me.user.id, id, keep_status, import_comments).await? {
        return Err(ApiError::conflict(MSG_NOT_IN_PREVIEW));
    }
    audit::record(
        state,
        me,
        audit::Action::ImportConfirm,
        audit::Target::id("import", id),
        json!({ "source": found.source, "keepStatus": keep_status, "comments": import_comments }),
    )
    .await;
    state.wakes.imports.notify_one();
    let import = imports::find_for(&state.db, me.user.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    announce(state, &import);
    Ok(ImportView::of(import, false))
}

/// The writer cancelled: the worker stops at its next step; what was written stays.
pub async fn cancel(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<ImportView> {
    imports::find_for(&state.db, me.user.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if !imports::cancel(&state.db, me.user.id, id).await? {
        return Err(ApiError::conflict(MSG_CANNOT_CANCEL));
    }
    audit::record(
        state,
        me,
        audit::Action::ImportCancel,
        audit::Target::id("import", id),
        json!({}),
    )
    .await;
    let import = imports::find_for(&state.db, me.user.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if import.status == CANCELLED {
        remove_folder(state, id).await;
    }
    announce(state, &import);
    Ok(ImportView::of(import, false))
}

/// Removes every post the import wrote (after a cancel, or to start again); answers how many.
pub async fn remove_posts(
    state: &actix_web::web::Data<AppState>,
    me: &AuthUser,
    id: ObjectId,
) -> ApiResult<u64> {
    crate::services::api_keys::require_scope(me, "publish:posts")?;
    let import = imports::find_for(&state.db, me.user.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if import.status == imports::IMPORTING {
        return Err(ApiError::conflict(
            "This import is still being written; cancel it before removing its posts.",
        ));
    }
    let mut removed = 0;
    for post in posts::written_by_import(&state.db, me.user.id, id).await? {
        if crate::services::deletion::delete_post_quietly(state, post)
            .await?
            .is_some()
        {
            removed += 1;
        }
    }
    crate::services::counts::post_counts_updated(state, me.user.id, true);
    audit::record(
        state,
        me,
        audit::Action::ImportRemove,
        audit::Target::id("import", id),
        json!({ "removed": removed }),
    )
    .await;
    Ok(removed)
}

/// The writer's tabs hear where the import stands.
pub fn announce(state: &AppState, import: &Import) {
    if let Ok(value) = serde_json::to_value(ImportView::of(import.clone(), false)) {
        crate::live::import_progress(&state.realtime, &import.owner_id.to_hex(), value);
    }
}

/// Removes an import's folder (its upload and what it unpacked to).
pub async fn remove_folder(state: &AppState, id: ObjectId) {
    let folder = folder_of(state, id);
    if let Err(e) = tokio::fs::remove_dir_all(&folder).await {
        if e.kind() != std::io::ErrorKind::NotFound {
            tracing::warn!(import = %id, error = %e, "could not remove an import's folder");
        }
    }
}
