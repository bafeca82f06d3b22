//! Sitemaps (sitemaps.org 0.9), written with `quick-xml`: an index naming child sitemaps of at
//! most `MAX_URLS` addresses each (`POSTS_PER_SITEMAP` posts), and the children (posts with `lastmod`; the authors, tags and
//! categories of the same posts).

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

pub const NAMESPACE: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
/// Addresses in one sitemap at most (the protocol's limit).
pub const MAX_URLS: usize = 50_000;
/// Posts in one child sitemap: below the protocol's limit, so that one page's cost (a read of
/// each post's hash) stays small however many posts the site has.
pub const POSTS_PER_SITEMAP: usize = 10_000;
pub const CONTENT_TYPE: &str = "application/xml; charset=utf-8";

/// One address and when it last changed (W3C date-time).
#[derive(Debug, Clone, PartialEq)]
pub struct SitemapUrl {
    pub loc: String,
    pub lastmod: Option<String>,
}

fn element(w: &mut Writer<Vec<u8>>, name: &str, text: &str) -> std::io::Result<()> {
    w.write_event(Event::Start(BytesStart::new(name)))?;
    w.write_event(Event::Text(BytesText::new(text)))?;
    w.write_event(Event::End(BytesEnd::new(name)))?;
    Ok(())
}

fn write(root: &str, item: &str, urls: &[SitemapUrl]) -> std::io::Result<String> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 1);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let mut start = BytesStart::new(root);
    start.push_attribute(("xmlns", NAMESPACE));
    w.write_event(Event::Start(start))?;
    for u in urls.iter().take(MAX_URLS) {
        w.write_event(Event::Start(BytesStart::new(item)))?;
        element(&mut w, "loc", &u.loc)?;
        if let Some(lastmod) = &u.lastmod {
            element(&mut w, "lastmod", lastmod)?;
        }
        w.write_event(Event::End(BytesEnd::new(item)))?;
    }
    w.write_event(Event::End(BytesEnd::new(root)))?;
    String::from_utf8(w.into_inner()).map_err(std::io::Error::other)
}

/// A sitemap of addresses (`<urlset>`).
pub fn urlset(urls: &[SitemapUrl]) -> String {
    write("urlset", "url", urls).unwrap_or_default()
}

/// A sitemap index (`<sitemapindex>`).
pub fn index(sitemaps: &[SitemapUrl]) -> String {
    write("sitemapindex", "sitemap", sitemaps).unwrap_or_default()
}

/// The number of child sitemaps for `n` posts (at least one).
pub fn pages_for(n: u64) -> u64 {
    n.div_ceil(POSTS_PER_SITEMAP as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_escaped_and_limited() {
        let xml = urlset(&[SitemapUrl {
            loc: "https://news.example/tag/a&b".into(),
            lastmod: Some("2024-05-01T10:00:00+00:00".into()),
        }]);
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
        assert!(xml.contains("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
        assert!(xml.contains("<loc>https://news.example/tag/a&amp;b</loc>"));
        assert!(xml.contains("<lastmod>2024-05-01T10:00:00+00:00</lastmod>"));
        let many: Vec<SitemapUrl> = (0..MAX_URLS + 5)
            .map(|i| SitemapUrl {
                loc: format!("https://x/{i}"),
                lastmod: None,
            })
            .collect();
        assert_eq!(urlset(&many).matches("<url>").count(), MAX_URLS);
    }

    #[test]
    fn pages_cover_every_address() {
        assert_eq!(pages_for(0), 1);
        assert_eq!(pages_for(10_000), 1);
        assert_eq!(pages_for(10_001), 2);
        assert_eq!(pages_for(100_000), 10);
    }
}
