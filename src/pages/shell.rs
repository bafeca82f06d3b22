//! The built app's `index.html` as a template: the server writes a page's head where the static
//! title and description stood, its language into `<html lang>`, and its server-rendered content
//! (and the app's initial data) into `<div id="root">`, which the app replaces when it starts.

use std::path::Path;

use super::head::PageMeta;
use super::html::{escape, script_json_str};

/// The id of the element holding the app's initial data (JSON).
pub const INITIAL_DATA_ID: &str = "initial-data";

/// What a page is made of.
#[derive(Debug, Default)]
pub struct Page {
    pub meta: Option<PageMeta>,
    /// Server-rendered HTML put inside the app's root element.
    pub body: String,
    /// JSON the app reads when it starts (already serialised).
    pub initial_data: Option<String>,
}

/// Styles of the server-rendered content, so it reads well before the app's stylesheet loads.
const CRITICAL_CSS: &str = "<style>.ssr{max-width:720px;margin:0 auto;padding:24px 16px;font:18px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d1d1f}.ssr h1{font-size:2rem;line-height:1.25;margin:0 0 8px}.ssr .byline{color:#555;font-size:.95rem;margin:0 0 20px}.ssr img{max-width:100%;height:auto}.ssr figure{margin:20px 0}.ssr pre{overflow:auto;background:#f4f4f5;padding:12px}.ssr table{border-collapse:collapse}.ssr td,.ssr th{border:1px solid #ddd;padding:4px 8px}.ssr .cards{list-style:none;padding:0}.ssr .cards li{margin:0 0 20px}.ssr a{color:#1f4fd1}@media (prefers-color-scheme:dark){.ssr{color:#eee}.ssr .byline{color:#bbb}.ssr pre{background:#222}.ssr a{color:#8fb0ff}}</style>\n";

/// The template, cut where the page's parts go.
#[derive(Debug, Clone)]
pub struct Shell {
    /// Up to the `<html` tag's attributes (exclusive).
    before_html: String,
    /// After `<html …>` up to where the head's elements go.
    head_start: String,
    /// From there to the root element's inside.
    head_rest_to_root: String,
    /// From the root element's end to the end.
    after_root: String,
}

const ROOT_OPEN: &str = "<div id=\"root\">";
const FALLBACK_INDEX: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\" /><meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\" /><title>Pressroom</title></head><body><div id=\"root\"></div></body></html>";

impl Shell {
    /// The template from the built app's `index.html`, or a bare one when the app is not built.
    pub fn load(dir: &Path) -> Self {
        std::fs::read_to_string(dir.join("index.html"))
            .ok()
            .and_then(|html| Self::parse(&html))
            .unwrap_or_else(|| Self::parse(FALLBACK_INDEX).unwrap_or_else(Self::empty))
    }

    fn empty() -> Self {
        Self {
            before_html: "<!doctype html>".into(),
            head_start: "<head><meta charset=\"utf-8\" />".into(),
            head_rest_to_root: "</head><body><div id=\"root\">".into(),
            after_root: "</div></body></html>".into(),
        }
    }

    /// Cuts an `index.html`: drops its `<title>` and description (the page writes its own) and
    /// finds `<html>` and the root element. `None` when the file lacks one of them.
    pub fn parse(html: &str) -> Option<Self> {
        let html_at = html.find("<html")?;
        let html_end = html_at + html[html_at..].find('>')? + 1;
        let mut rest = html[html_end..].to_string();
        // The page writes its own description and title (where the title stood).
        if let Some(d) = rest.find("<meta name=\"description\"") {
            if let Some(end) = rest[d..].find('>') {
                rest.replace_range(d..d + end + 1, "");
            }
        }
        let title_at = rest.find("<title>")?;
        let title_end = title_at + rest[title_at..].find("</title>")? + "</title>".len();
        rest.replace_range(title_at..title_end, "");
        let root_at = rest.find("<div id=\"root\"></div>")?;
        if root_at < title_at {
            return None;
        }
        Some(Self {
            before_html: html[..html_at].to_string(),
            head_start: rest[..title_at].to_string(),
            head_rest_to_root: format!("{}{ROOT_OPEN}", &rest[title_at..root_at]),
            after_root: rest[root_at + "<div id=\"root\"></div>".len() - "</div>".len()..]
                .to_string(),
        })
    }

    /// The page.
    pub fn render(&self, page: &Page) -> String {
        let fallback;
        let meta = match &page.meta {
            Some(m) => m,
            None => {
                fallback = PageMeta::plain("");
                &fallback
            }
        };
        let mut out = String::with_capacity(
            self.before_html.len()
                + self.head_start.len()
                + self.head_rest_to_root.len()
                + self.after_root.len()
                + page.body.len()
                + 4096,
        );
        out.push_str(&self.before_html);
        out.push_str(&format!("<html lang=\"{}\">", escape(&meta.lang)));
        out.push_str(&self.head_start);
        out.push_str(&meta.render());
        if !page.body.is_empty() {
            out.push_str(CRITICAL_CSS);
        }
        if let Some(data) = &page.initial_data {
            out.push_str(&format!(
                "<script type=\"application/json\" id=\"{INITIAL_DATA_ID}\">{}</script>\n",
                script_json_str(data)
            ));
        }
        out.push_str(&self.head_rest_to_root);
        out.push_str(&page.body);
        out.push_str(&self.after_root);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VITE_INDEX: &str = r#"<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Pressroom: a multi-author publishing platform" />
    <title>Pressroom</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>"#;

    #[test]
    fn the_page_replaces_title_description_language_and_fills_the_root() {
        let shell = Shell::parse(VITE_INDEX).unwrap();
        let mut meta = PageMeta::plain("A post");
        meta.lang = "fr".into();
        meta.description = "Une description".into();
        let html = shell.render(&Page {
            meta: Some(meta),
            body: "<article class=\"ssr\"><h1>A post</h1></article>".into(),
            initial_data: Some(r#"{"post":{"title":"</script>"}}"#.into()),
        });
        assert!(html.contains("<html lang=\"fr\">"));
        assert_eq!(html.matches("<title>").count(), 1);
        assert!(html.contains("<title>A post · Pressroom</title>"));
        assert_eq!(html.matches("name=\"description\"").count(), 1);
        assert!(html.contains("content=\"Une description\""));
        assert!(html
            .contains("<div id=\"root\"><article class=\"ssr\"><h1>A post</h1></article></div>"));
        assert!(html.contains(
            "<script type=\"module\" crossorigin src=\"/assets/index-abc.js\"></script>"
        ));
        assert!(
            html.find("<meta property=\"og:site_name\"") < html.find("<script type=\"module\"")
        );
        assert!(html.contains(r#"{"post":{"title":"\u003c/script\u003e"}}"#));
        assert!(html.ends_with("</html>"));
    }

    #[test]
    fn an_unbuilt_app_still_gives_a_page() {
        let shell = Shell::load(Path::new("/nonexistent-web-dist"));
        let html = shell.render(&Page::default());
        assert!(html.contains("<title>Pressroom</title>"));
        assert!(html.contains("<div id=\"root\"></div>"));
    }
}
