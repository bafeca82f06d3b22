//! Any feed a writer publishes elsewhere (RSS 0.9-2.0, Atom 1.0, JSON Feed 1.x) read with
//! `feed-rs`: each entry with its stable id, title, address, date, HTML and tags. Relative
//! addresses resolve against the feed's own address.

use super::ReadError;
use crate::domain::sanitize::escape_html as escape;
use chrono::{DateTime, Utc};

/// One entry of a feed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeedEntry {
    /// The entry's id in the feed (Atom `id`, RSS `guid`, JSON Feed `id`; a hash of the link when
    /// the feed gives none): what makes a second read of the feed add only new entries.
    pub source_id: String,
    pub title: String,
    /// The entry's page (its alternate link).
    pub url: Option<String>,
    /// When it was published, else last updated.
    pub published: Option<DateTime<Utc>>,
    /// The entry's HTML: its full content, else its summary.
    pub html: String,
    /// Categories or tags, by their label where the feed gives one.
    pub tags: Vec<String>,
}

/// A feed read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeedRead {
    pub title: String,
    /// The site the feed belongs to.
    pub site_url: Option<String>,
    pub entries: Vec<FeedEntry>,
}

/// Text the feed marks as plain made into paragraphs; HTML as it is.
fn as_html(body: &str, media_type: &str) -> String {
    if media_type.contains("html") {
        return body.to_string();
    }
    body.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", escape(p).replace('\n', "<br>")))
        .collect()
}

/// Reads a feed document fetched from `address`.
pub fn read_feed(bytes: &[u8], address: Option<&str>) -> Result<FeedRead, ReadError> {
    let parser = feed_rs::parser::Builder::new().base_uri(address).build();
    let feed = parser.parse(bytes).map_err(|e| {
        ReadError(match e {
            feed_rs::parser::ParseFeedError::ParseError(kind) => {
                format!("This is not a feed (RSS, Atom or JSON Feed): {kind}")
            }
            other => format!("The feed could not be read: {other}"),
        })
    })?;
    let alternate = |links: &[feed_rs::model::Link]| -> Option<String> {
        links
            .iter()
            .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
            .or_else(|| links.first())
            .map(|l| l.href.trim().to_string())
            .filter(|h| h.starts_with("http://") || h.starts_with("https://"))
    };
    let entries = feed
        .entries
        .iter()
        .map(|e| {
            let html = e
                .content
                .as_ref()
                .and_then(|c| c.body.as_ref().map(|b| as_html(b, c.content_type.as_str())))
                .filter(|h| !h.trim().is_empty())
                .or_else(|| {
                    e.summary
                        .as_ref()
                        .map(|s| as_html(&s.content, s.content_type.as_str()))
                })
                .unwrap_or_default();
            FeedEntry {
                source_id: e.id.clone(),
                title: e
                    .title
                    .as_ref()
                    .map(|t| t.content.trim().to_string())
                    .unwrap_or_default(),
                url: alternate(&e.links),
                published: e.published.or(e.updated),
                html,
                tags: e
                    .categories
                    .iter()
                    .map(|c| c.label.clone().unwrap_or_else(|| c.term.clone()))
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect(),
            }
        })
        .collect();
    Ok(FeedRead {
        title: feed
            .title
            .map(|t| t.content.trim().to_string())
            .unwrap_or_default(),
        site_url: alternate(&feed.links),
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rss_with_full_content_relative_links_and_categories() {
        let rss = br#"<?xml version="1.0"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>River notes</title><link>https://rivers.example/</link><description>d</description>
<item><title>Where rivers meet</title><link>/2024/rivers</link><guid isPermaLink="false">post-1</guid>
<pubDate>Tue, 02 Apr 2024 05:16:20 +0000</pubDate><category>Nature</category><category>Water</category>
<description>Short</description><content:encoded><![CDATA[<p>Full <em>text</em></p>]]></content:encoded></item>
<item><title>Only a summary</title><link>https://rivers.example/2</link><description>Plain &amp; simple</description></item>
</channel></rss>"#;
        let feed = read_feed(rss, Some("https://rivers.example/feed.xml")).unwrap();
        assert_eq!(feed.title, "River notes");
        assert_eq!(feed.site_url.as_deref(), Some("https://rivers.example/"));
        assert_eq!(feed.entries.len(), 2);
        let first = &feed.entries[0];
        assert_eq!(first.source_id, "post-1");
        assert_eq!(first.title, "Where rivers meet");
        assert_eq!(
            first.url.as_deref(),
            Some("https://rivers.example/2024/rivers")
        );
        assert_eq!(first.html, "<p>Full <em>text</em></p>");
        assert_eq!(first.tags, ["Nature", "Water"]);
        assert_eq!(
            first.published.unwrap().to_rfc3339(),
            "2024-04-02T05:16:20+00:00"
        );
        let second = &feed.entries[1];
        assert!(!second.source_id.is_empty(), "an id made from the link");
        assert_eq!(second.published, None);
        // An RSS description is HTML: its text as the feed decoded it.
        assert_eq!(second.html, "Plain & simple");
    }

    #[test]
    fn atom_and_json_feed() {
        let atom = br#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom site</title><id>urn:site</id>
<updated>2024-05-01T10:00:00Z</updated><link href="https://atom.example/" rel="alternate"/>
<entry><title>First</title><id>urn:entry:1</id><updated>2024-05-01T10:00:00Z</updated>
<published>2024-04-30T09:00:00Z</published><link href="https://atom.example/first" rel="alternate"/>
<link href="https://atom.example/first/comments" rel="replies"/>
<category term="rust" label="Rust"/><content type="html">&lt;p&gt;Hello&lt;/p&gt;</content></entry>
<entry><title>Text</title><id>urn:entry:2</id><updated>2024-05-02T10:00:00Z</updated>
<content type="text">Line one
Line two

Para two &lt;b&gt;</content></entry></feed>"#;
        let feed = read_feed(atom, None).unwrap();
        assert_eq!(feed.entries[0].source_id, "urn:entry:1");
        assert_eq!(
            feed.entries[0].url.as_deref(),
            Some("https://atom.example/first")
        );
        assert_eq!(feed.entries[0].tags, ["Rust"]);
        assert_eq!(feed.entries[0].html, "<p>Hello</p>");
        assert_eq!(
            feed.entries[0].published.unwrap().to_rfc3339(),
            "2024-04-30T09:00:00+00:00"
        );
        assert_eq!(
            feed.entries[1].published.unwrap().to_rfc3339(),
            "2024-05-02T10:00:00+00:00"
        );
        assert_eq!(
            feed.entries[1].html,
            "<p>Line one<br>Line two</p><p>Para two &lt;b&gt;</p>"
        );
        let json = br#"{"version":"https://jsonfeed.org/version/1.1","title":"JSON site",
            "home_page_url":"https://json.example/","items":[{"id":"j1","url":"https://json.example/j1",
            "title":"J one","content_html":"<p>J</p>","date_published":"2024-06-01T00:00:00Z","tags":["a","b"]}]}"#;
        let feed = read_feed(json, None).unwrap();
        assert_eq!(feed.title, "JSON site");
        assert_eq!(feed.entries[0].source_id, "j1");
        assert_eq!(feed.entries[0].html, "<p>J</p>");
        assert_eq!(feed.entries[0].tags, ["a", "b"]);
    }

    #[test]
    fn what_is_not_a_feed_says_so() {
        let err = read_feed(b"<html><body>hi</body></html>", None).unwrap_err();
        assert!(err.0.starts_with("This is not a feed"), "{err}");
        assert!(read_feed(b"", None).is_err());
        assert!(read_feed(b"{\"a\":1}", None).is_err());
    }
}
