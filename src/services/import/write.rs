//! The import worker: it claims imports under a lease (so a restart or a second node takes over
//! one whose worker stopped) and either reads an upload into its preview or writes its posts.
//!
//! Writing reads the upload again on a blocking thread, one entry at a time over a bounded
//! channel, so memory stays that of a few entries whatever the archive's size. Entries are
//! written in batches: each batch first asks which entries the writer imported already (by any
//! import: by `importKey`, its author, source and id there), so running the same import twice, or again after
//! a crash, writes nothing twice. Progress is recorded with the lease (at most twice a second)
//! and sent to the writer's tabs; a cancellation seen there stops the work.
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use chrono::Utc;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde_json::{json, Value};

use super::source::{Entry, Found, Source, Standing};
use super::{announce, folder_of, remove_folder};
use crate::domain::blocks::parse_blocks;
use crate::domain::image_variants::record_in_file;
use crate::domain::post::{Audience, PostStatus, PostType, Visibility};
use crate::domain::sanitize::{plain_text, sanitize_inline};
use crate::domain::search::search_text_for;
use crate::domain::slug::post_slug_base;
use crate::mail::{MailKind, Outgoing};
use crate::persistence::comments::{self, Comment};
use crate::persistence::imports::{
    self, Import, ImportProgress, ImportReport, DONE, IMPORTING, PARSING,
};
use crate::persistence::posts::{self, ImportedFrom, Post};
use crate::persistence::{media, redirects, user_directory, users};
use crate::services::comments::{MAX_COMMENT_LEN, MAX_DEPTH};
use crate::services::post_write::{insert_with_free_slug, next_free_slug_besides};
use crate::state::AppState;

/// Seconds a worker holds an import before another may take it over (renewed as it works).
pub const LEASE_SECS: i64 = 60;
/// Entries written between two looks at which are imported already.
const BATCH: usize = 25;
use super::images::Images;
use super::preview::{convert, fail, label, limits, read, read_all, tags_of, title_of, Warnings};

/// Writes a confirmed import's posts.
struct Writer<'a> {
    state: &'a AppState,
    import: &'a Import,
    source: Source,
    images: Images<'a>,
    report: ImportReport,
    warnings: Warnings,
    progress: ImportProgress,
    /// Written in this run (an archive naming an entry twice gets it once).
    written: HashSet<String>,
    last_beat: Instant,
    cancelled: bool,
}

impl Writer<'_> {
    async fn beat(&mut self, force: bool) -> anyhow::Result<()> {
        if !force && self.last_beat.elapsed() < Duration::from_millis(500) {
            return Ok(());
        }
        self.last_beat = Instant::now();
        let now = imports::heartbeat(
            &self.state.db,
            self.import.id,
            LEASE_SECS,
            &self.progress,
            Some(&self.report),
        )
        .await?;
        if now.as_ref().map(|i| i.status.as_str()) != Some(IMPORTING) {
            self.cancelled = true;
        }
        if let Some(now) = now {
            announce(self.state, &now);
        }
        Ok(())
    }

    /// Writes a batch: what was imported before is skipped, the pictures of the rest are brought
    /// home together, then their posts are inserted with one write.
    async fn batch(&mut self, entries: Vec<Entry>) -> anyhow::Result<()> {
        let ids: Vec<String> = entries.iter().map(|e| e.source_id.clone()).collect();
        let before = posts::imported_source_ids(
            &self.state.db,
            self.import.owner_id,
            self.source.as_str(),
            &ids,
        )
        .await?;
        let mut todo: Vec<Entry> = Vec::new();
        for entry in entries {
            if before.contains(&entry.source_id)
                || self.written.contains(&entry.source_id)
                || todo.iter().any(|t| t.source_id == entry.source_id)
            {
                self.report.skipped += 1;
                self.progress.done += 1;
            } else {
                todo.push(entry);
            }
        }
        if self.cancelled || todo.is_empty() {
            return self.beat(false).await;
        }
        let prepared: Vec<Prepared> = todo.iter().map(|e| self.prepare(e)).collect();
        let wanted: Vec<(String, ObjectId, &Entry)> = prepared
            .iter()
            .zip(&todo)
            .flat_map(|(p, e)| p.wanted.iter().map(move |a| (a.clone(), p.id, e)))
            .collect();
        let stored_for = self.images.bring(&wanted).await;
        let mut built: Vec<(Post, &Entry)> = Vec::new();
        for (prepared, entry) in prepared.into_iter().zip(&todo) {
            match self.build(entry, prepared, &stored_for).await {
                Ok(post) => built.push((post, entry)),
                Err(why) => self.failed(entry, why),
            }
        }
        let published = self.insert(&mut built).await?;
        for (post, entry) in &built {
            if self.import.import_comments && !entry.comments.is_empty() {
                match self.comments(post, entry).await {
                    Ok(n) => self.report.comments += n,
                    Err(why) => self.warnings.push(format!(
                        "{}: its comments could not all be imported: {why}",
                        label(entry)
                    )),
                }
            }
        }
        user_directory::add_to_total_posts(&self.state.db, self.import.owner_id, published).await?;
        self.beat(false).await
    }

    fn failed(&mut self, entry: &Entry, why: String) {
        self.report.failed += 1;
        self.progress.done += 1;
        self.warnings
            .push(format!("{} could not be imported: {why}", label(entry)));
    }

    /// Inserts the batch's posts under free slugs with one write (one at a time for any whose
    /// slug was taken meanwhile); drops from `built` what could not be written, and answers how
    /// many published posts were written.
    async fn insert(&mut self, built: &mut Vec<(Post, &Entry)>) -> anyhow::Result<i64> {
        let mut reserved = HashSet::new();
        let mut bases = Vec::with_capacity(built.len());
        for (post, entry) in built.iter_mut() {
            let base = post_slug_base(entry.slug.as_deref().unwrap_or(&post.title));
            post.slug = next_free_slug_besides(self.state, &base, &reserved).await?;
            reserved.insert(post.slug.clone());
            bases.push(base);
        }
        let posts_only: Vec<Post> = built.iter().map(|(p, _)| p.clone()).collect();
        let refused = posts::insert_all(&self.state.db, &posts_only).await?;
        let mut kept = Vec::with_capacity(built.len());
        let mut published = 0;
        for (i, ((mut post, entry), base)) in
            std::mem::take(built).into_iter().zip(bases).enumerate()
        {
            if refused.contains(&i) {
                if let Err(e) = insert_with_free_slug(self.state, &mut post, &base).await {
                    let dir = &self.state.settings.server.media_dir;
                    let _ = media::release_unused(&self.state.db, dir, post.id, &[]).await;
                    self.failed(entry, e.to_string());
                    continue;
                }
            }
            if entry
                .slug
                .as_deref()
                .is_some_and(|s| post_slug_base(s) != post.slug)
            {
                self.warnings.push(format!(
                    "{}: its address \"{}\" was taken here, so it is \"{}\".",
                    label(entry),
                    entry.slug.as_deref().unwrap_or_default(),
                    post.slug
                ));
            }
            self.report.created += 1;
            self.progress.done += 1;
            self.written.insert(entry.source_id.clone());
            if post.status == PostStatus::Published {
                published += 1;
            }
            kept.push((post, entry));
        }
        // An address the post had on this very site (a blog moved here) leads to it now.
        let site = &self.state.settings.server.public_url;
        let moved: Vec<(String, ObjectId)> = kept
            .iter()
            .filter_map(|(post, entry)| {
                let old = old_path_here(entry.url.as_deref()?, site)?;
                (old != format!("/post/{}", post.slug)).then_some((old, post.id))
            })
            .collect();
        if !moved.is_empty() {
            redirects::keep(&self.state.db, &moved).await?;
        }
        *built = kept;
        Ok(published)
    }

    /// An entry's blocks converted and the pictures it names, before anything is written.
    fn prepare(&mut self, entry: &Entry) -> Prepared {
        let (blocks, lost, addresses) = convert(entry);
        let name = label(entry);
        for line in lost {
            self.warnings.push(format!("{name}: {line}"));
        }
        let mut wanted: Vec<String> = addresses
            .iter()
            .filter_map(|a| Images::absolute(a, entry))
            .collect();
        let thumbnail = entry
            .thumbnail
            .as_deref()
            .and_then(|t| Images::absolute(t, entry));
        wanted.extend(thumbnail.clone());
        Prepared {
            id: ObjectId::new(),
            blocks,
            wanted,
            thumbnail,
        }
    }

    /// An entry's post, its pictures pointing at the stored copies (not written yet).
    async fn build(
        &mut self,
        entry: &Entry,
        prepared: Prepared,
        stored_for: &HashMap<String, ObjectId>,
    ) -> Result<Post, String> {
        let Prepared {
            id,
            mut blocks,
            thumbnail: thumbnail_address,
            ..
        } = prepared;
        let name = label(entry);
        let mut stored: HashMap<String, crate::domain::image_variants::ImageMeta> = HashMap::new();
        for block in blocks
            .iter_mut()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("image"))
        {
            let Some(file) = block
                .pointer_mut("/data/file")
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            let raw = file
                .get("url")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let Some(address) = Images::absolute(&raw, entry) else {
                continue;
            };
            match self.images.use_for(&address, id, stored_for).await {
                Ok(meta) => {
                    file.insert("url".into(), Value::String(meta.src.clone()));
                    stored.insert(meta.src.clone(), meta);
                    self.report.images_fetched += 1;
                }
                Err(why) => {
                    file.insert("url".into(), Value::String(address.clone()));
                    self.report.images_failed += 1;
                    self.warnings.push(format!(
                        "{name}: an image keeps its old address because {why}."
                    ));
                }
            }
        }
        let mut thumbnail = None;
        let mut thumbnail_image = None;
        if let Some(address) = thumbnail_address {
            match self.images.use_for(&address, id, stored_for).await {
                Ok(meta) => {
                    thumbnail = Some(meta.src.clone());
                    thumbnail_image = Some(meta);
                    self.report.images_fetched += 1;
                }
                Err(why) => {
                    thumbnail = Some(address);
                    self.report.images_failed += 1;
                    self.warnings.push(format!(
                        "{name}: the featured image keeps its old address because {why}."
                    ));
                }
            }
        }
        if blocks.is_empty() {
            blocks.push(json!({ "type": "paragraph", "data": { "text": "" } }));
        }
        for (i, block) in blocks.iter_mut().enumerate() {
            if let Some(obj) = block.as_object_mut() {
                obj.entry("id")
                    .or_insert_with(|| Value::String(format!("imp{i}")));
            }
        }
        let mut blocks = match parse_blocks(&Value::Array(blocks)) {
            Ok(blocks) => blocks,
            Err(e) => {
                let dir = &self.state.settings.server.media_dir;
                let _ = media::release_unused(&self.state.db, dir, id, &[]).await;
                return Err(e.to_string());
            }
        };
        // The stored pictures' sizes and variants beside their addresses, as the editor's are.
        for block in blocks.iter_mut().filter(|b| b.kind == "image") {
            let Some(file) = block.data.get_mut("file").and_then(Value::as_object_mut) else {
                continue;
            };
            let url = file.get("url").and_then(Value::as_str).unwrap_or_default();
            if let Some(meta) = stored.get(url) {
                let _ = record_in_file(file, meta);
            }
        }
        let title = title_of(entry);
        let tags = tags_of(entry);
        let audience = if entry.subscribers_only {
            Audience::Subscribers
        } else {
            Audience::Everyone
        };
        let at = crate::persistence::now();
        let date = entry.date.map(DateTime::from_chrono).unwrap_or(at);
        let keep = self.import.keep_status;
        let status = match (keep, entry.standing) {
            (false, _) | (true, Standing::Draft) => PostStatus::Draft,
            (true, Standing::Scheduled) if entry.date.is_some_and(|d| d > Utc::now()) => {
                PostStatus::Scheduled
            }
            (true, _) => PostStatus::Published,
        };
        let visibility = if entry.page {
            Visibility::Unlisted
        } else if entry.standing == Standing::Private {
            Visibility::Private
        } else {
            Visibility::Public
        };
        let published = status == PostStatus::Published;
        let mut post = Post {
            id,
            slug: String::new(),
            search_text: search_text_for(&title, &tags, &blocks, audience),
            audience,
            reading_time: crate::domain::blocks::reading_time_minutes(&blocks),
            title,
            blocks,
            thumbnail,
            thumbnail_image,
            author: self.import.owner_id,
            category: None,
            tags,
            post_type: PostType::default(),
            visibility,
            is_featured: false,
            is_pinned: false,
            is_published: published,
            language: "en".to_string(),
            status,
            publish_at: (status == PostStatus::Scheduled).then_some(date),
            published_at: published.then_some(date),
            blocked: false,
            likes_count: 0,
            bookmarks_count: 0,
            views: 0,
            share_count: 0,
            comments_count: 0,
            trending_score: 0.0,
            created_at: date,
            updated_at: at,
            edited_at: None,
            series_id: None,
            import_key: Some(posts::import_key(
                self.import.owner_id,
                self.source.as_str(),
                &entry.source_id,
            )),
            imported_from: Some(ImportedFrom {
                source: self.source.as_str().to_string(),
                source_id: entry.source_id.clone(),
                url: entry.url.clone(),
                import_id: Some(self.import.id),
            }),
        };
        post.trending_score = posts::trending_score(&post, at);
        Ok(post)
    }
}

/// An entry converted, before its pictures are brought home.
struct Prepared {
    id: ObjectId,
    blocks: Vec<Value>,
    /// Every picture address the blocks and the thumbnail name.
    wanted: Vec<String>,
    thumbnail: Option<String>,
}

impl Writer<'_> {
    /// Writes an entry's comments under the writer's account, each shown under the name of
    /// whoever wrote it, threads kept (a reply too deep joins the deepest level); answers how
    /// many were written.
    async fn comments(&mut self, post: &Post, entry: &Entry) -> Result<u64, String> {
        let mut ids: HashMap<String, (ObjectId, Vec<ObjectId>)> = HashMap::new();
        let mut written = 0;
        for (i, c) in entry.comments.iter().enumerate() {
            let text = sanitize_inline(c.html.trim()).trim().to_string();
            if plain_text(&text).trim().is_empty() || text.chars().count() > MAX_COMMENT_LEN {
                self.warnings.push(format!(
                    "{}: a comment by {} is empty or longer than {MAX_COMMENT_LEN} characters; it is left out.",
                    label(entry),
                    c.author
                ));
                continue;
            }
            let parent = c.parent.as_ref().and_then(|p| ids.get(p)).cloned();
            let (parent, ancestors) = match parent {
                Some((id, mut above)) if above.len() + 1 < MAX_DEPTH => {
                    above.push(id);
                    (Some(id), above)
                }
                Some((_, above)) if !above.is_empty() => {
                    (above.last().copied(), above[..above.len() - 1].to_vec())
                }
                _ => (None, Vec::new()),
            };
            let at = c
                .date
                .map(DateTime::from_chrono)
                .unwrap_or_else(crate::persistence::now);
            let comment = Comment {
                id: ObjectId::new(),
                post: post.id,
                content: text,
                parent,
                ancestors: ancestors.clone(),
                user: post.author,
                is_flagged: false,
                blocked: false,
                edited: false,
                created_at: at,
                updated_at: at,
                guest_name: Some(if c.author.trim().is_empty() {
                    "Anonymous".to_string()
                } else {
                    c.author.trim().chars().take(100).collect()
                }),
            };
            comments::insert_once(&self.state.db, &comment)
                .await
                .map_err(|e| e.to_string())?;
            ids.insert(
                c.id.clone().unwrap_or_else(|| i.to_string()),
                (comment.id, ancestors),
            );
            written += 1;
        }
        Ok(written)
    }
}

/// The path of `url` when it is an address of this site (`public_url`'s host and port, either
/// scheme), without a trailing slash; `None` for another site's or the site's root.
fn old_path_here(url: &str, public_url: &str) -> Option<String> {
    let old = reqwest::Url::parse(url).ok()?;
    let here = reqwest::Url::parse(public_url).ok()?;
    let same = old.host_str()?.eq_ignore_ascii_case(here.host_str()?) && old.port() == here.port();
    let path = old.path().trim_end_matches('/');
    (same && !path.is_empty()).then(|| path.to_string())
}

/// Writes a claimed, confirmed import.
async fn write(state: &actix_web::web::Data<AppState>, import: Import) -> anyhow::Result<()> {
    let started = Instant::now();
    let folder = folder_of(state, import.id);
    let Some(source) = Source::parse(&import.source) else {
        return fail(
            state,
            &import,
            IMPORTING,
            "This import's source is not known.",
        )
        .await;
    };
    let limits = limits(state);
    let url = import.url.clone();
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Found>(16);
    let read_folder: PathBuf = folder.clone();
    let reader = tokio::task::spawn_blocking(move || {
        read_all(source, &read_folder, limits, url.as_deref(), &mut |found| {
            tx.blocking_send(found).is_ok()
        })
    });
    let mut writer = Writer {
        state,
        import: &import,
        source,
        images: Images {
            state,
            owner: import.owner_id,
            done: HashMap::new(),
        },
        report: ImportReport::default(),
        warnings: Warnings::default(),
        progress: ImportProgress {
            phase: "writing".to_string(),
            done: 0,
            total: import.counts.posts + import.counts.pages,
        },
        written: HashSet::new(),
        last_beat: Instant::now(),
        cancelled: false,
    };
    writer.beat(true).await?;
    let mut batch: Vec<Entry> = Vec::new();
    loop {
        let next = rx.recv().await;
        let end = next.is_none();
        if let Some(Found::Entry(entry)) = next {
            batch.push(*entry);
        }
        if batch.len() >= BATCH || (end && !batch.is_empty()) {
            writer.batch(std::mem::take(&mut batch)).await?;
        }
        if end || writer.cancelled {
            break;
        }
    }
    drop(rx);
    let read = reader.await?;
    if writer.cancelled {
        tracing::info!(import = %import.id, created = writer.report.created, "an import was cancelled");
        // What was written is recorded; the lease ends at once.
        let now = imports::heartbeat(
            &state.db,
            import.id,
            0,
            &writer.progress,
            Some(&writer.report),
        )
        .await?;
        remove_folder(state, import.id).await;
        if let Some(now) = now {
            announce(state, &now);
        }
        return Ok(());
    }
    let mut warnings = std::mem::take(&mut writer.warnings);
    if let Err(e) = read {
        warnings.push(format!("Reading stopped early: {e}"));
    }
    writer.progress.phase = DONE.to_string();
    let report = writer.report.clone();
    let progress = writer.progress.clone();
    let _ = imports::heartbeat(&state.db, import.id, LEASE_SECS, &progress, Some(&report)).await;
    if imports::end(
        &state.db,
        import.id,
        IMPORTING,
        DONE,
        None,
        Some(&report),
        &warnings.into_lines(),
    )
    .await?
    {
        remove_folder(state, import.id).await;
        crate::services::counts::post_counts_updated(state, import.owner_id, true);
        if let Some(now) = imports::find(&state.db, import.id).await? {
            announce(state, &now);
        }
        let email_after = Duration::from_secs(state.settings.import.email_after_seconds);
        if started.elapsed() >= email_after {
            tell_by_email(state, &import, &report).await;
        }
        tracing::info!(import = %import.id, created = report.created, skipped = report.skipped, failed = report.failed, "an import ended");
    }
    Ok(())
}

async fn tell_by_email(state: &AppState, import: &Import, report: &ImportReport) {
    let Ok(Some(user)) = users::find_by_id(&state.db, import.owner_id).await else {
        return;
    };
    let body = format!(
        "Hello {},\n\nYour import from {} has finished: {} posts written, {} imported before and skipped, {} that could not be imported; {} images brought over, {} kept at their old address.\n\nThe full report is on your settings page:\n{}\n",
        user.name,
        import.source,
        report.created,
        report.skipped,
        report.failed,
        report.images_fetched,
        report.images_failed,
        state.settings.public_link("/user-setting#import"),
    );
    let mail = Outgoing::new(
        MailKind::Security,
        &user.email,
        "Your import has finished",
        body,
    )
    .for_user(user.id);
    state.mailer.send_mail(mail).await;
}

/// Reads or writes every import waiting; answers how many were taken.
pub async fn run_pending(state: &actix_web::web::Data<AppState>) -> anyhow::Result<usize> {
    let mut taken = 0;
    while let Some(import) = imports::claim(&state.db, LEASE_SECS).await? {
        taken += 1;
        let id = import.id;
        let result = match import.status.as_str() {
            PARSING => read(state, import).await,
            IMPORTING => write(state, import).await,
            _ => Ok(()),
        };
        if let Err(e) = result {
            tracing::warn!(import = %id, error = %e, "an import step failed; it is taken up again once its lease runs out");
        }
    }
    Ok(taken)
}

#[cfg(test)]
mod tests {
    use super::old_path_here;

    #[test]
    fn an_address_of_this_site_is_kept_by_its_path() {
        let site = "https://blog.example.com";
        let here = |url: &str| old_path_here(url, site);
        assert_eq!(
            here("https://blog.example.com/2019/05/a-walk/"),
            Some("/2019/05/a-walk".to_string())
        );
        // The scheme may have changed with the move; host and port may not.
        assert_eq!(
            here("http://BLOG.example.com/about"),
            Some("/about".to_string())
        );
        assert_eq!(here("https://blog.example.com:8443/about"), None);
        assert_eq!(here("https://elsewhere.example.com/about"), None);
        assert_eq!(here("https://blog.example.com/"), None);
        assert_eq!(here("not an address"), None);
    }
}
