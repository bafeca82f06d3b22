//! A post's share image (1200×630 PNG, the size link previews use): its thumbnail cropped to
//! fill, or a card drawn from an SVG template with the title, the author's name and initials and
//! the site's name, rasterised with `resvg`. Named by a version that changes with what it shows.

use std::sync::{Arc, LazyLock};

use sha2::{Digest, Sha256};

use super::head::SITE_NAME;
use super::html::escape;

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;
/// Characters per line of the title on a card, and lines at most.
const TITLE_LINE: usize = 26;
const TITLE_LINES: usize = 4;

/// The version of a post's share image: a hash of everything it shows.
pub fn version(title: &str, author: &str, thumbnail: Option<&str>) -> String {
    let mut h = Sha256::new();
    for part in [title, author, thumbnail.unwrap_or(""), SITE_NAME, "v1"] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    hex::encode(&h.finalize()[..8])
}

/// The initials of a name (up to two letters).
pub fn initials(name: &str) -> String {
    name.split_whitespace()
        .filter_map(|w| w.chars().find(|c| c.is_alphanumeric()))
        .take(2)
        .flat_map(char::to_uppercase)
        .collect()
}

/// The title cut into lines of at most `TITLE_LINE` characters, at most `TITLE_LINES` lines
/// (the last one ended with `…` when the title is longer).
pub fn title_lines(title: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in title.split_whitespace() {
        let word: String = word.chars().take(TITLE_LINE).collect();
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > TITLE_LINE {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(&word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    if lines.len() > TITLE_LINES {
        lines.truncate(TITLE_LINES);
        if let Some(last) = lines.last_mut() {
            let mut cut: String = last.chars().take(TITLE_LINE - 1).collect();
            cut.push('…');
            *last = cut;
        }
    }
    lines
}

/// The card's SVG.
pub fn card_svg(title: &str, author: &str) -> String {
    let lines = title_lines(title);
    let size = if lines.len() > 2 { 56 } else { 64 };
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        text.push_str(&format!(
            "<text x=\"80\" y=\"{}\" font-size=\"{size}\" font-weight=\"bold\" fill=\"#ffffff\">{}</text>",
            150 + i * (size as usize + 14),
            escape(line)
        ));
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1f4fd1"/><stop offset="1" stop-color="#0b1f5c"/></linearGradient></defs>
<rect width="{WIDTH}" height="{HEIGHT}" fill="url(#bg)"/>
{text}
<circle cx="120" cy="530" r="44" fill="#ffffff"/>
<text x="120" y="545" font-size="38" font-weight="bold" fill="#1f4fd1" text-anchor="middle">{initials}</text>
<text x="186" y="544" font-size="38" fill="#ffffff">{author}</text>
<text x="1120" y="544" font-size="34" fill="#c9d6ff" text-anchor="end">{site}</text>
</svg>"##,
        initials = escape(&initials(author)),
        author = escape(&author.chars().take(40).collect::<String>()),
        site = SITE_NAME,
    )
}

/// The fonts of the machine, loaded once.
static FONTS: LazyLock<Arc<resvg::usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut db = resvg::usvg::fontdb::Database::new();
    db.load_system_fonts();
    db.set_sans_serif_family("DejaVu Sans");
    Arc::new(db)
});

/// Draws a card as a PNG.
pub fn render_card(title: &str, author: &str) -> anyhow::Result<Vec<u8>> {
    let svg = card_svg(title, author);
    let options = resvg::usvg::Options {
        fontdb: FONTS.clone(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(&svg, &options)?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(WIDTH, HEIGHT)
        .ok_or_else(|| anyhow::anyhow!("no pixmap of {WIDTH}x{HEIGHT}"))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap.encode_png()?)
}

/// A picture (a thumbnail's bytes) cropped and scaled to fill the share image, as a PNG.
pub fn render_thumbnail(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let picture = image::load_from_memory(bytes)?;
    let filled = picture.resize_to_fill(WIDTH, HEIGHT, image::imageops::FilterType::Triangle);
    let mut out = std::io::Cursor::new(Vec::new());
    filled
        .to_rgb8()
        .write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_follows_what_the_image_shows() {
        let v = version("T", "Ann", None);
        assert_eq!(v, version("T", "Ann", None));
        assert_ne!(v, version("T2", "Ann", None));
        assert_ne!(v, version("T", "Bob", None));
        assert_ne!(v, version("T", "Ann", Some("/media/x.png")));
        assert_eq!(v.len(), 16);
    }

    #[test]
    fn long_titles_wrap_and_end_with_an_ellipsis() {
        let lines = title_lines(&"word ".repeat(60));
        assert_eq!(lines.len(), TITLE_LINES);
        assert!(lines.iter().all(|l| l.chars().count() <= TITLE_LINE));
        assert!(lines[3].ends_with('…'));
        assert_eq!(title_lines("Short"), vec!["Short"]);
    }

    #[test]
    fn initials_and_escaping() {
        assert_eq!(initials("ann lee smith"), "AL");
        assert_eq!(initials("Émile"), "É");
        let svg = card_svg("<script>&", "A \"B\"");
        assert!(svg.contains("&lt;script&gt;&amp;"));
        assert!(!svg.contains("<script>"));
    }

    #[test]
    fn a_card_is_a_1200_by_630_png() {
        let png = render_card(
            "A title that is long enough to wrap onto a second line",
            "Ann Lee",
        )
        .unwrap();
        let picture = image::load_from_memory(&png).unwrap();
        assert_eq!((picture.width(), picture.height()), (WIDTH, HEIGHT));
    }

    #[test]
    fn a_thumbnail_is_cropped_to_fill() {
        let mut src = std::io::Cursor::new(Vec::new());
        image::RgbImage::from_pixel(400, 400, image::Rgb([200, 10, 10]))
            .write_to(&mut src, image::ImageFormat::Png)
            .unwrap();
        let png = render_thumbnail(src.get_ref()).unwrap();
        let picture = image::load_from_memory(&png).unwrap();
        assert_eq!((picture.width(), picture.height()), (WIDTH, HEIGHT));
    }
}
