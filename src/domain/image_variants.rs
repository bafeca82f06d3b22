//! Resized copies of uploaded pictures, so a phone downloads a picture the size it shows rather
//! than the original: 400, 800 and 1600 pixels wide (never wider than the original), each in the
//! original's format and in lossy WebP (plus a WebP the original's width when that is at most
//! 1600), made when the picture is uploaded. Animated GIFs get none (a resized copy would lose
//! the animation); pages show the original.
//!
//! A variant is named after its original, `<hash>-<width>.<ext>` beside `<hash>.<ext>`: the name
//! is a function of the original's content, so it is cached as immutably as the original, and
//! the variants of a file are known from its name and size without any record of them.

use image::imageops::FilterType;
use image::DynamicImage;
use serde::{Deserialize, Serialize};

use super::media_name::{name_hash, ImageKind, MEDIA_URL_PREFIX};

/// The widths variants are made at (only those narrower than the original).
pub const VARIANT_WIDTHS: [u32; 3] = [400, 800, 1600];
/// Quality of WebP variants (libwebp's scale, 0 to 100).
pub const WEBP_QUALITY: f32 = 80.0;
/// Quality of JPEG variants.
pub const JPEG_VARIANT_QUALITY: u8 = 82;

/// A variant made from an upload, not yet written.
#[derive(Debug, Clone)]
pub struct EncodedVariant {
    pub width: u32,
    pub height: u32,
    pub kind: ImageKind,
    pub bytes: Vec<u8>,
}

/// One resized copy of a stored picture, as answers and pages describe it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ImageVariant {
    /// Where it is served (`/media/<hash>-<width>.<ext>`).
    pub src: String,
    pub width: u32,
    pub height: u32,
    /// Its content type (`image/webp`, `image/png`, `image/jpeg`).
    #[serde(rename = "type")]
    pub content_type: String,
}

/// A stored picture's size and resized copies, for `width`/`height`, `srcset` and
/// `<source type="image/webp">`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ImageMeta {
    /// The original's address (`/media/<hash>.<ext>`).
    pub src: String,
    pub width: u32,
    pub height: u32,
    /// The original's content type.
    #[serde(rename = "type")]
    pub content_type: String,
    /// Narrowest first; empty for a picture narrower than 400 pixels in a format with no WebP
    /// copy, an animated GIF, or a file stored before variants were made.
    #[serde(default)]
    pub variants: Vec<ImageVariant>,
}

/// The height of a variant `width` wide of a `w`×`h` picture (rounded, at least 1).
pub fn variant_height(w: u32, h: u32, width: u32) -> u32 {
    let (w, h, width) = (u64::from(w), u64::from(h), u64::from(width));
    u32::try_from(((h * width + w / 2) / w.max(1)).max(1)).unwrap_or(u32::MAX)
}

/// The variants planned for a `w`-pixel-wide picture of `kind`: `(width, format)`, narrowest
/// first.
pub fn planned(kind: ImageKind, w: u32) -> Vec<(u32, ImageKind)> {
    if kind == ImageKind::Gif {
        return Vec::new();
    }
    let mut out = Vec::new();
    for width in VARIANT_WIDTHS.into_iter().filter(|&x| x < w) {
        out.push((width, kind));
        if kind != ImageKind::Webp {
            out.push((width, ImageKind::Webp));
        }
    }
    // The full-size picture in WebP too, when a page would use it (wider ones are never asked
    // for beyond the largest variant).
    if kind != ImageKind::Webp && w <= VARIANT_WIDTHS[VARIANT_WIDTHS.len() - 1] {
        out.push((w, ImageKind::Webp));
    }
    out
}

/// Makes the planned variants of a decoded picture. Each width is scaled from the next wider
/// one (Catmull-Rom), which is as sharp as scaling from the original and much faster.
pub fn make(kind: ImageKind, picture: &DynamicImage) -> image::ImageResult<Vec<EncodedVariant>> {
    let (w, h) = (picture.width(), picture.height());
    let plan = planned(kind, w);
    let mut widths: Vec<u32> = plan.iter().map(|(width, _)| *width).collect();
    widths.dedup();
    let mut out = Vec::new();
    let mut source: Option<DynamicImage> = None;
    for &width in widths.iter().rev() {
        let height = variant_height(w, h, width);
        let scaled = if width == w {
            picture.clone()
        } else {
            source
                .as_ref()
                .unwrap_or(picture)
                .resize_exact(width, height, FilterType::CatmullRom)
        };
        for &(_, format) in plan.iter().filter(|(x, _)| *x == width) {
            out.push(EncodedVariant {
                width,
                height,
                kind: format,
                bytes: encode(format, &scaled)?,
            });
        }
        source = Some(scaled);
    }
    out.sort_by_key(|v| (v.width, v.kind == ImageKind::Webp));
    Ok(out)
}

fn encode(kind: ImageKind, picture: &DynamicImage) -> image::ImageResult<Vec<u8>> {
    let mut out = Vec::new();
    match kind {
        ImageKind::Webp => {
            let (w, h) = (picture.width(), picture.height());
            let encoded = if picture.color().has_alpha() {
                let rgba = picture.to_rgba8();
                webp::Encoder::from_rgba(rgba.as_raw(), w, h).encode_simple(false, WEBP_QUALITY)
            } else {
                let rgb = picture.to_rgb8();
                webp::Encoder::from_rgb(rgb.as_raw(), w, h).encode_simple(false, WEBP_QUALITY)
            };
            let encoded = encoded.map_err(|e| {
                image::ImageError::Encoding(image::error::EncodingError::new(
                    image::ImageFormat::WebP.into(),
                    format!("{e:?}"),
                ))
            })?;
            out.extend_from_slice(&encoded);
        }
        ImageKind::Jpeg => {
            let rgb = DynamicImage::ImageRgb8(picture.to_rgb8());
            rgb.write_with_encoder(image::codecs::jpeg::JpegEncoder::new_with_quality(
                &mut out,
                JPEG_VARIANT_QUALITY,
            ))?;
        }
        ImageKind::Png | ImageKind::Gif => {
            picture.write_to(&mut std::io::Cursor::new(&mut out), kind.format())?;
        }
    }
    Ok(out)
}

/// The file name of the variant `width` wide in `kind` of the stored file `name`.
pub fn variant_name(name: &str, width: u32, kind: ImageKind) -> Option<String> {
    name_hash(name).map(|hash| format!("{hash}-{width}.{}", kind.ext()))
}

/// Describes a stored picture and the variants it was given.
pub fn meta_of(
    name: &str,
    kind: ImageKind,
    width: u32,
    height: u32,
    made: &[(u32, ImageKind)],
) -> ImageMeta {
    ImageMeta {
        src: format!("{MEDIA_URL_PREFIX}{name}"),
        width,
        height,
        content_type: kind.content_type().to_string(),
        variants: made
            .iter()
            .filter_map(|&(w, k)| {
                Some(ImageVariant {
                    src: format!("{MEDIA_URL_PREFIX}{}", variant_name(name, w, k)?),
                    width: w,
                    height: variant_height(width, height, w),
                    content_type: k.content_type().to_string(),
                })
            })
            .collect(),
    }
}

/// Writes a picture's size and variants beside its address in an image block's `file`
/// (`url`, `width`, `height`, `variants`), as the app and the server's pages read them.
pub fn record_in_file(
    file: &mut serde_json::Map<String, serde_json::Value>,
    meta: &ImageMeta,
) -> serde_json::Result<()> {
    file.insert("url".into(), serde_json::Value::String(meta.src.clone()));
    file.insert("width".into(), serde_json::Value::from(meta.width));
    file.insert("height".into(), serde_json::Value::from(meta.height));
    file.insert("variants".into(), serde_json::to_value(&meta.variants)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(w: u32, h: u32, alpha: bool) -> DynamicImage {
        let img = image::RgbaImage::from_fn(w, h, |x, y| {
            image::Rgba([
                (x % 256) as u8,
                (y % 256) as u8,
                99,
                if alpha { 128 } else { 255 },
            ])
        });
        let pic = DynamicImage::ImageRgba8(img);
        if alpha {
            pic
        } else {
            DynamicImage::ImageRgb8(pic.to_rgb8())
        }
    }

    #[test]
    fn never_wider_than_the_original() {
        assert_eq!(planned(ImageKind::Png, 300), vec![(300, ImageKind::Webp)]);
        assert_eq!(
            planned(ImageKind::Jpeg, 1000),
            vec![
                (400, ImageKind::Jpeg),
                (400, ImageKind::Webp),
                (800, ImageKind::Jpeg),
                (800, ImageKind::Webp),
                (1000, ImageKind::Webp)
            ]
        );
        assert_eq!(
            planned(ImageKind::Webp, 2000),
            vec![
                (400, ImageKind::Webp),
                (800, ImageKind::Webp),
                (1600, ImageKind::Webp)
            ]
        );
        assert!(planned(ImageKind::Gif, 3000).is_empty());
        assert_eq!(planned(ImageKind::Png, 400), vec![(400, ImageKind::Webp)]);
    }

    #[test]
    fn variants_have_their_sizes_and_formats() {
        for (kind, alpha) in [(ImageKind::Png, true), (ImageKind::Jpeg, false)] {
            let made = make(kind, &picture(1000, 500, alpha)).unwrap();
            let got: Vec<(u32, u32, ImageKind)> =
                made.iter().map(|v| (v.width, v.height, v.kind)).collect();
            assert_eq!(
                got,
                vec![
                    (400, 200, kind),
                    (400, 200, ImageKind::Webp),
                    (800, 400, kind),
                    (800, 400, ImageKind::Webp),
                    (1000, 500, ImageKind::Webp),
                ]
            );
            for v in &made {
                assert_eq!(ImageKind::sniff(&v.bytes), Some(v.kind));
                let back = image::load_from_memory_with_format(&v.bytes, v.kind.format()).unwrap();
                assert_eq!((back.width(), back.height()), (v.width, v.height));
            }
        }
    }

    #[test]
    fn heights_round() {
        assert_eq!(variant_height(3000, 2000, 400), 267);
        assert_eq!(variant_height(4000, 1, 400), 1);
    }

    #[test]
    fn variant_names_follow_the_original() {
        let name = "0123456789abcdef0123456789abcdef.png";
        let v = variant_name(name, 800, ImageKind::Webp).unwrap();
        assert_eq!(v, "0123456789abcdef0123456789abcdef-800.webp");
        assert!(super::super::image::is_variant_name(&v));
        assert!(!super::super::image::is_media_name(&v));
        assert!(!super::super::image::is_variant_name(
            "0123456789abcdef0123456789abcdef-08.webp"
        ));
        assert!(!super::super::image::is_variant_name(
            "0123456789abcdef0123456789abcdef-800.gif"
        ));
        assert!(!super::super::image::is_variant_name("../x-800.webp"));
        assert_eq!(variant_name("x.png", 800, ImageKind::Webp), None);
    }
}
