//! Bringing an import's images home: each address fetched (or, for a Pressroom export, read
//! from the archive) once per import, stored with its variants and used by the posts.

use std::collections::{HashMap, HashSet};

use futures_util::StreamExt;
use mongodb::bson::oid::ObjectId;

use super::fetch::{self, Wanted};
use super::source::Entry;
use crate::domain::image::{decode_bytes_with_variants, DecodedImage, MEDIA_URL_PREFIX};
use crate::domain::image_variants::{meta_of, ImageMeta};
use crate::persistence::media;
use crate::state::AppState;

/// Brings an entry's images home: each address is fetched (or, for a Pressroom export, read
/// from the archive) once per import, stored with its variants and used by the post.
pub(super) struct Images<'a> {
    pub(super) state: &'a AppState,
    pub(super) owner: ObjectId,
    /// Addresses already stored (what they became), or that failed (why).
    pub(super) done: HashMap<String, Result<ImageMeta, String>>,
}

impl Images<'_> {
    /// The absolute address of `raw` as the entry wrote it, or `None` for what is not fetched.
    pub(super) fn absolute(raw: &str, entry: &Entry) -> Option<String> {
        let raw = raw.trim();
        if raw.starts_with("data:") || raw.is_empty() {
            return None;
        }
        if raw.starts_with(MEDIA_URL_PREFIX) && entry.local_media.is_some() {
            return Some(raw.to_string());
        }
        if raw.starts_with("//") {
            return Some(format!("https:{raw}"));
        }
        if raw.starts_with("http://") || raw.starts_with("https://") {
            return Some(raw.to_string());
        }
        let base = reqwest::Url::parse(entry.url.as_deref()?).ok()?;
        base.join(raw).ok().map(|u| u.to_string())
    }

    async fn load(&self, address: &str, entry: &Entry) -> Result<DecodedImage, String> {
        let settings = &self.state.settings.import;
        let bytes = match (address.strip_prefix(MEDIA_URL_PREFIX), &entry.local_media) {
            (Some(name), Some(dir)) => {
                if name.contains('/') || name.contains("..") {
                    return Err(format!("{address} is not a file of the archive"));
                }
                tokio::fs::read(dir.join(name))
                    .await
                    .map_err(|_| format!("{address} is not in the archive"))?
            }
            _ => {
                fetch::fetch(settings, address, Wanted::Image, settings.max_image_bytes)
                    .await?
                    .bytes
            }
        };
        tokio::task::spawn_blocking(move || decode_bytes_with_variants(bytes))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| format!("{address} is not an image that can be used ({e})"))
    }

    /// Stores the images of `addresses` not seen yet (fetched a few at a time).
    pub(super) async fn bring(&mut self, post_id: ObjectId, addresses: &[String], entry: &Entry) {
        let new: Vec<String> = addresses
            .iter()
            .filter(|a| !self.done.contains_key(*a))
            .cloned()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        let at_once = self.state.settings.import.image_concurrency.max(1);
        let this = &*self;
        let loaded: Vec<(String, Result<DecodedImage, String>)> = futures_util::stream::iter(new)
            .map(|address| async move {
                let image = this.load(&address, entry).await;
                (address, image)
            })
            .buffer_unordered(at_once)
            .collect()
            .await;
        let dir = self.state.settings.server.media_dir.clone();
        for (address, image) in loaded {
            let stored = match image {
                Ok(image) => {
                    match media::store(&self.state.db, &dir, &image, post_id, self.owner).await {
                        Ok(src) => {
                            let name = src.strip_prefix(MEDIA_URL_PREFIX).unwrap_or(&src);
                            let made: Vec<_> =
                                image.variants.iter().map(|v| (v.width, v.kind)).collect();
                            Ok(meta_of(name, image.kind, image.width, image.height, &made))
                        }
                        Err(e) => Err(format!("{address} could not be stored ({e})")),
                    }
                }
                Err(why) => Err(why),
            };
            self.done.insert(address, stored);
        }
    }

    /// The stored picture for `address`, recorded as used by `post_id` (an address stored for an
    /// earlier post is adopted by this one too).
    pub(super) async fn use_for(
        &self,
        address: &str,
        post_id: ObjectId,
        fresh: &HashSet<String>,
    ) -> Result<ImageMeta, String> {
        let meta = self
            .done
            .get(address)
            .cloned()
            .unwrap_or_else(|| Err(format!("{address} was not fetched")))?;
        if !fresh.contains(address) {
            let dir = &self.state.settings.server.media_dir;
            media::adopt(&self.state.db, dir, &meta.src, post_id, self.owner)
                .await
                .map_err(|e| format!("{address} could not be stored ({e})"))?;
        }
        Ok(meta)
    }
}
