//! Images that arrive as base64 data URLs: decoded, size- and type-checked against their actual
//! bytes, decoded as pictures and re-encoded (which drops every metadata chunk, EXIF location and
//! camera data included, and anything appended to or hidden in the file), and named by content for
//! the media store (`/media/<32 hex>.<ext>`).

use base64::Engine;
use sha2::{Digest, Sha256};

use super::error::DomainError;
use super::media_name::NAME_HASH_LEN;
pub use super::media_name::{
    is_media_name, is_media_path, is_variant_name, name_hash, ImageKind, MEDIA_URL_PREFIX,
};

/// Largest accepted image, in bytes (decoded).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

pub const MSG_IMAGE_TOO_LARGE: &str = "Image is too large (at most 5 MB)";
/// Largest accepted picture, in pixels (a small file can announce a huge picture).
pub const MAX_IMAGE_PIXELS: u64 = 40_000_000;
/// Longest accepted side, in pixels.
pub const MAX_IMAGE_SIDE: u32 = 16_384;
/// Most frames kept from an animated GIF.
pub const MAX_GIF_FRAMES: usize = 500;
pub const MSG_IMAGE_TOO_MANY_PIXELS: &str =
    "Image has too many pixels (at most 40 million, and 16384 pixels a side)";
pub const MSG_NOT_BASE64: &str = "Images must be base64 data URLs (data:image/...;base64,...)";

/// A decoded, checked image.
#[derive(Debug, Clone)]
pub struct DecodedImage {
    pub kind: ImageKind,
    pub bytes: Vec<u8>,
    /// Size in pixels (after the JPEG orientation is applied).
    pub width: u32,
    pub height: u32,
    /// Smaller copies for responsive pages (see [`super::image_variants`]); empty unless asked
    /// for with [`decode_data_url_with_variants`].
    pub variants: Vec<super::image_variants::EncodedVariant>,
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
pub fn decode_data_url(url: &str) -> Result<DecodedImage, DomainError> {
    decode_data_url_as(url, false)
}

/// [`decode_data_url`], and makes the picture's resized variants (400, 800 and 1600 pixels wide,
/// in its own format and in WebP) for responsive pages.
pub fn decode_data_url_with_variants(url: &str) -> Result<DecodedImage, DomainError> {
    decode_data_url_as(url, true)
}

fn decode_data_url_as(url: &str, with_variants: bool) -> Result<DecodedImage, DomainError> {
    let url = url.trim();
    let rest = url
        .get(5..)
        .filter(|_| is_data_url(url))
        .ok_or_else(|| DomainError::invalid(MSG_NOT_BASE64))?;
    let (meta, payload) = rest
        .split_once(',')
        .ok_or_else(|| DomainError::invalid(MSG_NOT_BASE64))?;
    let mut parts = meta.split(';');
    let mime = parts.next().unwrap_or("").trim();
    let is_base64 = parts.any(|p| p.trim().eq_ignore_ascii_case("base64"));
    let kind = ImageKind::from_mime(mime).ok_or_else(|| {
        DomainError::coded(
            "unsupported_media_type",
            format!(
                "Unsupported image type '{}'; use PNG, JPEG, GIF or WebP",
                mime.chars().take(50).collect::<String>()
            ),
        )
    })?;
    if !is_base64 {
        return Err(DomainError::invalid(MSG_NOT_BASE64));
    }
    let payload: String = payload
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    // Four base64 characters carry three bytes: refuse oversized images before decoding.
    if payload.len() / 4 * 3 > MAX_IMAGE_BYTES + 3 {
        return Err(DomainError::TooLarge(MSG_IMAGE_TOO_LARGE.into()));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(payload.as_bytes())
        .map_err(|_| DomainError::invalid("Image data is not valid base64"))?;
    decode_bytes_as(kind, bytes, with_variants)
}

/// An image's bytes (fetched or read from an archive), its kind told by its signature, checked
/// and re-encoded as an upload is, with its resized variants.
pub fn decode_bytes_with_variants(bytes: Vec<u8>) -> Result<DecodedImage, DomainError> {
    let kind = ImageKind::sniff(&bytes).ok_or_else(|| {
        DomainError::coded(
            "unsupported_media_type",
            "Not a PNG, JPEG, GIF or WebP image".to_string(),
        )
    })?;
    decode_bytes_as(kind, bytes, true)
}

fn decode_bytes_as(
    kind: ImageKind,
    bytes: Vec<u8>,
    with_variants: bool,
) -> Result<DecodedImage, DomainError> {
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(DomainError::TooLarge(MSG_IMAGE_TOO_LARGE.into()));
    }
    match ImageKind::sniff(&bytes) {
        Some(actual) if actual == kind => {
            let (bytes, picture, (width, height)) = reencode_keeping(kind, &bytes)?;
            let variants = match picture {
                Some(picture) if with_variants => {
                    super::image_variants::make(kind, &picture).map_err(|_| not_valid(kind))?
                }
                _ => Vec::new(),
            };
            Ok(DecodedImage {
                kind,
                bytes,
                width,
                height,
                variants,
            })
        }
        _ => Err(not_valid(kind)),
    }
}

fn not_valid(kind: ImageKind) -> DomainError {
    DomainError::invalid(format!("Image data is not a valid {} file", kind.label()))
}

/// Decodes the picture and encodes it again in the same format: only pixels survive (JPEG
/// orientation is applied to them first, so dropping EXIF does not turn photos). GIF animations
/// keep their frames and delays; PNG and WebP keep their first frame. Pictures announcing more
/// than [`MAX_IMAGE_PIXELS`] are refused before any pixel is decoded.
pub fn reencode(kind: ImageKind, bytes: &[u8]) -> Result<Vec<u8>, DomainError> {
    reencode_keeping(kind, bytes).map(|(out, _, _)| out)
}

/// A re-encoded picture with its decoded pixels (none for a GIF, whose frames are kept as they
/// are) and its size.
type Reencoded = (Vec<u8>, Option<image::DynamicImage>, (u32, u32));

/// [`reencode`], keeping the decoded picture (to make variants from) and its size.
fn reencode_keeping(kind: ImageKind, bytes: &[u8]) -> Result<Reencoded, DomainError> {
    use image::{ImageDecoder, ImageReader};
    use std::io::Cursor;

    let (w, h) = ImageReader::with_format(Cursor::new(bytes), kind.format())
        .into_dimensions()
        .map_err(|_| not_valid(kind))?;
    if w == 0
        || h == 0
        || w > MAX_IMAGE_SIDE
        || h > MAX_IMAGE_SIDE
        || u64::from(w) * u64::from(h) > MAX_IMAGE_PIXELS
    {
        return Err(DomainError::invalid(MSG_IMAGE_TOO_MANY_PIXELS));
    }
    let mut out = Vec::new();
    let mut kept = None;
    let mut size = (w, h);
    let encoded = match kind {
        ImageKind::Gif => reencode_gif(bytes, &mut out),
        _ => {
            let mut decoder = ImageReader::with_format(Cursor::new(bytes), kind.format())
                .into_decoder()
                .map_err(|_| not_valid(kind))?;
            let orientation = decoder.orientation().ok();
            let mut picture =
                image::DynamicImage::from_decoder(decoder).map_err(|_| not_valid(kind))?;
            if let Some(o) = orientation {
                picture.apply_orientation(o);
            }
            size = (picture.width(), picture.height());
            let written = match kind {
                ImageKind::Jpeg => {
                    let rgb = image::DynamicImage::ImageRgb8(picture.to_rgb8());
                    let encoder =
                        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
                    rgb.write_with_encoder(encoder)
                }
                ImageKind::Webp => {
                    let rgba = image::DynamicImage::ImageRgba8(picture.to_rgba8());
                    rgba.write_with_encoder(image::codecs::webp::WebPEncoder::new_lossless(
                        &mut out,
                    ))
                }
                _ => picture.write_to(&mut Cursor::new(&mut out), kind.format()),
            };
            kept = Some(picture);
            written
        }
    };
    encoded.map_err(|_| not_valid(kind))?;
    Ok((out, kept, size))
}

/// Quality of re-encoded JPEG files (visually lossless for photos).
const JPEG_QUALITY: u8 = 90;

fn reencode_gif(bytes: &[u8], out: &mut Vec<u8>) -> image::ImageResult<()> {
    use image::codecs::gif::{GifDecoder, GifEncoder, Repeat};
    use image::AnimationDecoder;
    let decoder = GifDecoder::new(std::io::Cursor::new(bytes))?;
    let frames: Vec<image::Frame> = decoder
        .into_frames()
        .take(MAX_GIF_FRAMES)
        .collect::<Result<_, _>>()?;
    if frames.is_empty() {
        return Err(image::ImageError::Decoding(
            image::error::DecodingError::from_format_hint(image::ImageFormat::Gif.into()),
        ));
    }
    let mut encoder = GifEncoder::new(out);
    encoder.set_repeat(Repeat::Infinite)?;
    encoder.encode_frames(frames)
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

    fn encoded(kind: ImageKind, w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_fn(w, h, |x, y| {
            image::Rgba([(x * 30) as u8, (y * 30) as u8, 99, 255])
        });
        let mut out = Vec::new();
        let pic = image::DynamicImage::ImageRgba8(img);
        let pic = if kind == ImageKind::Jpeg {
            image::DynamicImage::ImageRgb8(pic.to_rgb8())
        } else {
            pic
        };
        if kind == ImageKind::Webp {
            pic.write_with_encoder(image::codecs::webp::WebPEncoder::new_lossless(&mut out))
                .unwrap();
        } else {
            pic.write_to(&mut std::io::Cursor::new(&mut out), kind.format())
                .unwrap();
        }
        out
    }

    #[test]
    fn every_accepted_format_is_reencoded_in_its_own_format() {
        for kind in [
            ImageKind::Png,
            ImageKind::Jpeg,
            ImageKind::Gif,
            ImageKind::Webp,
        ] {
            let mut bytes = encoded(kind, 7, 3);
            // Bytes appended after the picture (a classic way to smuggle content) are dropped.
            bytes.extend_from_slice(b"<script>alert(1)</script>");
            let out = reencode(kind, &bytes).unwrap_or_else(|e| panic!("{kind:?}: {e:?}"));
            assert_eq!(ImageKind::sniff(&out), Some(kind));
            assert!(!out.windows(8).any(|w| w == b"<script>"), "{kind:?}");
            let back = image::load_from_memory_with_format(&out, kind.format()).unwrap();
            assert_eq!((back.width(), back.height()), (7, 3), "{kind:?}");
        }
    }

    #[test]
    fn a_signature_alone_is_not_an_image() {
        let mut fake = b"GIF89a".to_vec();
        fake.extend_from_slice(&[0; 40]);
        assert!(reencode(ImageKind::Gif, &fake).is_err());
        assert!(reencode(ImageKind::Jpeg, &[0xFF, 0xD8, 0xFF, 0xE0, 1, 2]).is_err());
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
        assert!(matches!(err, DomainError::TooLarge(_)));
    }

    #[test]
    fn media_names_are_strict() {
        assert!(!is_media_name("../etc/passwd"));
        assert!(!is_media_name("0123456789abcdef0123456789abcdef.svg"));
        assert!(!is_media_name("0123456789ABCDEF0123456789abcdef.png"));
        assert!(is_media_name("0123456789abcdef0123456789abcdef.webp"));
    }
}
