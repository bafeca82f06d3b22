//! Escaping for what the server writes into HTML: text and attribute values, and JSON inside a
//! `<script>` data block (JSON-LD, the app's initial data), which must never end the block.

pub use crate::domain::sanitize::escape_html as escape;

/// JSON as it may stand inside `<script type="application/...json">`: `<`, `>` and `&` (and the
/// two line separators JavaScript reads as line ends) written as `\u` escapes, so no value can
/// close the element or open a comment; the JSON means the same to any parser.
pub fn script_json(value: &serde_json::Value) -> String {
    let raw = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    script_json_str(&raw)
}

/// The same for JSON text already serialised.
pub fn script_json_str(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 16);
    for c in raw.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape(r#"</title><script>alert("x")</script> & 'y'"#),
            "&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        );
    }

    #[test]
    fn script_json_cannot_close_its_element_and_means_the_same() {
        let value = serde_json::json!({ "headline": "</script><script>alert(1)</script> & <!--" });
        let out = script_json(&value);
        assert!(!out.contains("</script"));
        assert!(!out.contains("<!--"));
        assert!(!out.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back, value);
    }
}
