//! Server-side sanitising of the inline HTML that editors put in block text, and the plain text
//! of such HTML for search and reading time.
//!
//! Allowed: simple inline formatting (`b`, `strong`, `i`, `em`, `u`, `s`, `mark`, `code`, `sub`,
//! `sup`, `br`, `span`) and links to `http`, `https` and `mailto` addresses, which get
//! `rel="noopener noreferrer nofollow"`. Everything else is removed (script and style with their
//! content); attributes other than `href` on links and the editor's own marker classes go too.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

static INLINE: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut builder = ammonia::Builder::default();
    builder
        .tags(HashSet::from([
            "b", "strong", "i", "em", "u", "s", "mark", "code", "sub", "sup", "br", "span", "a",
        ]))
        .generic_attributes(HashSet::new())
        .generic_attribute_prefixes(HashSet::new())
        .tag_attributes(HashMap::from([("a", HashSet::from(["href"]))]))
        .allowed_classes(HashMap::from([
            ("mark", HashSet::from(["cdx-marker"])),
            ("code", HashSet::from(["inline-code"])),
            ("u", HashSet::from(["cdx-underline"])),
        ]))
        .url_schemes(HashSet::from(["http", "https", "mailto"]))
        .url_relative(ammonia::UrlRelative::Deny)
        .link_rel(Some("noopener noreferrer nofollow"))
        .strip_comments(true);
    builder
});

/// Sanitises inline HTML from a block's text.
pub fn sanitize_inline(html: &str) -> String {
    INLINE.clean(html).to_string()
}

/// Escapes text or an attribute value for HTML (`&`, `<`, `>`, `"`, `'`).
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The first `max` characters of a text (whitespace collapsed), cut at a word and ended with `…`
/// when shortened: excerpts, descriptions and headlines.
pub fn clip(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max).collect();
    if let Some(space) = cut.rfind(' ') {
        cut.truncate(space);
    }
    cut.push('…');
    cut
}

/// The readable text of an HTML fragment: tags dropped, the common entities decoded.
pub fn plain_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match (in_tag, c) {
            (false, '<') => in_tag = true,
            (true, '>') => {
                in_tag = false;
                out.push(' ');
            }
            (false, c) => out.push(c),
            (true, _) => {}
        }
    }
    decode_entities(&out)
}

fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| entity(&rest[1..e]).map(|c| (c, e)));
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_at_a_word() {
        assert_eq!(clip("one  two\nthree", 100), "one two three");
        assert_eq!(clip("one two three", 9), "one two…");
    }

    #[test]
    fn scripts_and_event_handlers_are_removed() {
        let out = sanitize_inline(
            r#"Hi <script>alert(1)</script><b onclick="x()">bold</b><img src=x onerror=alert(1)>"#,
        );
        assert_eq!(out, "Hi <b>bold</b>");
    }

    #[test]
    fn javascript_links_lose_their_address_and_safe_links_get_rel() {
        assert_eq!(
            sanitize_inline(r#"<a href="javascript:alert(1)">x</a>"#),
            r#"<a rel="noopener noreferrer nofollow">x</a>"#
        );
        assert_eq!(
            sanitize_inline(r#"<a href="https://example.com" target="_blank">x</a>"#),
            r#"<a href="https://example.com" rel="noopener noreferrer nofollow">x</a>"#
        );
    }

    #[test]
    fn inline_formatting_and_editor_classes_stay() {
        let html =
            r#"<i>a</i> <mark class="cdx-marker">b</mark> <code class="inline-code evil">c</code>"#;
        assert_eq!(
            sanitize_inline(html),
            r#"<i>a</i> <mark class="cdx-marker">b</mark> <code class="inline-code">c</code>"#
        );
    }

    #[test]
    fn block_level_and_style_markup_is_dropped() {
        assert_eq!(
            sanitize_inline(
                r#"<div style="x"><p>t</p></div><style>p{}</style><iframe src="https://e.com"></iframe>"#
            ),
            "t"
        );
    }

    #[test]
    fn plain_text_drops_tags_and_decodes_entities() {
        assert_eq!(
            plain_text("Tom &amp; <b>Jerry</b>&#33; &lt;3 &bogus;"),
            "Tom &  Jerry ! <3 &bogus;"
        );
    }
}
