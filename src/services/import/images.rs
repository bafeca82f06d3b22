//! Bringing an import's images home: each address fetched (or, for a Pressroom export, read
//! from the archive) once per import, stored with its variants and used by the posts.

use std::collections::{HashMap, HashSet};

use futures_util::StreamExt;
use mongodb::bson::oid::ObjectId;

use super::fetch::{self, Wanted};
use super::source::Entry;
use crate::domain::image::{decode_bytes_with_variants, DecodedImage, MEDIA_URL_PREFIX};
use crate::domain::image_variants::{meta_of, ImageMeta};
use crate::persistence::media::{self, PostUse};
use crate::state::AppState;

/// One picture fetched and written for a post: its address, the post, and what it became (or
/// why not).
type Stored = (String, ObjectId, Result<(ImageMeta, PostUse), String>);

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

    /// Fetches (or reads) one picture and writes its files; its use is recorded after.
    async fn store(
        &self,
        address: &str,
        post_id: ObjectId,
        entry: &Entry,
        dir: &std::path::Path,
    ) -> Stored {
        let stored = match self.load(address, entry).await {
            Ok(image) => media::write_files(dir, &image)
                .await
                .map(|name| {
                    let made: Vec<_> = image.variants.iter().map(|v| (v.width, v.kind)).collect();
                    let meta = meta_of(&name, image.kind, image.width, image.height, &made);
                    let use_ = PostUse {
                        post_id,
                        file: name,
                        content_type: image.kind.content_type().to_string(),
                        size: i64::try_from(image.bytes.len()).unwrap_or(i64::MAX),
                    };
                    (meta, use_)
                })
                .map_err(|e| format!("{address} could not be stored ({e})")),
            Err(why) => Err(why),
        };
        (address.to_string(), post_id, stored)
    }

    /// Stores the pictures of `wanted` (an address, the post naming it and that post's entry)
    /// not seen yet, fetched and written a few at a time, each recorded with one write as used
    /// by the first post naming it; answers which post each new address was stored for.
    pub(super) async fn bring(
        &mut self,
        wanted: &[(String, ObjectId, &Entry)],
    ) -> HashMap<String, ObjectId> {
        let mut seen = HashSet::new();
        let new: Vec<&(String, ObjectId, &Entry)> = wanted
            .iter()
            .filter(|(a, _, _)| !self.done.contains_key(a) && seen.insert(a.as_str()))
            .collect();
        let at_once = self.state.settings.import.image_concurrency.max(1);
        let dir = self.state.settings.server.media_dir.clone();
        let this = &*self;
        // The futures are made first: a stream mapping borrowed items by a closure is not
        // known to be `Send` for every lifetime, which the worker's task needs.
        let work: Vec<_> = new
            .into_iter()
            .map(|(address, post_id, entry)| this.store(address, *post_id, entry, &dir))
            .collect();
        let loaded: Vec<Stored> = futures_util::stream::iter(work)
            .buffer_unordered(at_once)
            .collect()
            .await;
        let uses: Vec<&PostUse> = loaded
            .iter()
            .filter_map(|(_, _, r)| r.as_ref().ok().map(|(_, u)| u))
            .collect();
        let recorded = if uses.is_empty() {
            Ok(())
        } else {
            let uses: Vec<PostUse> = uses.into_iter().cloned().collect();
            media::record_post_uses(&self.state.db, &uses, self.owner).await
        };
        let mut stored_for = HashMap::new();
        for (address, post_id, stored) in loaded {
            let stored = match (stored, &recorded) {
                (Ok((meta, _)), Ok(())) => {
                    stored_for.insert(address.clone(), post_id);
                    Ok(meta)
                }
                (Ok(_), Err(e)) => Err(format!("{address} could not be stored ({e})")),
                (Err(why), _) => Err(why),
            };
            self.done.insert(address, stored);
        }
        stored_for
    }

    /// The stored picture for `address`, recorded as used by `post_id` (an address stored for an
    /// earlier post is adopted by this one too).
    pub(super) async fn use_for(
        &self,
        address: &str,
        post_id: ObjectId,
        stored_for: &HashMap<String, ObjectId>,
    ) -> Result<ImageMeta, String> {
        let meta = self
            .done
            .get(address)
            .cloned()
            .unwrap_or_else(|| Err(format!("{address} was not fetched")))?;
        if stored_for.get(address) != Some(&post_id) {
            let dir = &self.state.settings.server.media_dir;
            media::adopt(&self.state.db, dir, &meta.src, post_id, self.owner)
                .await
                .map_err(|e| format!("{address} could not be stored ({e})"))?;
        }
        Ok(meta)
    }
}
