//! The media store's names: the image formats it accepts and the names and addresses of its
//! files (`/media/<32 hex>.<ext>`, and `<32 hex>-<width>.<ext>` for resized variants). Both the
//! decoding of uploads (`image`) and the variants (`image_variants`) use them.

/// Where stored media is served from.
pub const MEDIA_URL_PREFIX: &str = "/media/";
/// Hex characters of the content hash in a media file name.
pub(crate) const NAME_HASH_LEN: usize = 32;

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

    pub(crate) fn label(self) -> &'static str {
        match self {
            ImageKind::Png => "PNG",
            ImageKind::Jpeg => "JPEG",
            ImageKind::Gif => "GIF",
            ImageKind::Webp => "WebP",
        }
    }
}

impl ImageKind {
    pub(crate) fn format(self) -> image::ImageFormat {
        match self {
            ImageKind::Png => image::ImageFormat::Png,
            ImageKind::Jpeg => image::ImageFormat::Jpeg,
            ImageKind::Gif => image::ImageFormat::Gif,
            ImageKind::Webp => image::ImageFormat::WebP,
        }
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

/// The hash part of a stored file's name (`<32 hex>` of `<32 hex>.<ext>`).
pub fn name_hash(name: &str) -> Option<&str> {
    is_media_name(name).then(|| &name[..NAME_HASH_LEN])
}

/// Whether a file name is a resized variant the store makes of one of its files:
/// `<32 hex>-<width>.<png|jpg|webp>`.
pub fn is_variant_name(name: &str) -> bool {
    let Some((stem, ext)) = name.split_once('.') else {
        return false;
    };
    let Some((hash, width)) = stem.split_once('-') else {
        return false;
    };
    is_media_name(&format!("{hash}.png"))
        && !width.is_empty()
        && width.len() <= 5
        && width.bytes().all(|b| b.is_ascii_digit())
        && !width.starts_with('0')
        && matches!(ext, "png" | "jpg" | "webp")
}

/// Whether an address is `/media/<stored name>`.
pub fn is_media_path(path: &str) -> bool {
    path.strip_prefix(MEDIA_URL_PREFIX)
        .is_some_and(is_media_name)
}
