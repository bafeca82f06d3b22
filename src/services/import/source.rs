//! An upload or a feed read into entries of one shape, whatever the platform: each post or page
//! with its id there, title, slug, HTML (or a Pressroom export's blocks), status, date, tags and
//! address. Archives (zips) are unpacked first, refusing what could harm the machine: paths out
//! of the folder, links, more files or more bytes than the settings allow.
//!
//! Reading is blocking work (files, parsers): it runs on a blocking thread and hands each entry
//! to a callback as it is read, so a WordPress export of any size is held one item at a time.

use std::collections::HashMap;
use std::io::{BufReader, Read};
use std::path::{Component, Path, PathBuf};

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::domain::import::{feed, ghost, medium, substack, wxr, ReadError};

/// The platforms an import reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    WordPress,
    Medium,
    Substack,
    Ghost,
    Pressroom,
    Feed,
}

pub const MSG_UNKNOWN_SOURCE: &str =
    "Choose what to import from: wordpress, medium, substack, ghost, pressroom or feed.";

impl Source {
    pub fn parse(raw: &str) -> Option<Source> {
        Some(match raw.trim().to_ascii_lowercase().as_str() {
            "wordpress" => Source::WordPress,
            "medium" => Source::Medium,
            "substack" => Source::Substack,
            "ghost" => Source::Ghost,
            "pressroom" => Source::Pressroom,
            "feed" => Source::Feed,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Source::WordPress => "wordpress",
            Source::Medium => "medium",
            Source::Substack => "substack",
            Source::Ghost => "ghost",
            Source::Pressroom => "pressroom",
            Source::Feed => "feed",
        }
    }
}

/// Where an entry stood on its platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Published,
    Draft,
    Scheduled,
    /// Published for its author only.
    Private,
}

impl Standing {
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Published => "published",
            Standing::Draft => "draft",
            Standing::Scheduled => "scheduled",
            Standing::Private => "private",
        }
    }
}

/// A comment an entry had where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryComment {
    /// Its id there, and the id of the comment it answers.
    pub id: Option<String>,
    pub parent: Option<String>,
    pub author: String,
    pub html: String,
    pub date: Option<DateTime<Utc>>,
}

/// One post or page of an archive or feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub source_id: String,
    pub page: bool,
    pub title: String,
    pub slug: Option<String>,
    pub html: String,
    /// The blocks themselves (a Pressroom export's posts), used instead of `html`.
    pub blocks: Option<Vec<Value>>,
    pub standing: Standing,
    pub date: Option<DateTime<Utc>>,
    pub tags: Vec<String>,
    pub thumbnail: Option<String>,
    /// Its address where it came from (the canonical link).
    pub url: Option<String>,
    pub subscribers_only: bool,
    pub comments: Vec<EntryComment>,
    /// Where its images' `/media/` addresses are found on disk (a Pressroom export's folder).
    pub local_media: Option<PathBuf>,
}

/// What reading finds, one at a time.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    Entry(Box<Entry>),
    /// Something of the archive that is not imported, and why (for the warnings).
    Skipped(String),
}

/// The limits of an archive's unpacking.
#[derive(Debug, Clone, Copy)]
pub struct ArchiveLimits {
    pub max_bytes: u64,
    pub max_files: usize,
}

/// Opens the zip at `archive` and checks what it declares: no more files than allowed, no
/// path outside its folder, no links, no entry that unpacks to hundreds of times its size, and
/// no more bytes in all than allowed.
fn inspect(
    archive: &Path,
    limits: ArchiveLimits,
) -> Result<zip::ZipArchive<BufReader<std::fs::File>>, ReadError> {
    let file = std::fs::File::open(archive)
        .map_err(|e| ReadError(format!("The upload could not be opened: {e}")))?;
    let mut zip = zip::ZipArchive::new(BufReader::new(file))
        .map_err(|_| ReadError("This is not a zip archive.".into()))?;
    if zip.len() > limits.max_files {
        return Err(ReadError(format!(
            "The archive holds {} files; an import takes at most {}.",
            zip.len(),
            limits.max_files
        )));
    }
    let mut declared: u64 = 0;
    for i in 0..zip.len() {
        let entry = zip
            .by_index_raw(i)
            .map_err(|e| ReadError(format!("The archive's entry {} is damaged: {e}", i + 1)))?;
        let name = entry.name().to_string();
        let safe = entry.enclosed_name().is_some_and(|p| {
            p.components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        });
        if !safe || name.contains('\\') || name.starts_with('/') {
            return Err(ReadError(format!(
                "The archive holds a file outside its folder (\"{name}\"); nothing was imported."
            )));
        }
        if entry.is_symlink() {
            return Err(ReadError(format!(
                "The archive holds a link (\"{name}\"); links are not imported, so nothing was."
            )));
        }
        declared = declared.saturating_add(entry.size());
        if entry.size() > 1_000_000 && entry.size() / entry.compressed_size().max(1) > 200 {
            return Err(ReadError(format!(
                "The archive's file \"{name}\" unpacks to {} times its packed size, which only a zip bomb does; nothing was imported.",
                entry.size() / entry.compressed_size().max(1)
            )));
        }
    }
    if declared > limits.max_bytes {
        return Err(ReadError(format!(
            "The archive unpacks to {} MB; an import takes at most {} MB.",
            declared / 1_000_000,
            limits.max_bytes / 1_000_000
        )));
    }
    Ok(zip)
}

/// Checks an upload before it is accepted, as far as can be done at once: an archive's
/// declared contents, a WordPress export's XML from end to end, a Ghost export's JSON.
pub fn check(source: Source, upload: &Path, limits: ArchiveLimits) -> Result<(), ReadError> {
    match source {
        Source::Medium | Source::Substack | Source::Pressroom => {
            inspect(upload, limits).map(|_| ())
        }
        Source::WordPress => {
            let file = std::fs::File::open(upload)
                .map_err(|e| ReadError(format!("The upload could not be opened: {e}")))?;
            wxr::read_wxr(BufReader::new(file), |_| {})
                .map(|_| ())
                .map_err(|e| ReadError(e.to_string()))
        }
        Source::Ghost => {
            let bytes = std::fs::read(upload)
                .map_err(|e| ReadError(format!("The upload could not be read: {e}")))?;
            ghost::read_ghost(&bytes).map(|_| ())
        }
        Source::Feed => Ok(()),
    }
}

/// Unpacks the zip at `archive` into `into`, or says why it will not.
pub fn unpack(archive: &Path, into: &Path, limits: ArchiveLimits) -> Result<(), ReadError> {
    let mut zip = inspect(archive, limits)?;
    let mut written: u64 = 0;
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| ReadError(format!("The archive's entry {} is damaged: {e}", i + 1)))?;
        let Some(relative) = entry.enclosed_name() else {
            continue;
        };
        let path = into.join(relative);
        if entry.is_dir() {
            std::fs::create_dir_all(&path).map_err(unpack_failed)?;
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(unpack_failed)?;
        }
        let mut out = std::fs::File::create(&path).map_err(unpack_failed)?;
        // Never more than the sizes declared: an entry that lies about its size stops here.
        let left = limits.max_bytes.saturating_sub(written);
        let copied = std::io::copy(&mut (&mut entry).take(left + 1), &mut out).map_err(|e| {
            ReadError(format!(
                "The archive's file \"{}\" could not be unpacked: {e}",
                entry.name()
            ))
        })?;
        written += copied;
        if written > limits.max_bytes {
            return Err(ReadError(format!(
                "The archive unpacks to more than the {} MB an import takes.",
                limits.max_bytes / 1_000_000
            )));
        }
    }
    Ok(())
}

fn unpack_failed(e: std::io::Error) -> ReadError {
    ReadError(format!("The archive could not be unpacked: {e}"))
}

/// The first folder under `root` (itself included, breadth first) holding a file named `name`
/// (exports are zipped with or without a folder around them).
fn folder_with(root: &Path, name: &str) -> Option<PathBuf> {
    let mut queue = vec![root.to_path_buf()];
    let mut i = 0;
    while i < queue.len() && i < 10_000 {
        let dir = queue[i].clone();
        i += 1;
        if dir.join(name).exists() {
            return Some(dir);
        }
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut subdirs: Vec<PathBuf> = read
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .collect();
        subdirs.sort();
        queue.extend(subdirs);
    }
    None
}

/// The files of `dir` ending in `ext`, sorted by name.
fn files_ending(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|read| {
            read.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.to_string_lossy().ends_with(ext))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn read_text(path: &Path) -> Result<String, ReadError> {
    let bytes = std::fs::read(path).map_err(|e| {
        ReadError(format!(
            "{} could not be read: {e}",
            path.file_name().unwrap_or_default().to_string_lossy()
        ))
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn base_entry(source_id: String, title: String) -> Entry {
    Entry {
        source_id,
        page: false,
        title,
        slug: None,
        html: String::new(),
        blocks: None,
        standing: Standing::Draft,
        date: None,
        tags: Vec::new(),
        thumbnail: None,
        url: None,
        subscribers_only: false,
        comments: Vec::new(),
        local_media: None,
    }
}

/// Reads a WordPress export from `path`: posts and pages (attachments give the featured images;
/// other types and trashed items are skipped).
pub fn read_wordpress(path: &Path, on: &mut dyn FnMut(Found) -> bool) -> Result<(), ReadError> {
    // Featured images name an attachment, which may come after the post: a first pass collects
    // the attachments' addresses (one item at a time), the second reads the posts.
    let mut attachments: HashMap<String, String> = HashMap::new();
    let open = || {
        std::fs::File::open(path)
            .map(BufReader::new)
            .map_err(|e| ReadError(format!("The upload could not be opened: {e}")))
    };
    wxr::read_wxr(open()?, |item| {
        if let (true, Some(url)) = (item.kind == "attachment", item.attachment_url) {
            attachments.insert(item.id, url);
        }
    })
    .map_err(|e| ReadError(e.to_string()))?;
    let mut go_on = true;
    wxr::read_wxr(open()?, |item| {
        if !go_on {
            return;
        }
        go_on = on(wordpress_found(item, &attachments));
    })
    .map_err(|e| ReadError(e.to_string()))?;
    Ok(())
}

fn wordpress_found(item: wxr::WxrItem, attachments: &HashMap<String, String>) -> Found {
    let label = if item.title.is_empty() {
        format!("item {}", item.id)
    } else {
        format!("\"{}\"", item.title)
    };
    match item.kind.as_str() {
        "post" | "page" => {}
        "attachment" => return Found::Skipped(String::new()),
        other => {
            return Found::Skipped(format!(
                "{label} is a WordPress {other}, which is not imported."
            ))
        }
    }
    let standing = match item.status.as_str() {
        "publish" => Standing::Published,
        "future" => Standing::Scheduled,
        "private" => Standing::Private,
        "trash" | "auto-draft" | "inherit" => {
            return Found::Skipped(format!(
                "{label} was in WordPress's trash; it is not imported."
            ))
        }
        _ => Standing::Draft,
    };
    let mut tags: Vec<String> = item
        .categories
        .iter()
        .filter(|c| c.slug != "uncategorized")
        .map(|c| c.name.clone())
        .collect();
    tags.extend(item.tags.iter().map(|t| t.name.clone()));
    let mut html = item.html;
    if let Some(audio) = &item.enclosure {
        html.push_str(&format!(
            "<p><audio src=\"{}\"></audio></p>",
            crate::domain::sanitize::escape_html(audio)
        ));
    }
    Found::Entry(Box::new(Entry {
        page: item.kind == "page",
        slug: item.slug,
        html,
        standing: if item.password {
            Standing::Draft
        } else {
            standing
        },
        date: item.date_gmt,
        tags,
        thumbnail: item
            .thumbnail_id
            .and_then(|id| attachments.get(&id).cloned()),
        url: Some(item.link).filter(|l| !l.is_empty()),
        comments: item
            .comments
            .into_iter()
            .filter(|c| c.approved)
            .map(|c| EntryComment {
                id: Some(c.id),
                parent: c.parent,
                author: c.author,
                html: c.html,
                date: c.date_gmt,
            })
            .collect(),
        ..base_entry(item.id, item.title)
    }))
}

/// Reads a Ghost JSON export.
pub fn read_ghost(path: &Path, on: &mut dyn FnMut(Found) -> bool) -> Result<(), ReadError> {
    let bytes =
        std::fs::read(path).map_err(|e| ReadError(format!("The upload could not be read: {e}")))?;
    for post in ghost::read_ghost(&bytes)? {
        let standing = match post.status.as_str() {
            "published" => Standing::Published,
            "scheduled" => Standing::Scheduled,
            _ => Standing::Draft,
        };
        let found = Found::Entry(Box::new(Entry {
            page: post.page,
            slug: post.slug,
            html: post.html,
            standing,
            date: post.published_at,
            tags: post.tags,
            thumbnail: post.feature_image,
            url: post.canonical_url,
            subscribers_only: !matches!(post.visibility.as_str(), "" | "public"),
            ..base_entry(post.id, post.title)
        }));
        if !on(found) {
            break;
        }
    }
    Ok(())
}

/// Reads an unpacked Medium export (`posts/*.html`); responses are skipped.
pub fn read_medium(root: &Path, on: &mut dyn FnMut(Found) -> bool) -> Result<(), ReadError> {
    let posts = folder_with(root, "posts")
        .map(|d| d.join("posts"))
        .filter(|d| d.is_dir())
        .ok_or_else(|| ReadError("This is not a Medium export: it has no posts folder.".into()))?;
    for file in files_ending(&posts, ".html") {
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let post = medium::read_medium_post(&name, &read_text(&file)?);
        let found = if post.response {
            Found::Skipped(format!(
                "\"{}\" is a response to another post on Medium; responses are not imported.",
                post.title
            ))
        } else {
            let mut html = String::new();
            if !post.subtitle.is_empty() {
                html.push_str(&format!(
                    "<p><em>{}</em></p>",
                    crate::domain::sanitize::escape_html(&post.subtitle)
                ));
            }
            html.push_str(&post.html);
            Found::Entry(Box::new(Entry {
                slug: post.slug,
                html,
                standing: if post.published_at.is_some() {
                    Standing::Published
                } else {
                    Standing::Draft
                },
                date: post.published_at,
                tags: post.tags.into_iter().map(|(name, _)| name).collect(),
                url: post.canonical_url,
                ..base_entry(post.source_id, post.title)
            }))
        };
        if !on(found) {
            break;
        }
    }
    Ok(())
}

/// Reads an unpacked Substack export (`posts.csv` and `posts/<post_id>.html`).
pub fn read_substack(root: &Path, on: &mut dyn FnMut(Found) -> bool) -> Result<(), ReadError> {
    let dir = folder_with(root, "posts.csv")
        .ok_or_else(|| ReadError("This is not a Substack export: it has no posts.csv.".into()))?;
    let csv = std::fs::read(dir.join("posts.csv"))
        .map_err(|e| ReadError(format!("posts.csv could not be read: {e}")))?;
    for row in substack::read_substack_csv(&csv)? {
        let body = dir.join("posts").join(format!("{}.html", row.post_id));
        let mut html = String::new();
        if !row.subtitle.is_empty() {
            html.push_str(&format!(
                "<p><em>{}</em></p>",
                crate::domain::sanitize::escape_html(&row.subtitle)
            ));
        }
        if let Some(audio) = &row.podcast_url {
            html.push_str(&format!(
                "<p><audio src=\"{}\"></audio></p>",
                crate::domain::sanitize::escape_html(audio)
            ));
        }
        if body.is_file() {
            html.push_str(&read_text(&body)?);
        }
        let found = Found::Entry(Box::new(Entry {
            page: row.kind == "page",
            slug: row.slug,
            html,
            standing: if row.published {
                Standing::Published
            } else {
                Standing::Draft
            },
            date: row.date,
            subscribers_only: !matches!(row.audience.as_str(), "" | "everyone"),
            ..base_entry(row.source_id, row.title)
        }));
        if !on(found) {
            break;
        }
    }
    Ok(())
}

/// Reads an unpacked Pressroom export (`posts/<slug>.json`, images in `posts/<slug>/media/`).
pub fn read_pressroom(root: &Path, on: &mut dyn FnMut(Found) -> bool) -> Result<(), ReadError> {
    let dir = folder_with(root, "profile.json").ok_or_else(|| {
        ReadError("This is not a Pressroom export: it has no profile.json.".into())
    })?;
    for file in files_ending(&dir.join("posts"), ".json") {
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let post: Value = serde_json::from_str(&read_text(&file)?).map_err(|e| {
            ReadError(format!(
                "posts/{name} is not valid JSON at line {}, column {}: {e}",
                e.line(),
                e.column()
            ))
        })?;
        let text = |key: &str| {
            post.get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let id = text("_id");
        if id.is_empty() {
            return Err(ReadError(format!("posts/{name} has no _id")));
        }
        let date = |key: &str| {
            DateTime::parse_from_rfc3339(&text(key))
                .ok()
                .map(|d| d.with_timezone(&Utc))
        };
        let private = text("visibility").eq_ignore_ascii_case("private");
        let standing = match text("status").to_ascii_lowercase().as_str() {
            "published" if private => Standing::Private,
            "published" => Standing::Published,
            "scheduled" => Standing::Scheduled,
            _ => Standing::Draft,
        };
        let slug = text("slug");
        let found = Found::Entry(Box::new(Entry {
            slug: Some(slug.clone()).filter(|s| !s.is_empty()),
            blocks: post.get("blocks").and_then(Value::as_array).cloned(),
            standing,
            date: date("publishAt")
                .filter(|_| standing == Standing::Scheduled)
                .or_else(|| date("publishedAt"))
                .or_else(|| date("createdAt")),
            tags: post
                .get("tags")
                .and_then(Value::as_array)
                .map(|t| {
                    t.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            thumbnail: Some(text("thumbnail")).filter(|t| !t.is_empty()),
            subscribers_only: text("audience") == "subscribers",
            local_media: Some(dir.join("posts").join(&slug).join("media")),
            ..base_entry(id, text("title"))
        }));
        if !on(found) {
            break;
        }
    }
    Ok(())
}

/// Reads a fetched feed: every entry arrives as a draft with its address kept.
pub fn read_feed(
    bytes: &[u8],
    address: &str,
    on: &mut dyn FnMut(Found) -> bool,
) -> Result<(), ReadError> {
    let read = feed::read_feed(bytes, Some(address))?;
    for entry in read.entries {
        let found = Found::Entry(Box::new(Entry {
            html: entry.html,
            standing: Standing::Draft,
            date: entry.published,
            tags: entry.tags,
            url: entry.url,
            ..base_entry(entry.source_id, entry.title)
        }));
        if !on(found) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::import::fixture_path;
    use std::io::Write;

    fn collect(
        read: impl FnOnce(&mut dyn FnMut(Found) -> bool) -> Result<(), ReadError>,
    ) -> Vec<Found> {
        let mut out = Vec::new();
        read(&mut |f| {
            out.push(f);
            true
        })
        .unwrap();
        out
    }

    fn entries(found: &[Found]) -> Vec<&Entry> {
        found
            .iter()
            .filter_map(|f| match f {
                Found::Entry(e) => Some(e.as_ref()),
                Found::Skipped(_) => None,
            })
            .collect()
    }

    #[test]
    fn a_wordpress_export_gives_its_posts_and_pages_with_featured_images() {
        let found = collect(|on| read_wordpress(&fixture_path("wordpress/sample.xml"), on));
        let entries = entries(&found);
        assert!(entries.iter().any(|e| !e.page), "{entries:?}");
        assert!(entries
            .iter()
            .all(|e| !e.title.is_empty() || !e.source_id.is_empty()));
        // Every featured image named resolves to an attachment's address.
        assert!(entries
            .iter()
            .filter_map(|e| e.thumbnail.as_deref())
            .all(|t| t.starts_with("http")));
    }

    fn zip_of(files: &[(&str, &[u8])]) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().unwrap();
        let mut zip = zip::ZipWriter::new(file.reopen().unwrap());
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in files {
            zip.start_file(*name, options).unwrap();
            zip.write_all(bytes).unwrap();
        }
        zip.finish().unwrap();
        file
    }

    const LIMITS: ArchiveLimits = ArchiveLimits {
        max_bytes: 50_000_000,
        max_files: 100,
    };

    #[test]
    fn archives_with_paths_outside_their_folder_are_refused() {
        for name in ["../evil.txt", "/etc/evil", "a/../../evil"] {
            let zip = zip_of(&[(name, b"x")]);
            let into = tempfile::tempdir().unwrap();
            let err = unpack(zip.path(), into.path(), LIMITS).unwrap_err();
            assert!(err.0.contains("outside its folder"), "{name}: {err}");
            assert_eq!(std::fs::read_dir(into.path()).unwrap().count(), 0);
        }
    }

    #[test]
    fn a_zip_bomb_and_too_many_files_are_refused() {
        let zeros = vec![0u8; 30_000_000];
        let zip = zip_of(&[("posts/a.html", &zeros)]);
        let into = tempfile::tempdir().unwrap();
        let err = unpack(zip.path(), into.path(), LIMITS).unwrap_err();
        assert!(err.0.contains("zip bomb"), "{err}");
        let small = ArchiveLimits {
            max_bytes: 10,
            max_files: 100,
        };
        let zip = zip_of(&[("a.txt", b"0123456789abcdef")]);
        let err = unpack(zip.path(), into.path(), small).unwrap_err();
        assert!(err.0.contains("at most"), "{err}");
        let few = ArchiveLimits {
            max_bytes: 1000,
            max_files: 1,
        };
        let zip = zip_of(&[("a.txt", b"a"), ("b.txt", b"b")]);
        let err = unpack(zip.path(), into.path(), few).unwrap_err();
        assert!(err.0.contains("holds 2 files"), "{err}");
        let not_zip = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(not_zip.path(), b"<xml/>").unwrap();
        assert_eq!(
            unpack(not_zip.path(), into.path(), LIMITS).unwrap_err().0,
            "This is not a zip archive."
        );
    }

    #[test]
    fn a_medium_export_zipped_in_a_folder_gives_posts_and_skips_responses() {
        let dir = fixture_path("medium/posts");
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = format!(
                "medium-export/posts/{}",
                path.file_name().unwrap().to_string_lossy()
            );
            files.push((name, std::fs::read(&path).unwrap()));
        }
        let refs: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        let zip = zip_of(&refs);
        let into = tempfile::tempdir().unwrap();
        unpack(zip.path(), into.path(), LIMITS).unwrap();
        let found = collect(|on| read_medium(into.path(), on));
        assert_eq!(found.len(), files.len());
        assert!(found
            .iter()
            .any(|f| matches!(f, Found::Skipped(s) if s.contains("response"))));
        assert!(entries(&found)
            .iter()
            .any(|e| e.standing == Standing::Published && e.url.is_some()));
    }

    #[test]
    fn a_substack_export_gives_its_rows_with_audience_and_status() {
        let root = fixture_path("substack");
        let found = collect(|on| read_substack(&root, on));
        let entries = entries(&found);
        assert!(!entries.is_empty());
        assert!(entries.iter().any(|e| e.standing == Standing::Published));
        assert!(entries.iter().all(|e| !e.source_id.is_empty()));
    }
}
