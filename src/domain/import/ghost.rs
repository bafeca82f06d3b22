//! Ghost's JSON export (versions 2 to 5, `db[0].data`): posts and pages with their tags, status
//! and dates. A post's HTML is Ghost's own `html` where the export has it; otherwise it is
//! rendered here from the post's `lexical` (Ghost 5) or `mobiledoc` (Ghost 2-4) document, the
//! common cards included, with a warning naming any card that has no rendering.

use super::ReadError;
use crate::domain::sanitize::escape_html as escape;
use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

/// A post or page of a Ghost export.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GhostPost {
    pub id: String,
    pub title: String,
    pub slug: Option<String>,
    /// The post's HTML (Ghost's, or rendered from its document).
    pub html: String,
    pub page: bool,
    /// published, draft, scheduled (or sent: an email-only post).
    pub status: String,
    /// public, members, paid, tiers.
    pub visibility: String,
    pub published_at: Option<DateTime<Utc>>,
    pub excerpt: String,
    pub feature_image: Option<String>,
    pub canonical_url: Option<String>,
    /// Tag names, in the post's order.
    pub tags: Vec<String>,
    /// What could not be rendered as it was.
    pub warnings: Vec<String>,
}

#[derive(Deserialize, Default)]
struct Data {
    #[serde(default)]
    posts: Vec<Value>,
    #[serde(default)]
    tags: Vec<Value>,
    #[serde(default)]
    posts_tags: Vec<Value>,
}

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim()
        .to_string()
}

fn some_text(v: &Value, key: &str) -> Option<String> {
    Some(text(v, key)).filter(|s| !s.is_empty())
}

fn date(v: &Value, key: &str) -> Option<DateTime<Utc>> {
    let raw = text(v, key);
    DateTime::parse_from_rfc3339(&raw)
        .map(|d| d.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            // Ghost 2-3 wrote "2019-01-01 10:00:00" (UTC), or a number of milliseconds.
            chrono::NaiveDateTime::parse_from_str(&raw, "%Y-%m-%d %H:%M:%S")
                .ok()
                .map(|d| d.and_utc())
        })
        .or_else(|| {
            v.get(key)
                .and_then(Value::as_i64)
                .and_then(DateTime::from_timestamp_millis)
        })
}

/// Reads a Ghost export's JSON.
pub fn read_ghost(bytes: &[u8]) -> Result<Vec<GhostPost>, ReadError> {
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| {
        ReadError(format!(
            "The Ghost export is not valid JSON at line {}, column {}: {e}",
            e.line(),
            e.column()
        ))
    })?;
    let data = doc
        .pointer("/db/0/data")
        .or_else(|| doc.get("data"))
        .ok_or_else(|| {
            ReadError(
                "This is not a Ghost export: it has no db[0].data (or data) with posts".into(),
            )
        })?;
    let data: Data = serde_json::from_value(data.clone())
        .map_err(|e| ReadError(format!("The Ghost export's data could not be read: {e}")))?;
    let tag_names: HashMap<String, String> = data
        .tags
        .iter()
        .map(|t| (text(t, "id"), text(t, "name")))
        .collect();
    let mut post_tags: HashMap<String, Vec<(i64, String)>> = HashMap::new();
    for link in &data.posts_tags {
        let (post, tag) = (text(link, "post_id"), text(link, "tag_id"));
        if let Some(name) = tag_names.get(&tag).filter(|n| !n.is_empty()) {
            let order = link.get("sort_order").and_then(Value::as_i64).unwrap_or(0);
            post_tags
                .entry(post)
                .or_default()
                .push((order, name.clone()));
        }
    }
    let mut posts = Vec::with_capacity(data.posts.len());
    for (i, p) in data.posts.iter().enumerate() {
        let id =
            some_text(p, "id").ok_or_else(|| ReadError(format!("Post {} has no id", i + 1)))?;
        let mut warnings = Vec::new();
        let html = match some_text(p, "html") {
            Some(html) => html,
            None => match (some_text(p, "lexical"), some_text(p, "mobiledoc")) {
                (Some(lexical), _) => render_document(&lexical, lexical_html, &mut warnings),
                (None, Some(mobiledoc)) => {
                    render_document(&mobiledoc, mobiledoc_html, &mut warnings)
                }
                (None, None) => String::new(),
            },
        };
        let page =
            p.get("page").and_then(Value::as_bool).unwrap_or(false) || text(p, "type") == "page";
        let mut tags = post_tags.remove(&id).unwrap_or_default();
        tags.sort_by_key(|(order, _)| *order);
        posts.push(GhostPost {
            title: text(p, "title"),
            slug: some_text(p, "slug"),
            html,
            page,
            status: some_text(p, "status").unwrap_or_else(|| "draft".into()),
            visibility: some_text(p, "visibility").unwrap_or_else(|| "public".into()),
            published_at: date(p, "published_at"),
            excerpt: some_text(p, "custom_excerpt").unwrap_or_default(),
            feature_image: some_text(p, "feature_image"),
            canonical_url: some_text(p, "canonical_url"),
            tags: tags.into_iter().map(|(_, name)| name).collect(),
            warnings,
            id,
        });
    }
    Ok(posts)
}

fn render_document(
    raw: &str,
    render: fn(&Value, &mut Vec<String>) -> String,
    warnings: &mut Vec<String>,
) -> String {
    match serde_json::from_str::<Value>(raw) {
        Ok(doc) => render(&doc, warnings),
        Err(_) => {
            warnings.push("The post's document could not be read; it was imported empty.".into());
            String::new()
        }
    }
}

fn unknown_card(name: &str, warnings: &mut Vec<String>) {
    let warning = format!("A Ghost \"{name}\" card has no equivalent and was left out.");
    if !warnings.contains(&warning) {
        warnings.push(warning);
    }
}

/// Ghost's cards, shared by both document kinds: the HTML each becomes.
fn card_html(name: &str, payload: &Value, warnings: &mut Vec<String>) -> String {
    let s = |k: &str| text(payload, k);
    match name {
        "image" => {
            let caption = s("caption");
            format!(
                "<figure><img src=\"{}\" alt=\"{}\">{}</figure>",
                escape(&s("src")),
                escape(&s("alt")),
                if caption.is_empty() {
                    String::new()
                } else {
                    format!("<figcaption>{caption}</figcaption>")
                }
            )
        }
        "gallery" => payload
            .get("images")
            .and_then(Value::as_array)
            .map(|images| {
                images
                    .iter()
                    .map(|i| {
                        format!(
                            "<figure><img src=\"{}\" alt=\"{}\"></figure>",
                            escape(&text(i, "src")),
                            escape(&text(i, "alt"))
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        "html" => s("html"),
        "markdown" => {
            warnings.push("A Markdown card was imported as plain text.".into());
            s("markdown")
                .split("\n\n")
                .filter(|p| !p.trim().is_empty())
                .map(|p| format!("<p>{}</p>", escape(p.trim())))
                .collect()
        }
        "code" | "codeblock" => format!(
            "<pre><code>{}</code></pre>",
            escape(payload.get("code").and_then(Value::as_str).unwrap_or(""))
        ),
        "hr" | "horizontalrule" => "<hr>".into(),
        "embed" => {
            let url = s("url");
            if url.is_empty() {
                s("html")
            } else {
                format!("<p>{}</p>", escape(&url))
            }
        }
        "bookmark" => {
            let url = s("url");
            let title = payload
                .pointer("/metadata/title")
                .and_then(Value::as_str)
                .unwrap_or(&url)
                .to_string();
            format!("<p><a href=\"{}\">{}</a></p>", escape(&url), escape(&title))
        }
        "audio" | "video" | "file" => {
            let url = s("src");
            format!("<{name} src=\"{}\"></{name}>", escape(&url))
        }
        "paywall" => String::new(),
        other => {
            unknown_card(other, warnings);
            String::new()
        }
    }
}

/// Mobiledoc 0.3 (Ghost 2-4): sections of markers with markups, and cards.
pub fn mobiledoc_html(doc: &Value, warnings: &mut Vec<String>) -> String {
    let empty = Vec::new();
    let list = |k: &str| doc.get(k).and_then(Value::as_array).unwrap_or(&empty);
    let markups: Vec<(String, Vec<(String, String)>)> = list("markups")
        .iter()
        .map(|m| {
            let tag = m
                .get(0)
                .and_then(Value::as_str)
                .unwrap_or("span")
                .to_ascii_lowercase();
            let attrs = m
                .get(1)
                .and_then(Value::as_array)
                .map(|a| {
                    a.chunks(2)
                        .filter_map(|pair| {
                            Some((
                                pair.first()?.as_str()?.to_string(),
                                pair.get(1)?.as_str()?.to_string(),
                            ))
                        })
                        .collect()
                })
                .unwrap_or_default();
            (tag, attrs)
        })
        .collect();
    let cards = list("cards");
    let atoms = list("atoms");
    let markers_html = |markers: &Value| -> String {
        let mut out = String::new();
        let mut open: Vec<String> = Vec::new();
        for marker in markers.as_array().unwrap_or(&empty) {
            let kind = marker.get(0).and_then(Value::as_i64).unwrap_or(0);
            for index in marker.get(1).and_then(Value::as_array).unwrap_or(&empty) {
                if let Some((tag, attrs)) = index.as_u64().and_then(|i| markups.get(i as usize)) {
                    out.push('<');
                    out.push_str(tag);
                    for (name, value) in attrs {
                        out.push_str(&format!(" {name}=\"{}\"", escape(value)));
                    }
                    out.push('>');
                    open.push(tag.clone());
                }
            }
            let value = marker.get(3);
            if kind == 0 {
                out.push_str(&escape(value.and_then(Value::as_str).unwrap_or("")));
            } else if let Some(atom) = value
                .and_then(Value::as_u64)
                .and_then(|i| atoms.get(i as usize))
            {
                // An atom (a soft line break, a mention): its text.
                if atom.get(0).and_then(Value::as_str) == Some("soft-return") {
                    out.push_str("<br>");
                } else {
                    out.push_str(&escape(atom.get(1).and_then(Value::as_str).unwrap_or("")));
                }
            }
            let closed = marker.get(2).and_then(Value::as_u64).unwrap_or(0) as usize;
            for _ in 0..closed.min(open.len()) {
                if let Some(tag) = open.pop() {
                    out.push_str(&format!("</{tag}>"));
                }
            }
        }
        while let Some(tag) = open.pop() {
            out.push_str(&format!("</{tag}>"));
        }
        out
    };
    let mut html = String::new();
    for section in list("sections") {
        let kind = section.get(0).and_then(Value::as_i64).unwrap_or(-1);
        match kind {
            1 => {
                let tag = section
                    .get(1)
                    .and_then(Value::as_str)
                    .unwrap_or("p")
                    .to_ascii_lowercase();
                let tag = if ["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote"]
                    .contains(&tag.as_str())
                {
                    tag
                } else {
                    "p".into()
                };
                html.push_str(&format!(
                    "<{tag}>{}</{tag}>",
                    markers_html(section.get(2).unwrap_or(&Value::Null))
                ));
            }
            3 => {
                let tag = if section.get(1).and_then(Value::as_str) == Some("ol") {
                    "ol"
                } else {
                    "ul"
                };
                html.push_str(&format!("<{tag}>"));
                for item in section.get(2).and_then(Value::as_array).unwrap_or(&empty) {
                    html.push_str(&format!("<li>{}</li>", markers_html(item)));
                }
                html.push_str(&format!("</{tag}>"));
            }
            2 => html.push_str(&format!(
                "<img src=\"{}\">",
                escape(section.get(1).and_then(Value::as_str).unwrap_or(""))
            )),
            10 => {
                if let Some(card) = section
                    .get(1)
                    .and_then(Value::as_u64)
                    .and_then(|i| cards.get(i as usize))
                {
                    let name = card.get(0).and_then(Value::as_str).unwrap_or("");
                    html.push_str(&card_html(
                        name,
                        card.get(1).unwrap_or(&Value::Null),
                        warnings,
                    ));
                }
            }
            _ => {}
        }
    }
    html
}

/// Lexical (Ghost 5): a tree of element nodes and formatted text.
pub fn lexical_html(doc: &Value, warnings: &mut Vec<String>) -> String {
    let mut out = String::new();
    for node in doc
        .pointer("/root/children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        lexical_node(node, warnings, &mut out);
    }
    out
}

fn lexical_children(node: &Value, warnings: &mut Vec<String>, out: &mut String) {
    for child in node
        .get("children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        lexical_node(child, warnings, out);
    }
}

fn lexical_node(node: &Value, warnings: &mut Vec<String>, out: &mut String) {
    let kind = text(node, "type");
    let wrap = |tag: &str, warnings: &mut Vec<String>, out: &mut String| {
        out.push_str(&format!("<{tag}>"));
        lexical_children(node, warnings, out);
        out.push_str(&format!("</{tag}>"));
    };
    match kind.as_str() {
        "paragraph" => wrap("p", warnings, out),
        "heading" | "extended-heading" => {
            let tag = text(node, "tag");
            let tag = if ["h1", "h2", "h3", "h4", "h5", "h6"].contains(&tag.as_str()) {
                tag
            } else {
                "h2".into()
            };
            wrap(&tag, warnings, out);
        }
        "quote" | "extended-quote" | "aside" => wrap("blockquote", warnings, out),
        "list" => wrap(
            if text(node, "listType") == "number" {
                "ol"
            } else {
                "ul"
            },
            warnings,
            out,
        ),
        "listitem" => wrap("li", warnings, out),
        "link" | "autolink" => {
            out.push_str(&format!("<a href=\"{}\">", escape(&text(node, "url"))));
            lexical_children(node, warnings, out);
            out.push_str("</a>");
        }
        "linebreak" => out.push_str("<br>"),
        "text" | "extended-text" => {
            let format = node.get("format").and_then(Value::as_u64).unwrap_or(0);
            let tags: Vec<&str> = [
                (1, "strong"),
                (2, "em"),
                (4, "s"),
                (8, "u"),
                (16, "code"),
                (32, "sub"),
                (64, "sup"),
            ]
            .iter()
            .filter(|(bit, _)| format & bit != 0)
            .map(|(_, tag)| *tag)
            .collect();
            for tag in &tags {
                out.push_str(&format!("<{tag}>"));
            }
            out.push_str(&escape(
                node.get("text").and_then(Value::as_str).unwrap_or(""),
            ));
            for tag in tags.iter().rev() {
                out.push_str(&format!("</{tag}>"));
            }
        }
        // Cards: a decorator node whose own keys are the card's payload.
        other => out.push_str(&card_html(other, node, warnings)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_ghost_5_export_with_html_tags_and_statuses() {
        let export = json!({"db": [{"meta": {"version": "5.80.0"}, "data": {
            "posts": [
                {"id": "p1", "title": "Hello", "slug": "hello", "html": "<p>Hi</p>", "type": "post",
                 "status": "published", "visibility": "paid", "published_at": "2024-01-02T03:04:05.000Z",
                 "custom_excerpt": "Short", "feature_image": "https://ghost.example/a.jpg"},
                {"id": "p2", "title": "About", "slug": "about", "html": "<p>Us</p>", "type": "page", "status": "draft"}
            ],
            "tags": [{"id": "t1", "name": "News"}, {"id": "t2", "name": "Rust"}],
            "posts_tags": [{"post_id": "p1", "tag_id": "t2", "sort_order": 1}, {"post_id": "p1", "tag_id": "t1", "sort_order": 0}]
        }}]});
        let posts = read_ghost(export.to_string().as_bytes()).unwrap();
        assert_eq!(posts.len(), 2);
        assert_eq!(posts[0].tags, ["News", "Rust"]);
        assert_eq!(posts[0].visibility, "paid");
        assert_eq!(
            posts[0].published_at.unwrap().to_rfc3339(),
            "2024-01-02T03:04:05+00:00"
        );
        assert_eq!(
            posts[0].feature_image.as_deref(),
            Some("https://ghost.example/a.jpg")
        );
        assert!(posts[1].page);
        assert_eq!(posts[1].status, "draft");
    }

    #[test]
    fn mobiledoc_is_rendered_where_there_is_no_html() {
        let mobiledoc = json!({"version": "0.3.1", "atoms": [["soft-return", "", {}]],
            "markups": [["strong"], ["a", ["href", "https://example.com"]]],
            "cards": [["image", {"src": "https://ghost.example/i.jpg", "caption": "A <em>lake</em>", "alt": "lake"}],
                      ["code", {"code": "let a = 1 < 2;"}], ["toggle", {}]],
            "sections": [[1, "h2", [[0, [], 0, "Title"]]],
                         [1, "p", [[0, [0], 1, "Bold"], [0, [], 0, " and "], [0, [1], 1, "link"], [1, [], 0, 0], [0, [], 0, "next"]]],
                         [3, "ol", [[[0, [], 0, "one"]], [[0, [], 0, "two"]]]],
                         [10, 0], [10, 1], [10, 2]]});
        let export = json!({"data": {"posts": [{"id": "m", "title": "M", "page": false, "mobiledoc": mobiledoc.to_string(), "published_at": "2019-05-01 10:00:00"}]}});
        let posts = read_ghost(export.to_string().as_bytes()).unwrap();
        let html = &posts[0].html;
        assert!(html.starts_with("<h2>Title</h2><p><strong>Bold</strong> and <a href=\"https://example.com\">link</a><br>next</p><ol><li>one</li><li>two</li></ol>"), "{html}");
        assert!(html.contains("<figure><img src=\"https://ghost.example/i.jpg\" alt=\"lake\"><figcaption>A <em>lake</em></figcaption></figure>"), "{html}");
        assert!(
            html.contains("<pre><code>let a = 1 &lt; 2;</code></pre>"),
            "{html}"
        );
        assert_eq!(
            posts[0].warnings,
            ["A Ghost \"toggle\" card has no equivalent and was left out."]
        );
        assert_eq!(
            posts[0].published_at.unwrap().to_rfc3339(),
            "2019-05-01T10:00:00+00:00"
        );
    }

    #[test]
    fn lexical_is_rendered_where_there_is_no_html() {
        let lexical = json!({"root": {"children": [
            {"type": "heading", "tag": "h3", "children": [{"type": "text", "text": "Head", "format": 0}]},
            {"type": "paragraph", "children": [{"type": "text", "text": "bold italic", "format": 3},
                {"type": "linebreak"}, {"type": "link", "url": "https://x.example", "children": [{"type": "text", "text": "x", "format": 0}]}]},
            {"type": "list", "listType": "bullet", "children": [{"type": "listitem", "children": [{"type": "text", "text": "a", "format": 0}]}]},
            {"type": "horizontalrule"},
            {"type": "image", "src": "https://ghost.example/j.jpg", "alt": "j", "caption": ""}]}});
        let export = json!({"db": [{"data": {"posts": [{"id": "l", "title": "L", "lexical": lexical.to_string(), "html": null}]}}]});
        let posts = read_ghost(export.to_string().as_bytes()).unwrap();
        assert_eq!(posts[0].html, "<h3>Head</h3><p><strong><em>bold italic</em></strong><br><a href=\"https://x.example\">x</a></p><ul><li>a</li></ul><hr><figure><img src=\"https://ghost.example/j.jpg\" alt=\"j\"></figure>");
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let err = read_ghost(b"{\"db\": [").unwrap_err();
        assert!(err.0.contains("not valid JSON at line 1"), "{err}");
        let err = read_ghost(b"{\"posts\": []}").unwrap_err();
        assert!(err.0.starts_with("This is not a Ghost export"), "{err}");
        let err = read_ghost(b"{\"data\": {\"posts\": [{\"title\": \"x\"}]}}").unwrap_err();
        assert_eq!(err.0, "Post 1 has no id");
        let posts =
            read_ghost(b"{\"data\": {\"posts\": [{\"id\": \"1\", \"mobiledoc\": \"{not json\"}]}}")
                .unwrap();
        assert_eq!(posts[0].html, "");
        assert_eq!(posts[0].warnings.len(), 1);
    }
}
