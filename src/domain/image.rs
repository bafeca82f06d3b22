//! Images that arrive as base64 data URLs: decoded, size- and type-checked against their actual
//! bytes, and named by content for the media store (`/media/<32 hex>.<ext>`).

use base64::Engine;
use sha2::{Digest, Sha256};

use crate::error::ApiError;

/// Largest accepted image, in bytes (decoded).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// Where stored media is served from.
pub const MEDIA_URL_PREFIX: &str = "/media/";
/// Hex characters of the content hash in a media file name.
const NAME_HASH_LEN: usize = 32;

pub const MSG_IMAGE_TOO_LARGE: &str = "Image is too large (at most 5 MB)";
pub const MSG_NOT_BASE64: &str = "Images must be base64 data URLs (data:image/...;base64,...)";

/// The image formats the media store accepts. SVG is not among them: it can carry scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl ImageKind {
    pub fn from_mime(mime: &str) -> Option<Self> {
        match mime.trim().to_ascii_lowercase().as_str() {
            "image/png" => Some(ImageKind::Png),
            "image/jpeg" | "image/jpg" | "image/pjpeg" => Some(ImageKind::Jpeg),
            "image/gif" => Some(ImageKind::Gif),
            "image/webp" => Some(ImageKind::Webp),
            _ => None,
        }
    }

    pub fn from_ext(ext: &str) -> Option<Self> {
        match ext {
            "png" => Some(ImageKind::Png),
            "jpg" => Some(ImageKind::Jpeg),
            "gif" => Some(ImageKind::Gif),
            "webp" => Some(ImageKind::Webp),
            _ => None,
        }
    }

    /// What the bytes actually are, from their signature.
    pub fn sniff(bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageKind::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageKind::Jpeg)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(ImageKind::Gif)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(ImageKind::Webp)
        } else {
            None
        }
    }

    pub fn ext(self) -> &'static str {
        match self {
            ImageKind::Png => "png",
            ImageKind::Jpeg => "jpg",
            ImageKind::Gif => "gif",
            ImageKind::Webp => "webp",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Gif => "image/gif",
            ImageKind::Webp => "image/webp",
        }
    }

    fn label(self) -> &'static str {
        match self {
            ImageKind::Png => "PNG",
            ImageKind::Jpeg => "JPEG",
            ImageKind::Gif => "GIF",
            ImageKind::Webp => "WebP",
        }
    }
}

/// A decoded, checked image.
#[derive(Debug, Clone)]
pub struct DecodedImage {
    pub kind: ImageKind,
    pub bytes: Vec<u8>,
}

impl DecodedImage {
    /// The content-addressed file name: the same image is stored once.
    pub fn file_name(&self) -> String {
        let digest = Sha256::digest(&self.bytes);
        let hash = hex::encode(digest);
        format!("{}.{}", &hash[..NAME_HASH_LEN], self.kind.ext())
    }
}

/// Whether a string is a data URL (which must then be an image to be accepted).
pub fn is_data_url(s: &str) -> bool {
    s.trim_start()
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("data:"))
}

/// Decodes `data:image/<type>;base64,<payload>`, checking type, size and signature.
pub fn decode_data_url(url: &str) -> Result<DecodedImage, ApiError> {
    let url = url.trim();
    let rest = url
        .get(5..)
        .filter(|_| is_data_url(url))
        .ok_or_else(|| ApiError::bad_request(MSG_NOT_BASE64))?;
    let (meta, payload) = rest
        .split_once(',')
        .ok_or_else(|| ApiError::bad_request(MSG_NOT_BASE64))?;
    let mut parts = meta.split(';');
    let mime = parts.next().unwrap_or("").trim();
    let is_base64 = parts.any(|p| p.trim().eq_ignore_ascii_case("base64"));
    let kind = ImageKind::from_mime(mime).ok_or_else(|| {
        ApiError::invalid(
            "unsupported_media_type",
            format!(
                "Unsupported image type '{}'; use PNG, JPEG, GIF or WebP",
                mime.chars().take(50).collect::<String>()
            ),
        )
    })?;
    if !is_base64 {
        return Err(ApiError::bad_request(MSG_NOT_BASE64));
    }
    let payload: String = payload
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    // Four base64 characters carry three bytes: refuse oversized images before decoding.
    if payload.len() / 4 * 3 > MAX_IMAGE_BYTES + 3 {
        return Err(ApiError::PayloadTooLarge(MSG_IMAGE_TOO_LARGE.into()));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(payload.as_bytes())
        .map_err(|_| ApiError::bad_request("Image data is not valid base64"))?;
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(ApiError::PayloadTooLarge(MSG_IMAGE_TOO_LARGE.into()));
    }
    match ImageKind::sniff(&bytes) {
        Some(actual) if actual == kind => Ok(DecodedImage { kind, bytes }),
        _ => Err(ApiError::bad_request(format!(
            "Image data is not a valid {} file",
            kind.label()
        ))),
    }
}

/// Whether a file name is one the media store makes.
pub fn is_media_name(name: &str) -> bool {
    let Some((hash, ext)) = name.split_once('.') else {
        return false;
    };
    hash.len() == NAME_HASH_LEN
        && hash
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && ImageKind::from_ext(ext).is_some()
}

/// Whether an address is `/media/<stored name>`.
pub fn is_media_path(path: &str) -> bool {
    path.strip_prefix(MEDIA_URL_PREFIX)
        .is_some_and(is_media_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_1X1: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

    #[test]
    fn a_png_data_url_decodes_and_gets_a_content_name() {
        let img = decode_data_url(&format!("data:image/png;base64,{PNG_1X1}")).unwrap();
        assert_eq!(img.kind, ImageKind::Png);
        let name = img.file_name();
        assert!(is_media_name(&name), "{name}");
        assert!(is_media_path(&format!("/media/{name}")));
    }

    #[test]
    fn svg_non_base64_and_mislabelled_images_are_refused() {
        assert!(decode_data_url("data:image/svg+xml;base64,PHN2Zz4=").is_err());
        assert!(decode_data_url("data:image/png,rawbytes").is_err());
        assert!(decode_data_url(&format!("data:image/jpeg;base64,{PNG_1X1}")).is_err());
        assert!(decode_data_url("data:image/png;base64,!!!").is_err());
    }

    #[test]
    fn an_image_over_the_limit_is_a_413() {
        let big = "A".repeat((MAX_IMAGE_BYTES / 3 + 10) * 4);
        let err = decode_data_url(&format!("data:image/png;base64,{big}")).unwrap_err();
        assert!(matches!(err, ApiError::PayloadTooLarge(_)));
    }

    #[test]
    fn media_names_are_strict() {
        assert!(!is_media_name("../etc/passwd"));
        assert!(!is_media_name("0123456789abcdef0123456789abcdef.svg"));
        assert!(!is_media_name("0123456789ABCDEF0123456789abcdef.png"));
        assert!(is_media_name("0123456789abcdef0123456789abcdef.webp"));
    }
}
