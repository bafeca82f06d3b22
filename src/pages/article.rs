//! A post's blocks as semantic, sanitised HTML: what a reader without JavaScript, a reader app, a
//! crawler or a feed reader gets, and what the browser paints before the app has loaded.
//!
//! Text fields were sanitised when the post was saved; they are sanitised again here with the
//! same rules (inline formatting and http(s)/mailto links only), so nothing stored behind the
//! server's back can reach a page. Polls and embeds become plain links.

use serde_json::Value;

use super::html::escape;
use super::picture::Picture;
use crate::domain::blocks::{is_web_url, Block};
use crate::domain::image::{is_media_path, is_variant_name, ImageKind, MEDIA_URL_PREFIX};
use crate::domain::image_variants::{ImageMeta, ImageVariant};
use crate::domain::sanitize::{plain_text, sanitize_inline};

/// The CSS class of the placeholder standing for the locked part of a subscribers-only post
/// (named by the JSON-LD's `hasPart.cssSelector`).
pub const LOCKED_CLASS: &str = "post-locked";

/// Where an image's size comes from (the media store knows its files; `None` elsewhere).
pub trait ImageSizes {
    fn size_of(&self, url: &str) -> Option<(u32, u32)>;

    /// The picture's size and resized variants (by default its size alone).
    fn meta_of(&self, url: &str) -> Option<ImageMeta> {
        self.size_of(url).map(|(width, height)| ImageMeta {
            src: url.to_string(),
            width,
            height,
            content_type: String::new(),
            variants: Vec::new(),
        })
    }
}

/// No sizes known.
pub struct NoSizes;

impl ImageSizes for NoSizes {
    fn size_of(&self, _: &str) -> Option<(u32, u32)> {
        None
    }
}

/// Renders blocks in order. `post_url` is where poll links point.
pub fn render_blocks(blocks: &[Block], post_url: &str, sizes: &dyn ImageSizes) -> String {
    let mut out = String::new();
    for block in blocks {
        render_block(&mut out, block, post_url, sizes);
    }
    out
}

fn text(d: &Value, key: &str) -> String {
    d.get(key)
        .and_then(Value::as_str)
        .map(sanitize_inline)
        .unwrap_or_default()
}

fn render_block(out: &mut String, block: &Block, post_url: &str, sizes: &dyn ImageSizes) {
    let d = &block.data;
    match block.kind.as_str() {
        "paragraph" => {
            let t = text(d, "text");
            if !t.trim().is_empty() {
                out.push_str(&format!("<p>{t}</p>\n"));
            }
        }
        "header" => {
            // The page's only h1 is the post's title.
            let level = d
                .get("level")
                .and_then(Value::as_u64)
                .unwrap_or(2)
                .clamp(2, 6);
            out.push_str(&format!("<h{level}>{}</h{level}>\n", text(d, "text")));
        }
        "list" => {
            let ordered = d.get("style").and_then(Value::as_str) == Some("ordered");
            let checklist = d.get("style").and_then(Value::as_str) == Some("checklist");
            render_list(out, d.get("items"), ordered, checklist);
            out.push('\n');
        }
        "checklist" => {
            out.push_str("<ul class=\"checklist\">");
            for item in d
                .get("items")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let checked = item
                    .get("checked")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                out.push_str(&format!(
                    "<li>{} {}</li>",
                    if checked { "☑" } else { "☐" },
                    text(item, "text")
                ));
            }
            out.push_str("</ul>\n");
        }
        "quote" => {
            let caption = text(d, "caption");
            out.push_str("<figure class=\"quote\"><blockquote><p>");
            out.push_str(&text(d, "text"));
            out.push_str("</p></blockquote>");
            if !caption.trim().is_empty() {
                out.push_str(&format!("<figcaption>{caption}</figcaption>"));
            }
            out.push_str("</figure>\n");
        }
        "code" => {
            let code = d.get("code").and_then(Value::as_str).unwrap_or("");
            out.push_str(&format!("<pre><code>{}</code></pre>\n", escape(code)));
        }
        "delimiter" => out.push_str("<hr>\n"),
        "tip" => out.push_str(
            "<aside class=\"support-card\"><p><a href=\"#support\">Support this post</a></p></aside>\n",
        ),
        "image" => {
            let url = d
                .get("file")
                .and_then(|f| f.get("url"))
                .and_then(Value::as_str)
                .unwrap_or("");
            if !(is_web_url(url) || is_media_path(url)) {
                return;
            }
            let caption = text(d, "caption");
            let given = text(d, "alt");
            let alt = plain_text(if given.trim().is_empty() { &caption } else { &given })
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            out.push_str("<figure class=\"image\">");
            let meta = sizes.meta_of(url).or_else(|| block_image_meta(d, url));
            out.push_str(&Picture::new(url, &alt, meta.as_ref()).html());
            if !caption.trim().is_empty() {
                out.push_str(&format!("<figcaption>{caption}</figcaption>"));
            }
            out.push_str("</figure>\n");
        }
        "embed" => {
            let source = d.get("source").and_then(Value::as_str).unwrap_or("");
            if !is_web_url(source) {
                return;
            }
            let service = d.get("service").and_then(Value::as_str).unwrap_or("video");
            let caption = text(d, "caption");
            let label = if plain_text(&caption).trim().is_empty() {
                format!("Watch on {}", service_name(service))
            } else {
                plain_text(&caption).trim().to_string()
            };
            out.push_str(&format!(
                "<p class=\"embed\"><a href=\"{}\" rel=\"noopener noreferrer nofollow\">{}</a></p>\n",
                escape(source),
                escape(&label)
            ));
        }
        "table" => {
            let headings = d
                .get("withHeadings")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            out.push_str("<table>");
            for (r, row) in d
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let cell = if headings && r == 0 { "th" } else { "td" };
                out.push_str("<tr>");
                for c in row.as_array().into_iter().flatten() {
                    let t = c.as_str().map(sanitize_inline).unwrap_or_default();
                    out.push_str(&format!("<{cell}>{t}</{cell}>"));
                }
                out.push_str("</tr>");
            }
            out.push_str("</table>\n");
        }
        "poll" => {
            let question = plain_text(&text(d, "question"));
            let anchor = format!("{post_url}#poll-{}", block.id);
            out.push_str(&format!(
                "<p class=\"poll\"><a href=\"{}\">Poll: {}</a></p>\n",
                escape(&anchor),
                escape(question.trim())
            ));
        }
        _ => {}
    }
}

fn service_name(service: &str) -> &str {
    match service {
        "youtube" => "YouTube",
        "vimeo" => "Vimeo",
        "codepen" => "CodePen",
        other => other,
    }
}

fn render_list(out: &mut String, items: Option<&Value>, ordered: bool, checklist: bool) {
    let tag = if ordered { "ol" } else { "ul" };
    out.push_str(&format!("<{tag}>"));
    for item in items.and_then(Value::as_array).into_iter().flatten() {
        out.push_str("<li>");
        match item {
            Value::String(s) => out.push_str(&sanitize_inline(s)),
            Value::Object(o) => {
                if checklist {
                    let checked = o
                        .get("meta")
                        .and_then(|m| m.get("checked"))
                        .and_then(Value::as_bool)
                        .unwrap_or(false);
                    out.push_str(if checked { "☑ " } else { "☐ " });
                }
                out.push_str(
                    &o.get("content")
                        .and_then(Value::as_str)
                        .map(sanitize_inline)
                        .unwrap_or_default(),
                );
                let nested = o.get("items").and_then(Value::as_array);
                if nested.is_some_and(|n| !n.is_empty()) {
                    render_list(out, o.get("items"), ordered, checklist);
                }
            }
            _ => {}
        }
        out.push_str("</li>");
    }
    out.push_str(&format!("</{tag}>"));
}

/// The size and variants an image block carries beside its address (`file.width`,
/// `file.height`, `file.variants`, written when the post was saved).
fn block_image_meta(d: &Value, url: &str) -> Option<ImageMeta> {
    let file = d.get("file")?;
    let dim = |k: &str| file.get(k)?.as_u64().and_then(|n| u32::try_from(n).ok());
    let (width, height) = (dim("width")?, dim("height")?);
    let variants: Vec<ImageVariant> = file
        .get("variants")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    Some(ImageMeta {
        src: url.to_string(),
        width,
        height,
        content_type: url
            .rsplit_once('.')
            .and_then(|(_, ext)| ImageKind::from_ext(ext))
            .map(|k| k.content_type().to_string())
            .unwrap_or_default(),
        // Only the store's own variant addresses.
        variants: variants
            .into_iter()
            .filter(|v| {
                v.src
                    .strip_prefix(MEDIA_URL_PREFIX)
                    .is_some_and(is_variant_name)
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn blocks(v: Value) -> Vec<Block> {
        serde_json::from_value(v).unwrap()
    }

    struct Fixed;
    impl ImageSizes for Fixed {
        fn size_of(&self, url: &str) -> Option<(u32, u32)> {
            (url == "/media/0123456789abcdef0123456789abcdef.png").then_some((640, 480))
        }
    }

    #[test]
    fn every_block_type_renders_to_semantic_html() {
        let b = blocks(json!([
            {"id": "p1", "type": "paragraph", "data": {"text": "Hello <b>world</b>"}},
            {"id": "h1", "type": "header", "data": {"text": "Part one", "level": 1}},
            {"id": "h3", "type": "header", "data": {"text": "Detail", "level": 3}},
            {"id": "l1", "type": "list", "data": {"style": "ordered", "items": ["a", {"content": "b", "items": [{"content": "c", "items": []}]}]}},
            {"id": "l2", "type": "list", "data": {"style": "unordered", "items": ["x"]}},
            {"id": "q1", "type": "quote", "data": {"text": "To be", "caption": "Hamlet"}},
            {"id": "c1", "type": "code", "data": {"code": "if a < b && c > d {}"}},
            {"id": "d1", "type": "delimiter", "data": {}},
            {"id": "i1", "type": "image", "data": {"file": {"url": "/media/0123456789abcdef0123456789abcdef.png"}, "caption": "A <i>cat</i>"}},
            {"id": "i2", "type": "image", "data": {"file": {"url": "https://example.com/b.png"}, "caption": ""}},
            {"id": "i3", "type": "image", "data": {"file": {"url": "https://example.com/c.png"}, "caption": "Dusk", "alt": "A lake under \"mist\""}},
            {"id": "e1", "type": "embed", "data": {"service": "youtube", "source": "https://youtu.be/x", "embed": "https://www.youtube.com/embed/x", "caption": ""}},
            {"id": "t1", "type": "table", "data": {"withHeadings": true, "content": [["Name", "Age"], ["Ann", "30"]]}},
            {"id": "k1", "type": "checklist", "data": {"items": [{"text": "done", "checked": true}, {"text": "todo", "checked": false}]}},
            {"id": "v1", "type": "poll", "data": {"question": "Tea or coffee?", "options": [{"text": "Tea", "votes": 0}, {"text": "Coffee", "votes": 0}]}}
        ]));
        let html = render_blocks(&b, "/post/s", &Fixed);
        assert!(html.contains("<p>Hello <b>world</b></p>"));
        assert!(
            html.contains("<h2>Part one</h2>"),
            "a level-1 header is an h2: {html}"
        );
        assert!(html.contains("<h3>Detail</h3>"));
        assert!(html.contains("<ol><li>a</li><li>b<ol><li>c</li></ol></li></ol>"));
        assert!(html.contains("<ul><li>x</li></ul>"));
        assert!(
            html.contains("<blockquote><p>To be</p></blockquote><figcaption>Hamlet</figcaption>")
        );
        assert!(html.contains("<pre><code>if a &lt; b &amp;&amp; c &gt; d {}</code></pre>"));
        assert!(html.contains("<hr>"));
        assert!(html.contains(
            "<img src=\"/media/0123456789abcdef0123456789abcdef.png\" alt=\"A cat\" width=\"640\" height=\"480\" loading=\"lazy\" decoding=\"async\">"
        ));
        assert!(html.contains("<img src=\"https://example.com/b.png\" alt=\"\" loading=\"lazy\""));
        // A picture's own text alternative wins over its caption.
        assert!(
            html.contains(
                "<img src=\"https://example.com/c.png\" alt=\"A lake under &quot;mist&quot;\""
            ),
            "{html}"
        );
        assert!(html.contains("<a href=\"https://youtu.be/x\" rel=\"noopener noreferrer nofollow\">Watch on YouTube</a>"));
        assert!(html.contains("<tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>30</td></tr>"));
        assert!(html.contains("<li>☑ done</li><li>☐ todo</li>"));
        assert!(html.contains("<a href=\"/post/s#poll-v1\">Poll: Tea or coffee?</a>"));
        assert!(!html.contains("<iframe"));
    }

    #[test]
    fn markup_stored_behind_the_servers_back_is_sanitised_again() {
        let b = blocks(json!([
            {"id": "p1", "type": "paragraph", "data": {"text": "<script>alert(1)</script><img src=x onerror=alert(2)>ok <a href=\"javascript:alert(3)\">x</a>"}},
            {"id": "i1", "type": "image", "data": {"file": {"url": "javascript:alert(4)"}, "caption": "\"><script>"}},
            {"id": "e1", "type": "embed", "data": {"service": "x", "source": "javascript:alert(5)"}}
        ]));
        let html = render_blocks(&b, "/post/s", &NoSizes);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("onerror"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains("ok"));
    }
}
