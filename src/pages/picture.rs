//! The one way pages write a picture: `<picture>` with the WebP variants as a `<source>` and the
//! original format's variants in the `<img>`'s `srcset`, `sizes` for the layout's width,
//! `width`/`height` so the page does not shift as pictures load, `decoding="async"`, and either
//! `loading="lazy"` (below the fold) or `fetchpriority="high"` with eager loading (the post's
//! thumbnail, the page's largest paint). The web app's `ResponsiveImage` component writes the
//! same markup.

use super::html::escape;
use crate::domain::image::ImageKind;
use crate::domain::image_variants::ImageMeta;

/// `sizes` of a picture as wide as the article column (full width on a phone).
pub const ARTICLE_SIZES: &str = "(max-width: 760px) 100vw, 720px";
/// `sizes` of a post card's thumbnail in a list.
pub const CARD_SIZES: &str = "(max-width: 640px) 100vw, (max-width: 1024px) 50vw, 400px";

/// How a picture is loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loading {
    /// Below the fold: `loading="lazy"`.
    Lazy,
    /// The page's main picture: fetched first (`fetchpriority="high"`, `loading="eager"`).
    Priority,
}

/// What a picture is drawn with.
#[derive(Debug, Clone, Copy)]
pub struct Picture<'a> {
    /// Its address.
    pub src: &'a str,
    pub alt: &'a str,
    /// Its size and variants when known.
    pub meta: Option<&'a ImageMeta>,
    /// The `sizes` attribute ([`ARTICLE_SIZES`], [`CARD_SIZES`] or the layout's own).
    pub sizes: &'a str,
    pub loading: Loading,
    /// A class for the `<img>`.
    pub class: Option<&'a str>,
}

impl<'a> Picture<'a> {
    /// A picture as wide as the article, loaded lazily.
    pub fn new(src: &'a str, alt: &'a str, meta: Option<&'a ImageMeta>) -> Self {
        Self {
            src,
            alt,
            meta: meta.filter(|m| m.src == src),
            sizes: ARTICLE_SIZES,
            loading: Loading::Lazy,
            class: None,
        }
    }

    pub fn sizes(mut self, sizes: &'a str) -> Self {
        self.sizes = sizes;
        self
    }

    pub fn priority(mut self) -> Self {
        self.loading = Loading::Priority;
        self
    }

    pub fn class(mut self, class: &'a str) -> Self {
        self.class = Some(class);
        self
    }

    /// The markup: a `<picture>` when WebP variants exist, else an `<img>` (with `srcset` when
    /// variants in the original's format exist).
    pub fn html(&self) -> String {
        let mut img = format!(
            "<img src=\"{}\" alt=\"{}\"",
            escape(self.src),
            escape(self.alt)
        );
        if let Some(class) = self.class {
            img.push_str(&format!(" class=\"{}\"", escape(class)));
        }
        let mut webp = String::new();
        if let Some(m) = self.meta {
            let own = srcset(m, m.content_type.as_str(), true);
            let webp_is_own = m.content_type == ImageKind::Webp.content_type();
            if !webp_is_own {
                webp = srcset(m, ImageKind::Webp.content_type(), false);
            }
            if !own.is_empty() {
                img.push_str(&format!(
                    " srcset=\"{}\" sizes=\"{}\"",
                    escape(&own),
                    escape(self.sizes)
                ));
            }
            img.push_str(&format!(" width=\"{}\" height=\"{}\"", m.width, m.height));
        }
        img.push_str(match self.loading {
            Loading::Lazy => " loading=\"lazy\" decoding=\"async\">",
            Loading::Priority => " fetchpriority=\"high\" loading=\"eager\" decoding=\"async\">",
        });
        if webp.is_empty() {
            img
        } else {
            format!(
                "<picture><source type=\"image/webp\" srcset=\"{}\" sizes=\"{}\">{img}</picture>",
                escape(&webp),
                escape(self.sizes)
            )
        }
    }
}

/// `srcset` of the variants of one content type, narrowest first; with the original at its
/// width when `with_original` (the widest candidate of its own format).
fn srcset(m: &ImageMeta, content_type: &str, with_original: bool) -> String {
    let mut parts: Vec<String> = m
        .variants
        .iter()
        .filter(|v| v.content_type == content_type && v.width < m.width)
        .map(|v| format!("{} {}w", v.src, v.width))
        .collect();
    let full = m
        .variants
        .iter()
        .find(|v| v.content_type == content_type && v.width == m.width)
        .map(|v| v.src.as_str())
        .or(with_original.then_some(m.src.as_str()));
    if let Some(full) = full {
        if !parts.is_empty() || !with_original {
            parts.push(format!("{full} {}w", m.width));
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::image_variants::meta_of;

    const NAME: &str = "0123456789abcdef0123456789abcdef.png";

    fn meta(width: u32, height: u32, kind: ImageKind) -> ImageMeta {
        let plan = crate::domain::image_variants::planned(kind, width);
        let name = NAME.replace(".png", &format!(".{}", kind.ext()));
        meta_of(&name, kind, width, height, &plan)
    }

    #[test]
    fn a_picture_with_variants_offers_webp_and_its_own_format() {
        let m = meta(2000, 1000, ImageKind::Png);
        let html = Picture::new(&m.src, "A \"cat\"", Some(&m)).html();
        let h = "0123456789abcdef0123456789abcdef";
        assert_eq!(
            html,
            format!(
                "<picture><source type=\"image/webp\" srcset=\"/media/{h}-400.webp 400w, /media/{h}-800.webp 800w, /media/{h}-1600.webp 1600w\" sizes=\"{ARTICLE_SIZES}\">\
                 <img src=\"/media/{h}.png\" alt=\"A &quot;cat&quot;\" srcset=\"/media/{h}-400.png 400w, /media/{h}-800.png 800w, /media/{h}-1600.png 1600w, /media/{h}.png 2000w\" sizes=\"{ARTICLE_SIZES}\" width=\"2000\" height=\"1000\" loading=\"lazy\" decoding=\"async\"></picture>"
            )
        );
    }

    #[test]
    fn the_thumbnail_is_fetched_first() {
        let m = meta(1000, 500, ImageKind::Jpeg);
        let html = Picture::new(&m.src, "", Some(&m))
            .priority()
            .sizes(CARD_SIZES)
            .class("thumb")
            .html();
        assert!(
            html.contains(" fetchpriority=\"high\" loading=\"eager\" decoding=\"async\""),
            "{html}"
        );
        assert!(!html.contains("lazy"), "{html}");
        assert!(html.contains(" class=\"thumb\""), "{html}");
        assert!(html.contains(&format!("sizes=\"{CARD_SIZES}\"")), "{html}");
        // The full-size WebP closes the WebP candidates.
        assert!(html.contains("-1000.webp 1000w\""), "{html}");
    }

    #[test]
    fn a_small_or_unknown_picture_is_a_plain_img() {
        let m = meta(300, 200, ImageKind::Webp);
        let html = Picture::new(&m.src, "x", Some(&m)).html();
        assert!(html.starts_with("<img "), "{html}");
        assert!(!html.contains("srcset"), "{html}");
        assert!(html.contains(" width=\"300\" height=\"200\""), "{html}");
        let html = Picture::new("https://e.com/a.png", "x", None).html();
        assert_eq!(
            html,
            "<img src=\"https://e.com/a.png\" alt=\"x\" loading=\"lazy\" decoding=\"async\">"
        );
        // Metadata of another picture is not used.
        let html = Picture::new("https://e.com/a.png", "x", Some(&m)).html();
        assert!(!html.contains("width="), "{html}");
    }

    #[test]
    fn a_webp_original_needs_no_source() {
        let m = meta(2000, 1000, ImageKind::Webp);
        let html = Picture::new(&m.src, "", Some(&m)).html();
        assert!(html.starts_with("<img "), "{html}");
        assert!(
            html.contains("-1600.webp 1600w, /media/0123456789abcdef0123456789abcdef.webp 2000w"),
            "{html}"
        );
    }
}
