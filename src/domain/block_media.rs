//! The stored files a post's blocks and thumbnail show.

use super::blocks::Block;
use super::image::is_media_path;

/// Every address in the blocks that points into the media store.
pub fn media_paths(blocks: &[Block]) -> Vec<String> {
    blocks
        .iter()
        .filter(|b| b.kind == "image")
        .filter_map(|b| b.data.get("file")?.get("url")?.as_str())
        .filter(|u| is_media_path(u))
        .map(str::to_string)
        .collect()
}

/// The stored files a post with these blocks and thumbnail shows (addresses `/media/<name>`).
pub fn media_in_use(thumbnail: Option<&str>, blocks: &[Block]) -> Vec<String> {
    let mut used = media_paths(blocks);
    if let Some(t) = thumbnail.filter(|t| is_media_path(t)) {
        used.push(t.to_string());
    }
    used
}
