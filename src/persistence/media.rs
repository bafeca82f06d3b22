//! The media store: image files in `server.media_dir`, named by their content, and the `media`
//! collection recording which post or avatar uses which file (so a file is removed when its last
//! user is).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime};
use mongodb::Collection;
use serde::{Deserialize, Serialize};

use super::{index, is_duplicate_key, now, Db, DbContext, DbError, DbResult};
use crate::domain::image::{
    is_media_name, is_media_path, is_variant_name, DecodedImage, ImageKind, MEDIA_URL_PREFIX,
};
use crate::domain::image_variants::{make, meta_of as meta_from, planned, variant_name, ImageMeta};

pub const COLLECTION: &str = "media";

/// What uses a stored file: a post (its thumbnail and image blocks) or a user's avatar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaUse {
    Post(ObjectId),
    Avatar(ObjectId),
}

impl MediaUse {
    /// `{postId}:{file}` or `avatar:{userId}:{file}`: one record per use, unique without a
    /// secondary index.
    fn ref_id(self, file: &str) -> String {
        match self {
            MediaUse::Post(post) => format!("{}:{file}", post.to_hex()),
            MediaUse::Avatar(user) => format!("avatar:{}:{file}", user.to_hex()),
        }
    }

    /// The records of this use.
    fn filter(self) -> mongodb::bson::Document {
        match self {
            MediaUse::Post(post) => doc! { "postId": post },
            MediaUse::Avatar(user) => doc! { "avatarOf": user },
        }
    }
}

/// One use of a stored file by a post or as an avatar.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaRef {
    /// See [`MediaUse::ref_id`].
    #[serde(rename = "_id")]
    pub id: String,
    /// File name inside the media directory.
    pub file: String,
    /// The post using the file (absent for an avatar).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_id: Option<ObjectId>,
    /// The user whose avatar the file is (absent for a post's file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avatar_of: Option<ObjectId>,
    pub owner_id: ObjectId,
    pub content_type: String,
    pub size: i64,
    pub created_at: DateTime,
}

impl MediaRef {
    /// The record of `user`'s use of the stored `file`.
    fn of(
        user: MediaUse,
        file: &str,
        owner_id: ObjectId,
        content_type: &str,
        size: i64,
        created_at: DateTime,
    ) -> MediaRef {
        let (post_id, avatar_of) = match user {
            MediaUse::Post(post) => (Some(post), None),
            MediaUse::Avatar(user) => (None, Some(user)),
        };
        MediaRef {
            id: user.ref_id(file),
            file: file.to_string(),
            post_id,
            avatar_of,
            owner_id,
            content_type: content_type.to_string(),
            size,
            created_at,
        }
    }
}

fn collection(db: &Db) -> Collection<MediaRef> {
    db.database().collection(COLLECTION)
}

/// Lookups by post, by avatar and by file (the `_id` keeps one record per use).
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let by_file = index(doc! { "file": 1 }, "file");
    let by_post = index(doc! { "postId": 1 }, "post");
    let by_avatar = index(doc! { "avatarOf": 1 }, "avatar");
    super::create_indexes(
        &collection(db),
        [by_file, by_post, by_avatar],
        "creating media indexes",
    )
    .await?;
    Ok(())
}

/// Records one use of a stored file (a repeat is harmless).
async fn record_use(
    db: &Db,
    user: MediaUse,
    file: &str,
    owner_id: ObjectId,
    content_type: &str,
    size: i64,
) -> DbResult<()> {
    let record = MediaRef::of(user, file, owner_id, content_type, size, now());
    match collection(db).insert_one(&record).await {
        Ok(_) => Ok(()),
        // Already recorded.
        Err(e) if is_duplicate_key(&e) => Ok(()),
        Err(e) => Err(e).db_context("recording a media file"),
    }
}

/// Writes an image into the media directory (once per content) and records its use by a post.
/// Returns the address it is served from.
pub async fn store(
    db: &Db,
    dir: &Path,
    image: &DecodedImage,
    post_id: ObjectId,
    owner_id: ObjectId,
) -> DbResult<String> {
    store_for(db, dir, image, MediaUse::Post(post_id), owner_id).await
}

/// Writes an image into the media directory (once per content) and records its use. Returns
/// the address it is served from.
pub async fn store_for(
    db: &Db,
    dir: &Path,
    image: &DecodedImage,
    user: MediaUse,
    owner_id: ObjectId,
) -> DbResult<String> {
    let name = write_files(dir, image).await?;
    let size = i64::try_from(image.bytes.len()).unwrap_or(i64::MAX);
    record_use(db, user, &name, owner_id, image.kind.content_type(), size).await?;
    Ok(format!("{MEDIA_URL_PREFIX}{name}"))
}

/// Writes an image and its variants into the media directory (once per content) without
/// recording a use; answers the file's name. [`record_post_uses`] records its uses after.
pub async fn write_files(dir: &Path, image: &DecodedImage) -> DbResult<String> {
    let name = image.file_name();
    let path = dir.join(&name);
    // Variants first: once the original is there, its variants are too (a failure leaves at
    // most unused variant files, which the next store of the same picture reuses).
    for v in &image.variants {
        let Some(vname) = variant_name(&name, v.width, v.kind) else {
            continue;
        };
        let vpath = dir.join(&vname);
        if !tokio::fs::try_exists(&vpath).await.unwrap_or(false) {
            write_atomically(dir, &vpath, &v.bytes).await.map_err(|e| {
                DbError::Other(anyhow::Error::new(e).context("writing a media variant"))
            })?;
        }
    }
    if !tokio::fs::try_exists(&path).await.unwrap_or(false) {
        write_atomically(dir, &path, &image.bytes)
            .await
            .map_err(|e| DbError::Other(anyhow::Error::new(e).context("writing a media file")))?;
    }
    Ok(name)
}

/// One use by a post of a file [`write_files`] wrote.
#[derive(Debug, Clone)]
pub struct PostUse {
    pub post_id: ObjectId,
    pub file: String,
    pub content_type: String,
    pub size: i64,
}

/// Records many posts' uses of stored files with one write (a repeat is harmless).
pub async fn record_post_uses(db: &Db, uses: &[PostUse], owner_id: ObjectId) -> DbResult<()> {
    let at = now();
    let records: Vec<MediaRef> = uses
        .iter()
        .map(|u| {
            let user = MediaUse::Post(u.post_id);
            MediaRef::of(user, &u.file, owner_id, &u.content_type, u.size, at)
        })
        .collect();
    super::insert_new(&collection(db), &records, "recording media files").await?;
    Ok(())
}

async fn write_atomically(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    tokio::fs::create_dir_all(dir).await?;
    let tmp = dir.join(format!(".{}.tmp", ObjectId::new().to_hex()));
    tokio::fs::write(&tmp, bytes).await?;
    tokio::fs::rename(&tmp, path).await
}

/// Releases a post's uses of files not in `keep` (addresses such as `/media/<name>`), and
/// removes files no post uses any more.
pub async fn release_unused(
    db: &Db,
    dir: &Path,
    post_id: ObjectId,
    keep: &[String],
) -> DbResult<()> {
    release_unused_by(db, dir, MediaUse::Post(post_id), keep).await
}

/// Releases the uses of files not in `keep` by a post or an avatar, and removes files nothing
/// uses any more.
pub async fn release_unused_by(
    db: &Db,
    dir: &Path,
    user: MediaUse,
    keep: &[String],
) -> DbResult<()> {
    let keep: HashSet<&str> = keep
        .iter()
        .filter_map(|u| u.strip_prefix(MEDIA_URL_PREFIX))
        .collect();
    let refs: Vec<MediaRef> = collection(db)
        .find(user.filter())
        .await
        .db_context("loading a post's media")?
        .try_collect()
        .await
        .db_context("reading a post's media")?;
    for r in refs.into_iter().filter(|r| !keep.contains(r.file.as_str())) {
        collection(db)
            .delete_one(doc! { "_id": &r.id })
            .await
            .db_context("releasing a media file")?;
        remove_if_unused(db, dir, &r.file).await?;
    }
    Ok(())
}

async fn remove_if_unused(db: &Db, dir: &Path, file: &str) -> DbResult<()> {
    let users = collection(db)
        .count_documents(doc! { "file": file })
        .await
        .db_context("counting a media file's users")?;
    if users == 0 && is_media_name(file) {
        // The variants go with their original (named from its size, read before it goes).
        let mut doomed = variant_files(dir, file).await;
        doomed.push(file.to_string());
        for name in doomed {
            if let Err(e) = tokio::fs::remove_file(dir.join(&name)).await {
                if e.kind() != std::io::ErrorKind::NotFound {
                    tracing::warn!(error = %e, file = name, "could not remove a media file");
                }
            }
        }
    }
    Ok(())
}

/// The names of the variants a stored file may have (existing or not).
async fn variant_files(dir: &Path, file: &str) -> Vec<String> {
    let Some(kind) = file
        .rsplit_once('.')
        .and_then(|(_, ext)| ImageKind::from_ext(ext))
    else {
        return Vec::new();
    };
    let path = dir.join(file);
    let Ok(Ok((width, _))) =
        tokio::task::spawn_blocking(move || image::image_dimensions(path)).await
    else {
        return Vec::new();
    };
    planned(kind, width)
        .into_iter()
        .filter_map(|(w, k)| variant_name(file, w, k))
        .collect()
}

/// What the media directory holds for the address `/media/<name>`: the picture's size (read
/// from its header) and the planned variants that exist as files. `None` for any other address
/// or a missing or unreadable file. It reads the disk: in a request, call it through
/// `spawn_blocking` ([`meta_of`]).
pub fn meta_on_disk(dir: &Path, address: &str) -> Option<ImageMeta> {
    if !is_media_path(address) {
        return None;
    }
    let name = address.strip_prefix(MEDIA_URL_PREFIX)?;
    let kind = name
        .rsplit_once('.')
        .and_then(|(_, ext)| ImageKind::from_ext(ext))?;
    let (width, height) = image::image_dimensions(dir.join(name)).ok()?;
    let made: Vec<(u32, ImageKind)> = planned(kind, width)
        .into_iter()
        .filter(|&(w, k)| variant_name(name, w, k).is_some_and(|v| dir.join(v).is_file()))
        .collect();
    Some(meta_from(name, kind, width, height, &made))
}

/// A stored picture's size and existing variants (`None` for an address outside the store or a
/// missing file).
pub async fn meta_of(dir: &Path, address: &str) -> Option<ImageMeta> {
    let dir = dir.to_path_buf();
    let address = address.to_string();
    tokio::task::spawn_blocking(move || meta_on_disk(&dir, &address))
        .await
        .ok()
        .flatten()
}

/// The path of a file to serve: a stored file or one of its variants.
pub async fn servable_file(dir: &Path, name: &str) -> Option<PathBuf> {
    if is_variant_name(name) {
        let path = dir.join(name);
        return tokio::fs::metadata(&path)
            .await
            .ok()
            .filter(|m| m.is_file())
            .map(|_| path);
    }
    stored_file(dir, name).await
}

/// What [`backfill_variants`] did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Backfill {
    /// Stored pictures looked at.
    pub files: usize,
    /// Variant files written.
    pub written: usize,
    /// Pictures that could not be read (left as they are).
    pub failed: usize,
}

/// Makes the missing variants of every picture in the media directory (files stored before
/// variants were made, or whose variants were lost). Pictures are read one at a time.
pub async fn backfill_variants(dir: &Path) -> std::io::Result<Backfill> {
    let mut report = Backfill::default();
    let mut entries = match tokio::fs::read_dir(dir).await {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(report),
        Err(e) => return Err(e),
    };
    while let Some(entry) = entries.next_entry().await? {
        let name = entry.file_name().to_string_lossy().to_string();
        if !is_media_name(&name) {
            continue;
        }
        report.files += 1;
        let dir2 = dir.to_path_buf();
        let made = tokio::task::spawn_blocking(move || missing_variants(&dir2, &name)).await;
        match made {
            Ok(Ok(variants)) => {
                for (vname, bytes) in variants {
                    write_atomically(dir, &dir.join(&vname), &bytes).await?;
                    report.written += 1;
                }
            }
            _ => report.failed += 1,
        }
    }
    Ok(report)
}

/// What [`record_post_images`] did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PostImages {
    /// Posts looked at.
    pub posts: usize,
    /// Posts whose pictures' sizes or variants were recorded.
    pub updated: usize,
}

/// Records in each post the size and variants of its stored pictures (the thumbnail's
/// `thumbnailImage`, an image block's `file`) where they are missing or fewer than the media
/// directory now holds: posts saved before variants were made (or before [`backfill_variants`]
/// made them) then get the same `srcset` from the app as from the server's pages. Posts are
/// read one at a time; each changed post is written once, through the write observer.
pub async fn record_post_images(db: &Db, dir: &Path) -> DbResult<PostImages> {
    use crate::domain::image_variants::record_in_file;
    let mut report = PostImages::default();
    let mut cursor = super::posts::stream_all(db).await?;
    while let Some(mut post) = cursor.try_next().await.db_context("reading posts")? {
        report.posts += 1;
        let mut set = mongodb::bson::Document::new();
        if let Some(address) = post.thumbnail.as_deref().filter(|t| is_media_path(t)) {
            let known = post.thumbnail_image.as_ref();
            if let Some(meta) = meta_of(dir, address).await.filter(|m| Some(m) != known) {
                set.insert(
                    "thumbnailImage",
                    mongodb::bson::to_bson(&meta).map_err(|e| DbError::Other(e.into()))?,
                );
            }
        }
        let mut blocks_changed = false;
        for block in post.blocks.iter_mut().filter(|b| b.kind == "image") {
            let Some(file) = block.data.get_mut("file").and_then(|f| f.as_object_mut()) else {
                continue;
            };
            let Some(address) = file
                .get("url")
                .and_then(|u| u.as_str())
                .filter(|u| is_media_path(u))
                .map(str::to_string)
            else {
                continue;
            };
            let Some(meta) = meta_of(dir, &address).await else {
                continue;
            };
            let recorded = (
                file.get("width").and_then(|w| w.as_u64()),
                file.get("height").and_then(|h| h.as_u64()),
                file.get("variants").cloned(),
            );
            let on_disk = (
                Some(u64::from(meta.width)),
                Some(u64::from(meta.height)),
                serde_json::to_value(&meta.variants).ok(),
            );
            if recorded != on_disk {
                record_in_file(file, &meta).map_err(|e| DbError::Other(e.into()))?;
                blocks_changed = true;
            }
        }
        if blocks_changed {
            set.insert(
                "blocks",
                mongodb::bson::to_bson(&crate::domain::blocks::storage::stored(&post.blocks))
                    .map_err(|e| DbError::Other(e.into()))?,
            );
        }
        if !set.is_empty() {
            super::posts::update_returning_before(db, post.id, set).await?;
            report.updated += 1;
        }
    }
    Ok(report)
}

/// The variants a stored picture lacks, made from its file: `(file name, bytes)`.
fn missing_variants(dir: &Path, name: &str) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let kind = name
        .rsplit_once('.')
        .and_then(|(_, ext)| ImageKind::from_ext(ext))
        .ok_or_else(|| anyhow::anyhow!("not a stored picture"))?;
    let (width, _) = image::image_dimensions(dir.join(name))?;
    let missing: Vec<(u32, ImageKind)> = planned(kind, width)
        .into_iter()
        .filter(|&(w, k)| variant_name(name, w, k).is_some_and(|v| !dir.join(v).is_file()))
        .collect();
    if missing.is_empty() {
        return Ok(Vec::new());
    }
    let picture = image::ImageReader::open(dir.join(name))?
        .with_guessed_format()?
        .decode()?;
    Ok(make(kind, &picture)?
        .into_iter()
        .filter(|v| missing.contains(&(v.width, v.kind)))
        .filter_map(|v| Some((variant_name(name, v.width, v.kind)?, v.bytes)))
        .collect())
}

/// The path of a stored file, if the name is one the store makes and the file exists.
pub async fn stored_file(dir: &Path, name: &str) -> Option<PathBuf> {
    if !is_media_name(name) {
        return None;
    }
    let path = dir.join(name);
    tokio::fs::metadata(&path)
        .await
        .ok()
        .filter(|m| m.is_file())
        .map(|_| path)
}

/// Records a post's use of a file already in the store (an address such as `/media/<name>` kept
/// or copied into a post). Returns false when no such file is stored.
pub async fn adopt(
    db: &Db,
    dir: &Path,
    address: &str,
    post_id: ObjectId,
    owner_id: ObjectId,
) -> DbResult<bool> {
    adopt_for(db, dir, address, MediaUse::Post(post_id), owner_id).await
}

/// Records a use of a file already in the store by a post or as an avatar. Returns false when
/// no such file is stored.
pub async fn adopt_for(
    db: &Db,
    dir: &Path,
    address: &str,
    user: MediaUse,
    owner_id: ObjectId,
) -> DbResult<bool> {
    let Some(name) = address.strip_prefix(MEDIA_URL_PREFIX) else {
        return Ok(false);
    };
    let Some(path) = stored_file(dir, name).await else {
        return Ok(false);
    };
    let size = tokio::fs::metadata(&path)
        .await
        .map(|m| i64::try_from(m.len()).unwrap_or(i64::MAX))
        .unwrap_or(0);
    let content_type = name
        .rsplit_once('.')
        .and_then(|(_, ext)| crate::domain::image::ImageKind::from_ext(ext))
        .map(|k| k.content_type())
        .unwrap_or("application/octet-stream");
    record_use(db, user, name, owner_id, content_type, size).await?;
    Ok(true)
}
