//! The pictures of a post being written: every data URL among the thumbnail and the image
//! blocks decoded, checked and given its resized variants (on a blocking thread) before anything
//! is written, then stored in the media store with its `/media/` address put in place; a
//! `/media/` address already stored is adopted as one more use of that file.

use mongodb::bson::oid::ObjectId;
use serde_json::Value;

use crate::domain::blocks::{image_urls_mut, Block};
use crate::domain::image::{
    decode_data_url_with_variants, is_data_url, is_media_path, DecodedImage, MEDIA_URL_PREFIX,
};
use crate::domain::image_variants::{meta_of, record_in_file, ImageMeta};
use crate::error::{ApiError, ApiResult};
use crate::persistence::{media, Db};

/// Records the use of an already stored file; a `/media/` address that names no stored file is
/// refused.
async fn adopt(
    db: &Db,
    dir: &std::path::Path,
    address: &str,
    post_id: ObjectId,
    owner_id: ObjectId,
) -> ApiResult<()> {
    if media::adopt(db, dir, address, post_id, owner_id).await? {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "Image {address} does not exist; upload it again"
        )))
    }
}

/// Images waiting to be stored: every data URL among the thumbnail and image blocks, decoded,
/// checked and given their resized variants (on a blocking thread) before anything is written.
pub struct PendingImages {
    thumbnail: Option<DecodedImage>,
    blocks: Vec<Option<DecodedImage>>,
}

impl PendingImages {
    pub async fn decode(thumbnail: Option<&str>, blocks: &mut [Block]) -> ApiResult<Self> {
        let thumbnail = thumbnail.filter(|t| is_data_url(t)).map(str::to_string);
        let urls: Vec<Option<String>> = image_urls_mut(blocks)
            .into_iter()
            .map(|url| url.as_str().filter(|u| is_data_url(u)).map(str::to_string))
            .collect();
        if thumbnail.is_none() && urls.iter().all(Option::is_none) {
            return Ok(PendingImages {
                thumbnail: None,
                blocks: urls.into_iter().map(|_| None).collect(),
            });
        }
        tokio::task::spawn_blocking(move || {
            let thumbnail = thumbnail
                .as_deref()
                .map(decode_data_url_with_variants)
                .transpose()?;
            let mut decoded = Vec::with_capacity(urls.len());
            for url in &urls {
                decoded.push(
                    url.as_deref()
                        .map(decode_data_url_with_variants)
                        .transpose()?,
                );
            }
            Ok(PendingImages {
                thumbnail,
                blocks: decoded,
            })
        })
        .await
        .map_err(ApiError::internal)?
    }

    /// Stores the images for the post and puts their `/media/...` addresses in place, with the
    /// size and variants of each stored picture beside its address in image blocks
    /// (`file.width`, `file.height`, `file.variants`). Returns the thumbnail's size and variants
    /// when it is a stored picture.
    pub async fn store(
        self,
        db: &Db,
        dir: &std::path::Path,
        post_id: ObjectId,
        owner_id: ObjectId,
        thumbnail: &mut Option<String>,
        blocks: &mut [Block],
    ) -> ApiResult<Option<ImageMeta>> {
        let mut thumb_meta = None;
        if let Some(image) = self.thumbnail {
            let address = media::store(db, dir, &image, post_id, owner_id).await?;
            thumb_meta = Some(stored_meta(&address, &image));
            *thumbnail = Some(address);
        } else if let Some(address) = thumbnail.as_deref().filter(|t| is_media_path(t)) {
            adopt(db, dir, address, post_id, owner_id).await?;
            thumb_meta = media::meta_of(dir, address).await;
        }
        let files = image_files_mut(blocks);
        for (file, image) in files.into_iter().zip(self.blocks) {
            let meta = if let Some(image) = image {
                let address = media::store(db, dir, &image, post_id, owner_id).await?;
                Some(stored_meta(&address, &image))
            } else if let Some(address) = file
                .get("url")
                .and_then(Value::as_str)
                .filter(|u| is_media_path(u))
                .map(str::to_string)
            {
                adopt(db, dir, &address, post_id, owner_id).await?;
                media::meta_of(dir, &address).await
            } else {
                None
            };
            if let (Some(meta), Some(file)) = (meta, file.as_object_mut()) {
                record_in_file(file, &meta).map_err(ApiError::internal)?;
            }
        }
        Ok(thumb_meta)
    }
}

/// The `file` objects of the image blocks (`{"url": ...}`), in order.
fn image_files_mut(blocks: &mut [Block]) -> Vec<&mut Value> {
    blocks
        .iter_mut()
        .filter(|b| b.kind == "image")
        .filter_map(|b| b.data.get_mut("file"))
        .collect()
}

/// The size and variants of a picture just stored at `address`.
fn stored_meta(address: &str, image: &DecodedImage) -> ImageMeta {
    let name = address.strip_prefix(MEDIA_URL_PREFIX).unwrap_or(address);
    let made: Vec<_> = image.variants.iter().map(|v| (v.width, v.kind)).collect();
    meta_of(name, image.kind, image.width, image.height, &made)
}
