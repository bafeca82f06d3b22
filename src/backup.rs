//! Backups of the whole database (and, optionally, the media directory) as one tar archive, and
//! their restore. The archive (format `pressroom-backup`, version 1) holds, in this order:
//!
//! - `dump/<database>/<collection>.bson`: the collection's documents, one BSON document after
//!   another (the layout `mongodump` writes, so `mongorestore --dir` reads an unpacked archive);
//! - `dump/<database>/<collection>.metadata.json`: `{"collectionName", "indexes": [...]}`, the
//!   index specifications as `listIndexes` gave them (relaxed extended JSON), as `mongodump`
//!   writes them;
//! - `media/<name>`: the stored uploads, when asked for;
//! - `pressroom-backup.json`, last: the manifest (format, version, database, time, and for each
//!   collection its document count and the SHA-256 of its two files; for each media file its
//!   size and SHA-256). An archive cut short has no manifest, or files that do not match it.
//!
//! A backup reads each collection through one cursor while the server keeps serving; it is
//! written next to the destination under a temporary name and renamed into place when complete,
//! so a failed backup never leaves a file that looks whole. A restore reads and checks the whole
//! archive before it writes anything, and refuses a database that holds documents unless forced.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use bson::{doc, Document, RawDocument, RawDocumentBuf};
use futures_util::TryStreamExt;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::persistence::Db;

/// The manifest's name inside the archive.
pub const MANIFEST: &str = "pressroom-backup.json";
/// The archive format's name and version.
pub const FORMAT: &str = "pressroom-backup";
pub const VERSION: u32 = 1;
/// Collections written last, so that a document written during the backup that names one of
/// theirs (a like of a post, a comment's author) finds it in the archive.
const REFERENCED_LAST: &[&str] = &["categories", "posts", "users"];
/// Documents inserted per batch when restoring (and at most this many bytes).
const RESTORE_BATCH: usize = 500;
const RESTORE_BATCH_BYTES: usize = 8 * 1024 * 1024;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    pub database: String,
    pub created_at: String,
    pub collections: Vec<CollectionEntry>,
    #[serde(default)]
    pub media: Vec<MediaEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CollectionEntry {
    pub name: String,
    pub documents: u64,
    pub indexes: usize,
    pub bson_sha256: String,
    pub metadata_sha256: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MediaEntry {
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Metadata {
    collection_name: String,
    indexes: Vec<serde_json::Value>,
}

/// Writes a backup of `db` (and of `media_dir`, when given) to `dest`.
pub async fn backup(db: &Db, dest: &Path, media_dir: Option<&Path>) -> anyhow::Result<Manifest> {
    let partial = partial_path(dest);
    let file = File::create(&partial).with_context(|| {
        format!(
            "cannot write the backup to {}: the place cannot be written",
            dest.display()
        )
    })?;
    let result = write_archive(db, file, media_dir).await;
    match result {
        Ok(manifest) => {
            std::fs::rename(&partial, dest)
                .with_context(|| format!("cannot move the backup into {}", dest.display()))?;
            Ok(manifest)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

fn partial_path(dest: &Path) -> PathBuf {
    let mut name = dest.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    dest.with_file_name(name)
}

async fn write_archive(db: &Db, file: File, media_dir: Option<&Path>) -> anyhow::Result<Manifest> {
    let database = db.database();
    let mut names: Vec<String> = database
        .list_collection_names()
        .await
        .context("listing the collections")?
        .into_iter()
        .filter(|n| !n.starts_with("system."))
        .collect();
    names.sort_by_key(|n| (REFERENCED_LAST.iter().position(|l| l == n), n.clone()));
    let mut tar = tar::Builder::new(BufWriter::new(file));
    let mut collections = Vec::new();
    for name in names {
        let indexes = list_indexes(db, &name).await?;
        let mut bson = Vec::new();
        let mut documents = 0u64;
        let mut cursor = database
            .collection::<RawDocumentBuf>(&name)
            .find(doc! {})
            .await
            .with_context(|| format!("reading {name}"))?;
        while let Some(document) = cursor
            .try_next()
            .await
            .with_context(|| format!("reading {name}"))?
        {
            bson.extend_from_slice(document.as_bytes());
            documents += 1;
        }
        let metadata = serde_json::to_vec_pretty(&Metadata {
            collection_name: name.clone(),
            indexes: indexes.clone(),
        })?;
        let dir = format!("dump/{}", database.name());
        append(&mut tar, &format!("{dir}/{name}.bson"), &bson)?;
        append(&mut tar, &format!("{dir}/{name}.metadata.json"), &metadata)?;
        collections.push(CollectionEntry {
            name,
            documents,
            indexes: indexes.len(),
            bson_sha256: sha256(&bson),
            metadata_sha256: sha256(&metadata),
        });
    }
    let mut media = Vec::new();
    if let Some(dir) = media_dir {
        let mut files: Vec<_> = match std::fs::read_dir(dir) {
            Ok(entries) => entries.filter_map(Result::ok).collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e).context(format!("reading {}", dir.display())),
        };
        files.sort_by_key(std::fs::DirEntry::file_name);
        for entry in files {
            if !entry.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let bytes = std::fs::read(entry.path())
                .with_context(|| format!("reading {}", entry.path().display()))?;
            append(&mut tar, &format!("media/{name}"), &bytes)?;
            media.push(MediaEntry {
                name,
                bytes: bytes.len() as u64,
                sha256: sha256(&bytes),
            });
        }
    }
    let manifest = Manifest {
        format: FORMAT.into(),
        version: VERSION,
        database: database.name().to_owned(),
        created_at: chrono::Utc::now().to_rfc3339(),
        collections,
        media,
    };
    append(&mut tar, MANIFEST, &serde_json::to_vec_pretty(&manifest)?)?;
    let mut out = tar.into_inner().context("finishing the archive")?;
    out.flush().context("writing the archive")?;
    out.into_inner()
        .map_err(|e| e.into_error())
        .context("writing the archive")?
        .sync_all()
        .context("writing the archive")?;
    Ok(manifest)
}

/// The collection's index specifications as the server lists them, in relaxed extended JSON.
async fn list_indexes(db: &Db, name: &str) -> anyhow::Result<Vec<serde_json::Value>> {
    let answer = db
        .database()
        .run_command(doc! { "listIndexes": name })
        .await
        .with_context(|| format!("listing the indexes of {name}"))?;
    let batch = answer
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .with_context(|| format!("listing the indexes of {name}: an unexpected answer"))?;
    Ok(batch
        .iter()
        .map(|spec| spec.clone().into_relaxed_extjson())
        .collect())
}

fn append<W: Write>(tar: &mut tar::Builder<W>, path: &str, data: &[u8]) -> anyhow::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(data.len() as u64);
    header.set_mode(0o644);
    header.set_mtime(u64::try_from(chrono::Utc::now().timestamp()).unwrap_or(0));
    tar.append_data(&mut header, path, data)
        .with_context(|| format!("writing {path} into the archive"))
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Splits a `.bson` file into its documents, checking each one's framing and structure.
fn documents(bytes: &[u8]) -> anyhow::Result<Vec<&RawDocument>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let Some(head) = bytes.get(at..at + 4) else {
            bail!("a document is cut short at byte {at}");
        };
        let len = i32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let len = usize::try_from(len).unwrap_or(0);
        let Some(raw) = bytes.get(at..at + len).filter(|_| len >= 5) else {
            bail!("a document is cut short at byte {at}");
        };
        let document = RawDocument::from_bytes(raw)
            .map_err(|e| anyhow::anyhow!("a document at byte {at} is not BSON: {e}"))?;
        // Every element must read back, not only the framing.
        for element in document {
            element.map_err(|e| anyhow::anyhow!("a document at byte {at} is not BSON: {e}"))?;
        }
        out.push(document);
        at += len;
    }
    Ok(out)
}

/// An archive read and checked against its manifest.
struct Checked {
    manifest: Manifest,
    /// Per collection: its `.bson` bytes and its index specifications.
    collections: BTreeMap<String, (Vec<u8>, Vec<Document>)>,
    media: BTreeMap<String, Vec<u8>>,
}

/// Reads the whole archive and checks it: a tar archive whose manifest is ours, every file the
/// manifest names present with its checksum, every collection's documents readable and as
/// many as the manifest says.
fn check(path: &Path) -> anyhow::Result<Checked> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let not_ours = || {
        format!(
            "{} is not a complete Pressroom backup (a tar archive written by `backup`)",
            path.display()
        )
    };
    let mut archive = tar::Archive::new(BufReader::new(file));
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for entry in archive.entries().with_context(not_ours)? {
        let mut entry = entry.with_context(not_ours)?;
        let name = entry
            .path()
            .with_context(not_ours)?
            .to_string_lossy()
            .into_owned();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).with_context(not_ours)?;
        files.insert(name, bytes);
    }
    let manifest: Manifest = files
        .get(MANIFEST)
        .and_then(|m| serde_json::from_slice(m).ok())
        .ok_or_else(|| anyhow::anyhow!("{}: its manifest is missing", not_ours()))?;
    if manifest.format != FORMAT || manifest.version != VERSION {
        bail!(
            "{}: format {} version {} is not {FORMAT} version {VERSION}",
            not_ours(),
            manifest.format,
            manifest.version
        );
    }
    let dir = format!("dump/{}", manifest.database);
    let mut collections = BTreeMap::new();
    for entry in &manifest.collections {
        let bson_name = format!("{dir}/{}.bson", entry.name);
        let metadata_name = format!("{dir}/{}.metadata.json", entry.name);
        let (Some(bson), Some(metadata)) = (files.get(&bson_name), files.get(&metadata_name))
        else {
            bail!("{}: {} is missing", not_ours(), entry.name);
        };
        if sha256(bson) != entry.bson_sha256 || sha256(metadata) != entry.metadata_sha256 {
            bail!("{}: {} does not match its checksum", not_ours(), entry.name);
        }
        let count = documents(bson)
            .with_context(|| format!("{}: in {}", not_ours(), entry.name))?
            .len() as u64;
        if count != entry.documents {
            bail!(
                "{}: {} holds {count} documents, the manifest says {}",
                not_ours(),
                entry.name,
                entry.documents
            );
        }
        let metadata: Metadata = serde_json::from_slice(metadata)
            .with_context(|| format!("{}: the indexes of {}", not_ours(), entry.name))?;
        let indexes = metadata
            .indexes
            .into_iter()
            .map(|v| match bson::Bson::try_from(v) {
                Ok(bson::Bson::Document(d)) => Ok(d),
                _ => Err(anyhow::anyhow!(
                    "{}: an index of {} is not a document",
                    not_ours(),
                    entry.name
                )),
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        collections.insert(entry.name.clone(), (bson.clone(), indexes));
    }
    let mut media = BTreeMap::new();
    for entry in &manifest.media {
        let name = format!("media/{}", entry.name);
        let bytes = files
            .get(&name)
            .filter(|b| sha256(b) == entry.sha256)
            .ok_or_else(|| {
                anyhow::anyhow!("{}: media {} is missing or damaged", not_ours(), entry.name)
            })?;
        if entry.name.contains('/') || entry.name.starts_with('.') {
            bail!(
                "{}: media name {} is not a plain file name",
                not_ours(),
                entry.name
            );
        }
        media.insert(entry.name.clone(), bytes.clone());
    }
    Ok(Checked {
        manifest,
        collections,
        media,
    })
}

/// What a restore did.
#[derive(Debug, Clone)]
pub struct Restored {
    pub collections: usize,
    pub documents: u64,
    pub media: usize,
}

/// Restores the archive at `path` into `db` (and its media into `media_dir`). The archive is
/// read and checked completely first; a database that holds any document is refused unless
/// `force` (then its collections are dropped first). Nothing is written on any refusal.
pub async fn restore(
    db: &Db,
    path: &Path,
    media_dir: &Path,
    force: bool,
) -> anyhow::Result<Restored> {
    let checked = check(path)?;
    let database = db.database();
    let existing: Vec<String> = database
        .list_collection_names()
        .await
        .context("listing the collections of the target database")?
        .into_iter()
        .filter(|n| !n.starts_with("system."))
        .collect();
    let mut holding = Vec::new();
    for name in &existing {
        let any = database
            .collection::<RawDocumentBuf>(name)
            .find_one(doc! {})
            .await
            .with_context(|| format!("reading {name} in the target database"))?;
        if any.is_some() {
            holding.push(name.clone());
        }
    }
    if !holding.is_empty() && !force {
        bail!(
            "the database {} is not empty ({} hold documents); restore into an empty database, or add --force to replace everything in it",
            database.name(),
            holding.join(", ")
        );
    }
    for name in &existing {
        database
            .collection::<Document>(name)
            .drop()
            .await
            .with_context(|| format!("dropping {name} in the target database"))?;
    }
    let mut documents = 0u64;
    for (name, (bson, indexes)) in &checked.collections {
        let specs: Vec<Document> = indexes
            .iter()
            .filter(|spec| spec.get_str("name").is_ok_and(|n| n != "_id_"))
            .map(|spec| {
                let mut spec = spec.clone();
                spec.remove("v");
                spec.remove("ns");
                spec
            })
            .collect();
        database
            .create_collection(name)
            .await
            .with_context(|| format!("creating {name}"))?;
        if !specs.is_empty() {
            database
                .run_command(doc! { "createIndexes": name.as_str(), "indexes": specs })
                .await
                .with_context(|| format!("creating the indexes of {name}"))?;
        }
        let collection = database.collection::<RawDocumentBuf>(name);
        let mut batch: Vec<RawDocumentBuf> = Vec::new();
        let mut batch_bytes = 0;
        for document in documents_of(bson)? {
            batch_bytes += document.as_bytes().len();
            batch.push(document.to_raw_document_buf());
            if batch.len() >= RESTORE_BATCH || batch_bytes >= RESTORE_BATCH_BYTES {
                documents += batch.len() as u64;
                collection
                    .insert_many(std::mem::take(&mut batch))
                    .await
                    .with_context(|| format!("writing {name}"))?;
                batch_bytes = 0;
            }
        }
        if !batch.is_empty() {
            documents += batch.len() as u64;
            collection
                .insert_many(batch)
                .await
                .with_context(|| format!("writing {name}"))?;
        }
    }
    if !checked.media.is_empty() {
        std::fs::create_dir_all(media_dir)
            .with_context(|| format!("creating {}", media_dir.display()))?;
        for (name, bytes) in &checked.media {
            std::fs::write(media_dir.join(name), bytes)
                .with_context(|| format!("writing {}", media_dir.join(name).display()))?;
        }
    }
    Ok(Restored {
        collections: checked.manifest.collections.len(),
        documents,
        media: checked.media.len(),
    })
}

fn documents_of(bson: &[u8]) -> anyhow::Result<Vec<&RawDocument>> {
    documents(bson)
}

/// Every document of every collection in the archive at `path`, as `(collection, documents)`,
/// after the same checks as a restore (for comparing a restore with its backup).
pub fn read_archive(path: &Path) -> anyhow::Result<BTreeMap<String, Vec<Document>>> {
    let checked = check(path)?;
    let mut out = BTreeMap::new();
    for (name, (bson, _)) in &checked.collections {
        let docs = documents(bson)?
            .into_iter()
            .map(|d| Document::try_from(d).map_err(anyhow::Error::from))
            .collect::<anyhow::Result<Vec<_>>>()?;
        out.insert(name.clone(), docs);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bson_file_splits_into_its_documents_and_a_cut_one_is_refused() {
        let mut bytes = Vec::new();
        for i in 0..3 {
            bytes.extend_from_slice(bson::to_vec(&doc! { "i": i }).unwrap().as_slice());
        }
        assert_eq!(documents(&bytes).unwrap().len(), 3);
        let cut = &bytes[..bytes.len() - 2];
        assert!(documents(cut)
            .unwrap_err()
            .to_string()
            .contains("cut short"));
        assert!(documents(&[1, 2, 3]).is_err());
    }
}
