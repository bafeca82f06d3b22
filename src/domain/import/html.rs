//! Another platform's post HTML turned into the editor's blocks: headings, paragraphs, lists,
//! quotes, code, images with captions, YouTube and Vimeo players and tables become their block
//! types; what has no block (other players, audio, forms) is kept as a link or dropped, with a
//! warning naming it. Inline formatting goes through the editor's own sanitiser, so `<script>`,
//! event handlers and `javascript:` addresses never survive.
//!
//! WordPress's classic editor stores paragraphs as text separated by blank lines (its `wpautop`
//! adds the `<p>` when it shows a post): loose text is split the same way, a single line break
//! inside it kept as `<br>`.

use std::collections::BTreeSet;

use scraper::{ElementRef, Html, Node};
use serde_json::{json, Value};

use crate::domain::sanitize::{escape_html, plain_text, sanitize_inline};

/// Longest code block kept (the editor's limit).
const MAX_CODE_CHARS: usize = 50_000;
/// Deepest list nesting kept (the editor's limit); deeper items join the deepest level.
const MAX_LIST_DEPTH: usize = 5;
/// Rows and cells of a table kept (the editor's limits).
const MAX_TABLE_ROWS: usize = 200;
const MAX_TABLE_COLS: usize = 20;

/// Blocks made from one post's HTML, with what could not be kept as it was.
#[derive(Debug, Default, PartialEq)]
pub struct Converted {
    /// Editor.js blocks `{id, type, data}`, in the order of the HTML.
    pub blocks: Vec<Value>,
    /// One line per kind of loss ("An audio player was kept as a link: …").
    pub warnings: Vec<String>,
    /// The addresses of the images the blocks show, in order, each once.
    pub images: Vec<String>,
}

/// Turns a post's HTML into blocks.
pub fn html_to_blocks(html: &str) -> Converted {
    html_to_blocks_at(html, None)
}

/// Turns the HTML of the page at `base` into blocks: relative image addresses resolve against it.
pub fn html_to_blocks_at(html: &str, base: Option<&str>) -> Converted {
    let fragment = Html::parse_fragment(html);
    let mut builder = Builder {
        base: base.and_then(|b| url::Url::parse(b).ok()),
        ..Builder::default()
    };
    builder.walk(fragment.root_element(), Flow::Loose);
    builder.flush();
    // Nor does one closing it.
    if builder
        .blocks
        .last()
        .is_some_and(|b| b["type"] == "delimiter")
    {
        builder.blocks.pop();
    }
    Converted {
        blocks: builder.blocks,
        warnings: builder.warnings.into_iter().collect(),
        images: builder.images,
    }
}

/// How text met at this level reads: loose (WordPress's blank-line paragraphs) or inside an
/// element that is a paragraph already (whitespace is only spacing).
#[derive(Clone, Copy, PartialEq)]
enum Flow {
    Loose,
    InParagraph,
}

#[derive(Default)]
struct Builder {
    /// The page the HTML came from: relative image addresses resolve against it.
    base: Option<url::Url>,
    blocks: Vec<Value>,
    warnings: BTreeSet<String>,
    images: Vec<String>,
    /// Inline HTML waiting to become a paragraph.
    inline: String,
}

const INLINE_TAGS: [&str; 29] = [
    "a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "del", "dfn", "em", "font", "i", "ins",
    "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "u", "sub", "sup",
    "time", "var", "label",
];
/// Elements whose content is never text of the post.
const DROPPED: [&str; 17] = [
    "script", "style", "noscript", "template", "form", "button", "input", "select", "textarea",
    "svg", "canvas", "head", "meta", "link", "title", "map", "dialog",
];
/// Elements that end the paragraph around them and become blocks of their own.
const BLOCK_LEVEL: [&str; 20] = [
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "blockquote",
    "pre",
    "hr",
    "img",
    "figure",
    "iframe",
    "video",
    "audio",
    "table",
    "embed",
    "object",
];

fn is_inline(name: &str) -> bool {
    INLINE_TAGS.contains(&name)
}

/// Whether an element holds something that becomes a block of its own (an image in a link).
fn holds_block(el: ElementRef) -> bool {
    el.descendants()
        .filter_map(ElementRef::wrap)
        .skip(1)
        .any(|e| BLOCK_LEVEL.contains(&e.value().name()))
}

/// The inline HTML of an element's children, sanitised and trimmed.
fn inline_html(el: ElementRef) -> String {
    clean(&el.inner_html())
}

fn clean(html: &str) -> String {
    let collapsed = html.split_whitespace().collect::<Vec<_>>().join(" ");
    trim_breaks(&sanitize_inline(&collapsed))
}

/// Trims spaces and line breaks at both ends of inline HTML.
fn trim_breaks(html: &str) -> String {
    let mut s = html.trim();
    loop {
        let before = s;
        for br in ["<br>", "<br/>", "<br />"] {
            s = s.strip_prefix(br).unwrap_or(s).trim();
            s = s.strip_suffix(br).unwrap_or(s).trim();
        }
        if s == before {
            return s.to_string();
        }
    }
}

fn has_text(html: &str) -> bool {
    !plain_text(html).trim().is_empty()
}

/// A web address a page may link to or load: http(s), or protocol-relative made https.
fn web_address(raw: &str) -> Option<String> {
    let raw = raw.trim();
    let url = if let Some(rest) = raw.strip_prefix("//") {
        format!("https://{rest}")
    } else {
        raw.to_string()
    };
    let lower = url.to_ascii_lowercase();
    let ok = (lower.starts_with("http://") || lower.starts_with("https://"))
        && url.len() <= 2048
        && !url
            .chars()
            .any(|c| c.is_whitespace() || c == '"' || c == '\'' || c == '<');
    ok.then_some(url)
}

/// A YouTube or Vimeo address (a page or a player) as the editor's embed block data.
pub fn video_embed(url: &str) -> Option<Value> {
    let url = web_address(url)?;
    let without_scheme = url.split_once("://")?.1;
    let (host, path) = without_scheme
        .split_once('/')
        .unwrap_or((without_scheme, ""));
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let host = host.strip_prefix("m.").unwrap_or(host);
    let path_only = path.split(['?', '#']).next().unwrap_or("");
    let query = path.split_once('?').map(|(_, q)| q).unwrap_or("");
    let id_ok = |id: &str| {
        !id.is_empty()
            && id.len() <= 64
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let youtube = |id: &str| {
        id_ok(id).then(|| {
            json!({
                "service": "youtube",
                "source": format!("https://www.youtube.com/watch?v={id}"),
                "embed": format!("https://www.youtube.com/embed/{id}"),
                "width": 580,
                "height": 320,
                "caption": "",
            })
        })
    };
    match host {
        "youtube.com" | "youtube-nocookie.com" => {
            if let Some(id) = path_only.strip_prefix("embed/") {
                return youtube(id);
            }
            if path_only == "watch" {
                let id = query
                    .split('&')
                    .find_map(|pair| pair.strip_prefix("v="))
                    .unwrap_or("");
                return youtube(id);
            }
            if let Some(id) = path_only.strip_prefix("shorts/") {
                return youtube(id);
            }
            None
        }
        "youtu.be" => youtube(path_only),
        "vimeo.com" | "player.vimeo.com" => {
            let id = path_only.strip_prefix("video/").unwrap_or(path_only);
            (!id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) && id.len() <= 20).then(
                || {
                    json!({
                        "service": "vimeo",
                        "source": format!("https://vimeo.com/{id}"),
                        "embed": format!("https://player.vimeo.com/video/{id}"),
                        "width": 580,
                        "height": 320,
                        "caption": "",
                    })
                },
            )
        }
        _ => None,
    }
}

impl Builder {
    fn push(&mut self, kind: &str, data: Value) {
        let id = format!("imported-{}", self.blocks.len() + 1);
        self.blocks
            .push(json!({ "id": id, "type": kind, "data": data }));
    }

    fn warn(&mut self, text: String) {
        self.warnings.insert(text);
    }

    /// Ends the paragraph being gathered: a paragraph block, or a player when the paragraph is
    /// a video's address alone (WordPress turns such a line into the player).
    fn flush(&mut self) {
        let html = std::mem::take(&mut self.inline);
        let text = clean(&html);
        if !has_text(&text) {
            return;
        }
        let plain = plain_text(&text);
        if let Some(embed) = video_embed(plain.trim()) {
            if !plain.trim().contains(' ') {
                self.push("embed", embed);
                return;
            }
        }
        self.push("paragraph", json!({ "text": text }));
    }

    /// Loose text: blank lines end paragraphs, single line breaks stay as `<br>`.
    fn loose_text(&mut self, text: &str) {
        let normalised = text.replace("\r\n", "\n");
        let mut pieces = normalised.split("\n\n").peekable();
        while let Some(piece) = pieces.next() {
            let lines: Vec<&str> = piece
                .split('\n')
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            if !lines.is_empty() {
                let joined = lines
                    .iter()
                    .map(|l| escape_html(l))
                    .collect::<Vec<_>>()
                    .join("<br>");
                if self.inline.ends_with(|c: char| !c.is_whitespace())
                    && piece.starts_with(|c: char| c.is_whitespace() && c != '\n')
                {
                    self.inline.push(' ');
                }
                self.inline.push_str(&joined);
                if piece.ends_with(' ') {
                    self.inline.push(' ');
                }
            }
            if pieces.peek().is_some() {
                self.flush();
            }
        }
    }

    fn walk(&mut self, parent: ElementRef, flow: Flow) {
        for child in parent.children() {
            match child.value() {
                Node::Text(text) => {
                    if flow == Flow::Loose {
                        self.loose_text(text);
                    } else {
                        self.inline.push_str(&escape_html(text));
                    }
                }
                Node::Element(_) => {
                    let Some(el) = ElementRef::wrap(child) else {
                        continue;
                    };
                    self.element(el, flow);
                }
                _ => {}
            }
        }
    }

    fn element(&mut self, el: ElementRef, flow: Flow) {
        let name = el.value().name();
        match name {
            _ if is_inline(name) && !holds_block(el) => {
                if name == "br" {
                    self.inline.push_str("<br>");
                } else {
                    self.inline.push_str(&el.html());
                }
            }
            "p" => {
                self.flush();
                self.walk(el, Flow::InParagraph);
                self.flush();
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.flush();
                let text = inline_html(el);
                if has_text(&text) {
                    let level: u8 = name[1..].parse().unwrap_or(2);
                    self.push("header", json!({ "text": text, "level": level }));
                }
            }
            "ul" | "ol" => {
                self.flush();
                self.list(el);
            }
            "blockquote" => {
                self.flush();
                self.quote(el);
            }
            "pre" => {
                self.flush();
                self.code(el);
            }
            "hr" => {
                self.flush();
                // A divider opening the post or repeating one (Medium opens each section with
                // one) divides nothing.
                let divides = self.blocks.last().is_some_and(|b| b["type"] != "delimiter");
                if divides {
                    self.push("delimiter", json!({}));
                }
            }
            "img" => {
                self.flush();
                self.image(el, String::new());
            }
            "figure" => {
                self.flush();
                self.figure(el);
            }
            "table" => {
                self.flush();
                self.table(el);
            }
            "iframe" | "video" | "audio" | "embed" | "object" => {
                self.flush();
                self.player(el);
            }
            _ if DROPPED.contains(&name) => {
                if name == "script" {
                    self.warn("Scripts were removed.".into());
                } else if name == "form" || name == "button" || name == "input" {
                    self.warn("Forms and buttons were removed.".into());
                }
            }
            // Containers (div, section, article, an inline element around an image, …): their
            // content, in the flow they stand in.
            _ => self.walk(el, flow),
        }
    }

    fn image(&mut self, el: ElementRef, caption: String) {
        let v = el.value();
        let source = v
            .attr("src")
            .filter(|s| !s.trim().is_empty() && !s.trim_start().starts_with("data:"))
            .or_else(|| v.attr("data-src"))
            .or_else(|| {
                v.attr("srcset")
                    .and_then(|s| s.split(',').next())
                    .and_then(|s| s.split_whitespace().next())
            })
            .unwrap_or("");
        let resolved = web_address(source).or_else(|| {
            let joined = self.base.as_ref()?.join(source.trim()).ok()?;
            web_address(joined.as_str())
        });
        let Some(url) = resolved else {
            if !source.trim().is_empty() {
                let shown: String = source.chars().take(80).collect();
                self.warn(format!(
                    "An image without a full web address was left out: {shown}"
                ));
            }
            return;
        };
        let alt = v.attr("alt").map(str::trim).unwrap_or("").to_string();
        if !self.images.contains(&url) {
            self.images.push(url.clone());
        }
        self.push(
            "image",
            json!({
                "file": { "url": url },
                "caption": caption,
                "alt": alt,
                "withBorder": false,
                "stretched": false,
                "withBackground": false,
            }),
        );
    }

    fn figure(&mut self, el: ElementRef) {
        let caption = el
            .children()
            .filter_map(ElementRef::wrap)
            .find(|c| c.value().name() == "figcaption")
            .map(inline_html)
            .unwrap_or_default();
        let images: Vec<ElementRef> = el
            .descendants()
            .filter_map(ElementRef::wrap)
            .filter(|e| e.value().name() == "img")
            .collect();
        if images.len() == 1 && !holds(el, &["iframe", "table", "video", "audio"]) {
            self.image(images[0], caption);
            return;
        }
        // A player, a table, a gallery or a quote: the content, then the caption.
        for child in el.children() {
            if let Some(c) = ElementRef::wrap(child) {
                if c.value().name() == "figcaption" {
                    continue;
                }
            }
            let Some(c) = ElementRef::wrap(child) else {
                if let Node::Text(t) = child.value() {
                    self.loose_text(t);
                }
                continue;
            };
            self.element(c, Flow::Loose);
        }
        self.flush();
        if has_text(&caption) {
            // A caption for what became other blocks (a player, a gallery): kept under them.
            self.push("paragraph", json!({ "text": caption }));
        }
    }

    fn player(&mut self, el: ElementRef) {
        let v = el.value();
        let source = v
            .attr("src")
            .or_else(|| v.attr("data"))
            .or_else(|| {
                el.descendants()
                    .filter_map(ElementRef::wrap)
                    .find(|e| e.value().name() == "source")
                    .and_then(|s| s.value().attr("src"))
            })
            .unwrap_or("");
        if let Some(embed) = video_embed(source) {
            self.push("embed", embed);
            return;
        }
        let what = match v.name() {
            "audio" => "An audio player",
            "video" => "A video player",
            _ => "An embedded frame",
        };
        match web_address(source) {
            Some(url) => {
                let escaped = escape_html(&url);
                self.push(
                    "paragraph",
                    json!({ "text": sanitize_inline(&format!("<a href=\"{escaped}\">{escaped}</a>")) }),
                );
                self.warn(format!("{what} was kept as a link: {url}"));
            }
            None => self.warn(format!("{what} without a web address was left out.")),
        }
    }

    fn quote(&mut self, el: ElementRef) {
        let mut caption = String::new();
        let mut parts: Vec<String> = Vec::new();
        let mut loose = String::new();
        for child in el.children() {
            match child.value() {
                Node::Text(t) => loose.push_str(&escape_html(t)),
                Node::Element(_) => {
                    let Some(c) = ElementRef::wrap(child) else {
                        continue;
                    };
                    match c.value().name() {
                        "cite" | "footer" => caption = inline_html(c),
                        "p" | "div" => {
                            if has_text(&loose) {
                                parts.push(clean(&loose));
                            }
                            loose.clear();
                            parts.push(inline_html(c));
                        }
                        _ => loose.push_str(&c.html()),
                    }
                }
                _ => {}
            }
        }
        if has_text(&loose) {
            parts.push(clean(&loose));
        }
        let text = parts
            .into_iter()
            .filter(|p| has_text(p))
            .collect::<Vec<_>>()
            .join("<br>");
        if !has_text(&text) {
            return;
        }
        if el.value().classes().any(|c| c == "twitter-tweet") {
            self.warn("A post from X (Twitter) was kept as a quote.".into());
        }
        self.push(
            "quote",
            json!({ "text": text, "caption": caption, "alignment": "left" }),
        );
    }

    fn code(&mut self, el: ElementRef) {
        let code: String = el.text().collect();
        let code = code.trim_matches('\n').to_string();
        if code.trim().is_empty() {
            return;
        }
        let kept: String = if code.chars().count() > MAX_CODE_CHARS {
            self.warn(format!(
                "A code block longer than {MAX_CODE_CHARS} characters was shortened."
            ));
            code.chars().take(MAX_CODE_CHARS).collect()
        } else {
            code
        };
        self.push("code", json!({ "code": kept }));
    }

    fn list(&mut self, el: ElementRef) {
        let style = if el.value().name() == "ol" {
            "ordered"
        } else {
            "unordered"
        };
        let mut truncated = false;
        let items = list_items(el, 1, &mut truncated);
        if truncated {
            self.warn(format!(
                "Lists nested deeper than {MAX_LIST_DEPTH} levels were flattened."
            ));
        }
        if items.is_empty() {
            return;
        }
        self.push(
            "list",
            json!({ "style": style, "meta": {}, "items": items }),
        );
    }

    fn table(&mut self, el: ElementRef) {
        let rows: Vec<ElementRef> = el
            .descendants()
            .filter_map(ElementRef::wrap)
            .filter(|e| e.value().name() == "tr")
            .collect();
        if rows.is_empty() {
            return;
        }
        let mut with_headings = false;
        let mut content: Vec<Value> = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let cells: Vec<ElementRef> = row
                .children()
                .filter_map(ElementRef::wrap)
                .filter(|c| matches!(c.value().name(), "td" | "th"))
                .collect();
            if i == 0 {
                with_headings = !cells.is_empty() && cells.iter().all(|c| c.value().name() == "th");
            }
            if cells.len() > MAX_TABLE_COLS {
                self.warn(format!(
                    "A table wider than {MAX_TABLE_COLS} columns was cut to {MAX_TABLE_COLS}."
                ));
            }
            let row: Vec<Value> = cells
                .into_iter()
                .take(MAX_TABLE_COLS)
                .map(|c| Value::String(inline_html(c)))
                .collect();
            content.push(Value::Array(row));
        }
        if content.len() > MAX_TABLE_ROWS {
            self.warn(format!(
                "A table longer than {MAX_TABLE_ROWS} rows was cut to {MAX_TABLE_ROWS}."
            ));
            content.truncate(MAX_TABLE_ROWS);
        }
        self.push(
            "table",
            json!({ "withHeadings": with_headings, "content": content }),
        );
    }
}

fn holds(el: ElementRef, names: &[&str]) -> bool {
    el.descendants()
        .filter_map(ElementRef::wrap)
        .any(|e| names.contains(&e.value().name()))
}

/// A list's items as the editor's nested list items `{content, meta, items}`.
fn list_items(list: ElementRef, depth: usize, truncated: &mut bool) -> Vec<Value> {
    let mut out = Vec::new();
    for li in list
        .children()
        .filter_map(ElementRef::wrap)
        .filter(|c| c.value().name() == "li")
    {
        let mut content = String::new();
        let mut nested: Vec<Value> = Vec::new();
        let mut lifted: Vec<Value> = Vec::new();
        for child in li.children() {
            match child.value() {
                Node::Text(t) => content.push_str(&escape_html(t)),
                Node::Element(_) => {
                    let Some(c) = ElementRef::wrap(child) else {
                        continue;
                    };
                    match c.value().name() {
                        "ul" | "ol" => {
                            let items = list_items(c, depth + 1, truncated);
                            if depth < MAX_LIST_DEPTH {
                                nested.extend(items);
                            } else {
                                *truncated = true;
                                lifted.extend(items);
                            }
                        }
                        "p" | "div" => {
                            if !content.trim().is_empty() {
                                content.push_str("<br>");
                            }
                            content.push_str(&c.inner_html());
                        }
                        _ => content.push_str(&c.html()),
                    }
                }
                _ => {}
            }
        }
        out.push(json!({ "content": clean(&content), "meta": {}, "items": nested }));
        // Items deeper than the editor allows follow their parent at its level.
        out.extend(lifted);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(c: &Converted) -> Vec<&str> {
        c.blocks
            .iter()
            .map(|b| b["type"].as_str().unwrap())
            .collect()
    }

    #[test]
    fn headings_paragraphs_and_inline_formatting() {
        let c = html_to_blocks(
            "<h2>My <em>excerpt</em></h2><p>Plain <strong>bold</strong> and <a href=\"https://example.com\" onclick=\"x()\">a link</a>.</p>",
        );
        assert_eq!(types(&c), ["header", "paragraph"]);
        accepted(&c);
        assert_eq!(c.blocks[0]["data"]["level"], 2);
        assert_eq!(c.blocks[0]["data"]["text"], "My <em>excerpt</em>");
        let text = c.blocks[1]["data"]["text"].as_str().unwrap();
        assert!(
            text.starts_with("Plain <strong>bold</strong> and <a href=\"https://example.com\""),
            "{text}"
        );
        assert!(!text.contains("onclick"), "{text}");
        assert!(c.warnings.is_empty());
    }

    #[test]
    fn scripts_handlers_and_javascript_addresses_never_survive() {
        let c = html_to_blocks(
            "<p>Hi<script>alert(1)</script> <a href=\"javascript:alert(2)\">there</a><img src=x onerror=alert(3)></p><script>steal()</script><div onmouseover=\"bad()\">Text</div>",
        );
        let all = serde_json::to_string(&c.blocks).unwrap();
        for bad in [
            "alert",
            "javascript:",
            "onerror",
            "onmouseover",
            "steal",
            "<script",
        ] {
            assert!(!all.contains(bad), "{bad} in {all}");
        }
        assert!(all.contains("there"), "{all}");
        assert!(
            c.warnings.iter().any(|w| w == "Scripts were removed."),
            "{:?}",
            c.warnings
        );
        assert!(
            c.warnings
                .iter()
                .any(|w| w.starts_with("An image without a full web address")),
            "{:?}",
            c.warnings
        );
    }

    #[test]
    fn wordpress_loose_text_splits_on_blank_lines() {
        let c = html_to_blocks(
            "First line\nstill first\n\nSecond <em>para</em>\n\n\n<h3>Head</h3>Third",
        );
        assert_eq!(types(&c), ["paragraph", "paragraph", "header", "paragraph"]);
        assert_eq!(c.blocks[0]["data"]["text"], "First line<br>still first");
        assert_eq!(c.blocks[1]["data"]["text"], "Second <em>para</em>");
        assert_eq!(c.blocks[2]["data"]["level"], 3);
        assert_eq!(c.blocks[3]["data"]["text"], "Third");
    }

    #[test]
    fn indented_html_is_only_spacing() {
        let c = html_to_blocks(
            "<section>\n    <div>\n        <p class=\"graf\">\n            This is a paragraph\n            of text.\n        </p>\n    </div>\n</section>",
        );
        assert_eq!(types(&c), ["paragraph"]);
        assert_eq!(c.blocks[0]["data"]["text"], "This is a paragraph of text.");
    }

    #[test]
    fn images_with_captions_and_alt_and_an_image_inside_a_paragraph() {
        let c = html_to_blocks(
            "<figure class=\"wp-block-image\"><img src=\"https://example.com/a.jpg\" alt=\"A lake\"><figcaption>At <em>dawn</em></figcaption></figure>\
             <p>Before <a href=\"https://example.com/b.jpg\"><img src=\"//cdn.example.com/b.jpg\"></a> after</p>",
        );
        assert_eq!(types(&c), ["image", "paragraph", "image", "paragraph"]);
        accepted(&c);
        assert_eq!(
            c.blocks[0]["data"]["file"]["url"],
            "https://example.com/a.jpg"
        );
        assert_eq!(c.blocks[0]["data"]["caption"], "At <em>dawn</em>");
        assert_eq!(c.blocks[0]["data"]["alt"], "A lake");
        assert_eq!(c.blocks[1]["data"]["text"], "Before");
        assert_eq!(
            c.blocks[2]["data"]["file"]["url"],
            "https://cdn.example.com/b.jpg"
        );
        assert_eq!(c.blocks[3]["data"]["text"], "after");
        assert_eq!(
            c.images,
            ["https://example.com/a.jpg", "https://cdn.example.com/b.jpg"]
        );
    }

    #[test]
    fn nested_lists_keep_their_levels() {
        let c = html_to_blocks(
            "<ol><li>One<ul><li>One <b>a</b></li></ul></li><li><p>Two</p></li></ol>",
        );
        assert_eq!(types(&c), ["list"]);
        accepted(&c);
        let data = &c.blocks[0]["data"];
        assert_eq!(data["style"], "ordered");
        assert_eq!(data["items"][0]["content"], "One");
        assert_eq!(data["items"][0]["items"][0]["content"], "One <b>a</b>");
        assert_eq!(data["items"][1]["content"], "Two");
    }

    #[test]
    fn quotes_code_delimiters_and_tables() {
        let c = html_to_blocks(
            "<blockquote class=\"wp-block-quote\"><p>To be</p><p>or not</p><cite>Hamlet</cite></blockquote>\
             <pre class=\"wp-block-code\"><code>fn main() {\n    println!(\"&lt;hi&gt;\");\n}</code></pre><hr>\
             <table><thead><tr><th>Name</th><th>Age</th></tr></thead><tbody><tr><td>Ann</td><td><b>30</b></td></tr></tbody></table>",
        );
        assert_eq!(types(&c), ["quote", "code", "delimiter", "table"]);
        accepted(&c);
        assert_eq!(c.blocks[0]["data"]["text"], "To be<br>or not");
        assert_eq!(c.blocks[0]["data"]["caption"], "Hamlet");
        assert_eq!(
            c.blocks[1]["data"]["code"],
            "fn main() {\n    println!(\"<hi>\");\n}"
        );
        assert_eq!(c.blocks[3]["data"]["withHeadings"], true);
        assert_eq!(c.blocks[3]["data"]["content"][1][1], "<b>30</b>");
    }

    #[test]
    fn videos_become_players_and_other_media_links() {
        let c = html_to_blocks(
            "<iframe src=\"https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed\"></iframe>\
             <figure class=\"wp-block-embed is-provider-vimeo\"><div class=\"wp-block-embed__wrapper\">\nhttps://vimeo.com/76979871\n</div></figure>\
             <p>https://youtu.be/abcDEF12345</p>\
             <audio controls src=\"https://example.com/episode.mp3\"></audio>\
             <iframe src=\"https://maps.example.com/embed?x=1\"></iframe>",
        );
        assert_eq!(
            types(&c),
            ["embed", "embed", "embed", "paragraph", "paragraph"]
        );
        assert_eq!(
            c.blocks[0]["data"]["embed"],
            "https://www.youtube.com/embed/dQw4w9WgXcQ"
        );
        assert_eq!(
            c.blocks[1]["data"]["embed"],
            "https://player.vimeo.com/video/76979871"
        );
        assert_eq!(
            c.blocks[2]["data"]["source"],
            "https://www.youtube.com/watch?v=abcDEF12345"
        );
        assert!(c.blocks[3]["data"]["text"]
            .as_str()
            .unwrap()
            .contains("href=\"https://example.com/episode.mp3\""));
        assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
        assert!(c
            .warnings
            .iter()
            .any(|w| w.starts_with("An audio player was kept as a link")));
    }

    #[test]
    fn lists_deeper_than_the_editor_allows_join_the_deepest_level() {
        let mut html = String::from("<ul><li>1");
        for depth in 2..=7 {
            html.push_str(&format!("<ul><li>{depth}"));
        }
        html.push_str(&"</li></ul>".repeat(7));
        let c = html_to_blocks(&html);
        let mut level = &c.blocks[0]["data"]["items"];
        let mut seen = Vec::new();
        while let Some(first) = level.as_array().and_then(|a| a.first()) {
            seen.push(
                level
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i["content"].as_str().unwrap().to_string())
                    .collect::<Vec<_>>(),
            );
            level = &first["items"];
        }
        assert_eq!(seen.len(), MAX_LIST_DEPTH, "{seen:?}");
        accepted(&c);
        assert_eq!(seen[MAX_LIST_DEPTH - 1], ["5", "6", "7"]);
        assert_eq!(
            c.warnings,
            [format!(
                "Lists nested deeper than {MAX_LIST_DEPTH} levels were flattened."
            )]
        );
    }

    fn fixture(path: &str) -> String {
        let full = super::super::fixture_path(path);
        std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
    }

    /// What the converter makes is what the editor's own parser accepts.
    fn accepted(c: &Converted) {
        let parsed = crate::domain::blocks::parse_blocks(&Value::Array(c.blocks.clone()))
            .unwrap_or_else(|e| panic!("{e:?}: {:#}", Value::Array(c.blocks.clone())));
        assert_eq!(parsed.len(), c.blocks.len());
    }

    #[test]
    fn a_medium_post_body() {
        let page = fixture("medium/posts/quote-post.html");
        let doc = Html::parse_document(&page);
        let body = doc
            .select(&scraper::Selector::parse("section[data-field=body]").unwrap())
            .next()
            .expect("a body section");
        let c = html_to_blocks(&body.inner_html());
        assert_eq!(
            c.blocks[0]["type"], "paragraph",
            "the section's opening divider divides nothing"
        );
        assert!(c
            .blocks
            .iter()
            .all(|b| b["type"] != "paragraph" || has_text(b["data"]["text"].as_str().unwrap())));
    }

    #[test]
    fn a_substack_post() {
        let c = html_to_blocks(&fixture("substack/posts/123401.plain-text.html"));
        assert_eq!(c.blocks[0]["type"], "header");
        assert_eq!(c.blocks[0]["data"]["text"], "Lorem Ipsum");
        assert!(c.blocks.iter().any(|b| b["type"] == "delimiter"));
        accepted(&c);
    }

    #[test]
    fn a_player_figure_keeps_its_caption_under_it() {
        let c = html_to_blocks(
            "<figure><iframe src=\"https://player.vimeo.com/video/76979871\"></iframe><figcaption>The <em>talk</em></figcaption></figure>",
        );
        assert_eq!(types(&c), ["embed", "paragraph"]);
        assert_eq!(c.blocks[1]["data"]["text"], "The <em>talk</em>");
        accepted(&c);
    }

    #[test]
    fn nothing_in_nothing_out() {
        assert!(html_to_blocks("").blocks.is_empty());
        assert!(html_to_blocks("<hr><hr>").blocks.is_empty());
        let c = html_to_blocks("<hr><p>a</p><hr><hr><p>b</p><hr>");
        assert_eq!(types(&c), ["paragraph", "delimiter", "paragraph"]);
        assert!(html_to_blocks("<p> </p>\n\n<div><br></div>")
            .blocks
            .is_empty());
    }
}
