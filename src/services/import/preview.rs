//! Reading an import's upload (or fetched feed) into its preview: counts by kind and status,
//! the warnings, a few posts as they will look; and the pieces the writing shares with it (the
//! reading of any source, an entry's blocks, title and tags).

use std::path::Path;

use serde_json::{json, Value};

use super::fetch::{self, Wanted};
use super::source::{self, ArchiveLimits, Entry, Found, Source, Standing};
use super::{announce, folder_of, remove_folder, upload_of};
use crate::domain::import::html::html_to_blocks_at;
use crate::domain::import::ReadError;
use crate::domain::slug::post_slug_base;
use crate::domain::tags::{normalize_tag, MAX_TAGS};
use crate::persistence::imports::{self, Import, ImportCounts, FAILED, PARSING};
use crate::persistence::posts::{self};
use crate::state::AppState;

/// Posts shown in a preview.
const SAMPLE: usize = 3;
/// Warnings kept (the rest are counted).
const MAX_WARNINGS: usize = 200;
/// Longest title kept (the editor's limit).
const MAX_TITLE_CHARS: usize = 200;

/// Warnings for the writer, the first `MAX_WARNINGS` of them kept and the rest counted.
#[derive(Default)]
pub(super) struct Warnings {
    kept: Vec<String>,
    more: usize,
}

impl Warnings {
    pub(super) fn push(&mut self, line: String) {
        if line.is_empty() {
            return;
        }
        if self.kept.len() < MAX_WARNINGS {
            self.kept.push(line);
        } else {
            self.more += 1;
        }
    }

    pub(super) fn into_lines(mut self) -> Vec<String> {
        if self.more > 0 {
            self.kept
                .push(format!("… and {} more warnings like these.", self.more));
        }
        self.kept
    }
}

/// Reads the import's upload (or fetched feed), handing each thing found to `on`; archives are
/// unpacked first (once: a second reading uses the files).
pub(super) fn read_all(
    source: Source,
    folder: &Path,
    limits: ArchiveLimits,
    url: Option<&str>,
    on: &mut dyn FnMut(Found) -> bool,
) -> Result<(), ReadError> {
    let upload = upload_of(folder);
    match source {
        Source::WordPress => source::read_wordpress(&upload, on),
        Source::Ghost => source::read_ghost(&upload, on),
        Source::Feed => {
            let bytes = std::fs::read(&upload)
                .map_err(|e| ReadError(format!("The feed could not be read back: {e}")))?;
            source::read_feed(&bytes, url.unwrap_or_default(), on)
        }
        Source::Medium | Source::Substack | Source::Pressroom => {
            let files = folder.join("files");
            if !files.is_dir() {
                let part = folder.join("files.part");
                let _ = std::fs::remove_dir_all(&part);
                std::fs::create_dir_all(&part)
                    .map_err(|e| ReadError(format!("The archive could not be unpacked: {e}")))?;
                if let Err(e) = source::unpack(&upload, &part, limits) {
                    let _ = std::fs::remove_dir_all(&part);
                    return Err(e);
                }
                std::fs::rename(&part, &files)
                    .map_err(|e| ReadError(format!("The archive could not be unpacked: {e}")))?;
            }
            match source {
                Source::Medium => source::read_medium(&files, on),
                Source::Substack => source::read_substack(&files, on),
                _ => source::read_pressroom(&files, on),
            }
        }
    }
}

/// An entry's blocks as the editor's JSON, with what its conversion lost and the images it shows.
pub(super) fn convert(entry: &Entry) -> (Vec<Value>, Vec<String>, Vec<String>) {
    if let Some(blocks) = &entry.blocks {
        let images = blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("image"))
            .filter_map(|b| b.pointer("/data/file/url").and_then(Value::as_str))
            .map(str::to_string)
            .collect();
        return (blocks.clone(), Vec::new(), images);
    }
    let converted = html_to_blocks_at(&entry.html, entry.url.as_deref());
    (converted.blocks, converted.warnings, converted.images)
}

pub(super) fn label(entry: &Entry) -> String {
    if entry.title.trim().is_empty() {
        format!("Entry {}", entry.source_id)
    } else {
        format!("\"{}\"", entry.title.trim())
    }
}

pub(super) fn title_of(entry: &Entry) -> String {
    let title = entry.title.trim();
    if title.is_empty() {
        return "Untitled".to_string();
    }
    title.chars().take(MAX_TITLE_CHARS).collect()
}

pub(super) fn tags_of(entry: &Entry) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    for tag in entry.tags.iter().filter_map(|t| normalize_tag(t)) {
        if !tags.contains(&tag) && tags.len() < MAX_TAGS {
            tags.push(tag);
        }
    }
    tags
}

/// What the preview shows, gathered while reading.
#[derive(Default)]
pub(super) struct Preview {
    counts: ImportCounts,
    warnings: Warnings,
    sample: Vec<Value>,
    /// Every entry's id, to count those imported already.
    ids: Vec<String>,
    seen: std::collections::HashSet<String>,
}

impl Preview {
    fn add(&mut self, found: Found) {
        let entry = match found {
            Found::Skipped(note) => {
                if !note.is_empty() {
                    self.counts.skipped += 1;
                    self.warnings.push(note);
                }
                return;
            }
            Found::Entry(entry) => entry,
        };
        if entry.page {
            self.counts.pages += 1;
        } else {
            self.counts.posts += 1;
            match entry.standing {
                Standing::Draft => self.counts.drafts += 1,
                Standing::Scheduled => self.counts.scheduled += 1,
                _ => {}
            }
        }
        self.counts.comments += entry.comments.len() as u64;
        let (blocks, lost, images) = convert(&entry);
        self.counts.images += images.len() as u64 + u64::from(entry.thumbnail.is_some());
        let name = label(&entry);
        for line in lost {
            self.warnings.push(format!("{name}: {line}"));
        }
        if entry.title.trim().is_empty() {
            self.warnings.push(format!(
                "{name} has no title; it is imported as \"Untitled\"."
            ));
        }
        if entry.date.is_none() {
            self.warnings.push(format!(
                "{name} has no date; it gets the date of the import."
            ));
        }
        if entry.slug.is_none() {
            self.warnings.push(format!(
                "{name} has no address of its own; one is made from its title."
            ));
        }
        if self.sample.len() < SAMPLE {
            self.sample.push(json!({
                "title": title_of(&entry),
                "slug": entry.slug.clone().unwrap_or_else(|| post_slug_base(&title_of(&entry))),
                "status": entry.standing.as_str(),
                "kind": if entry.page { "page" } else { "post" },
                "date": entry.date.map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
                "blocks": blocks,
            }));
        }
        if !self.seen.insert(entry.source_id.clone()) {
            self.warnings.push(format!(
                "{name} has the same id as an earlier entry ({}); it is imported once.",
                entry.source_id
            ));
        }
        self.ids.push(entry.source_id.clone());
    }
}

pub(super) fn limits(state: &AppState) -> ArchiveLimits {
    super::archive_limits(state)
}

/// Fetches the feed of a feed import into its folder (once).
async fn fetch_feed(state: &AppState, import: &Import, folder: &Path) -> Result<(), ReadError> {
    let upload = upload_of(folder);
    if upload.is_file() {
        return Ok(());
    }
    let url = import.url.clone().unwrap_or_default();
    let settings = &state.settings.import;
    let fetched = fetch::fetch(settings, &url, Wanted::Feed, settings.max_feed_bytes)
        .await
        .map_err(|why| ReadError(format!("The feed could not be fetched: {why}.")))?;
    tokio::fs::create_dir_all(folder)
        .await
        .and(tokio::fs::write(&upload, &fetched.bytes).await)
        .map_err(|e| ReadError(format!("The feed could not be kept: {e}")))
}

/// Reads a claimed import into its preview.
pub(super) async fn read(state: &AppState, import: Import) -> anyhow::Result<()> {
    let folder = folder_of(state, import.id);
    let Some(source) = Source::parse(&import.source) else {
        return fail(
            state,
            &import,
            PARSING,
            "This import's source is not known.",
        )
        .await;
    };
    if source == Source::Feed {
        if let Err(e) = fetch_feed(state, &import, &folder).await {
            return fail(state, &import, PARSING, &e.0).await;
        }
    }
    let limits = limits(state);
    let url = import.url.clone();
    let read_folder = folder.clone();
    let outcome = tokio::task::spawn_blocking(move || {
        let mut preview = Preview::default();
        read_all(source, &read_folder, limits, url.as_deref(), &mut |found| {
            preview.add(found);
            true
        })
        .map(|()| preview)
    })
    .await?;
    let mut preview = match outcome {
        Ok(preview) => preview,
        Err(e) => return fail(state, &import, PARSING, &e.0).await,
    };
    if preview.counts.posts + preview.counts.pages == 0 {
        let what = if source == Source::Feed {
            "The feed has no entries to import."
        } else {
            "The file holds no posts or pages to import."
        };
        return fail(state, &import, PARSING, what).await;
    }
    let mut before = 0;
    for ids in preview.ids.chunks(500) {
        before += posts::imported_source_ids(&state.db, import.owner_id, source.as_str(), ids)
            .await?
            .len() as u64;
    }
    if before > 0 {
        preview.warnings.kept.insert(
            0,
            format!(
                "{before} of these were imported before; they are skipped, not imported twice."
            ),
        );
    }
    let warnings = preview.warnings.into_lines();
    if imports::preview_ready(
        &state.db,
        import.id,
        &preview.counts,
        &warnings,
        &preview.sample,
    )
    .await?
    {
        if let Some(now) = imports::find(&state.db, import.id).await? {
            announce(state, &now);
        }
    }
    Ok(())
}

pub(super) async fn fail(
    state: &AppState,
    import: &Import,
    from: &str,
    why: &str,
) -> anyhow::Result<()> {
    tracing::info!(import = %import.id, reason = why, "an import failed");
    if imports::end(&state.db, import.id, from, FAILED, Some(why), None, &[]).await? {
        remove_folder(state, import.id).await;
        if let Some(now) = imports::find(&state.db, import.id).await? {
            announce(state, &now);
        }
    }
    Ok(())
}
