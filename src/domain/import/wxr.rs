//! WordPress's export (WXR 1.1 and 1.2, an RSS document with WordPress's own elements) read as a
//! stream: each `<item>` (a post, a page, an attachment, any custom type) is handed over as soon as
//! it ends, so a file of any size is read in the memory of one item.

use std::io::BufRead;

use chrono::{DateTime, NaiveDateTime, Utc};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// A category or tag as WordPress names it: its display name and its slug (`nicename`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WxrTerm {
    pub name: String,
    pub slug: String,
}

/// A comment on an item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WxrComment {
    pub id: String,
    /// The comment it answers (`None` at the top of the thread).
    pub parent: Option<String>,
    pub author: String,
    pub author_url: String,
    pub date_gmt: Option<DateTime<Utc>>,
    pub html: String,
    /// Approved by the site (`1`); pending, spam and trash are not.
    pub approved: bool,
}

/// One `<item>`: a post, page, attachment or other type, as the export holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WxrItem {
    /// `wp:post_id`.
    pub id: String,
    /// `wp:post_type`: post, page, attachment, nav_menu_item, a custom type.
    pub kind: String,
    pub title: String,
    /// `wp:post_name`; WordPress leaves it empty for drafts it never named.
    pub slug: Option<String>,
    pub link: String,
    /// `wp:status`: publish, draft, pending, future, private, trash, inherit.
    pub status: String,
    /// When it was (or is to be) published, in UTC: `wp:post_date_gmt`, else `pubDate`, else
    /// `wp:post_date` read as UTC. `None` when the export gives no date at all.
    pub date_gmt: Option<DateTime<Utc>>,
    /// `dc:creator`: the author's login.
    pub creator: String,
    /// `content:encoded`.
    pub html: String,
    /// `excerpt:encoded`.
    pub excerpt: String,
    pub categories: Vec<WxrTerm>,
    pub tags: Vec<WxrTerm>,
    /// The attachment id of the featured image (`_thumbnail_id`).
    pub thumbnail_id: Option<String>,
    /// An attachment's file (`wp:attachment_url`).
    pub attachment_url: Option<String>,
    /// A podcast's audio (the `enclosure` meta's first line).
    pub enclosure: Option<String>,
    /// Whether WordPress asked for a password to read it.
    pub password: bool,
    pub comments: Vec<WxrComment>,
}

/// The site the export came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WxrSite {
    pub title: String,
    pub link: String,
    /// `wp:wxr_version` (1.0, 1.1, 1.2).
    pub version: Option<String>,
}

/// Why an export could not be read; the messages are for the writer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WxrError {
    /// Not XML where it should be, with the line it stopped at.
    Malformed { line: u64, message: String },
    /// XML, but not a WordPress export.
    NotWxr(String),
}

impl std::fmt::Display for WxrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WxrError::Malformed { line, message } => {
                write!(
                    f,
                    "The WordPress export is not valid XML at line {line}: {message}"
                )
            }
            WxrError::NotWxr(why) => write!(f, "This is not a WordPress export (WXR): {why}"),
        }
    }
}

/// Counts the lines read so far, so a parse error can name its line.
struct Lines<R> {
    inner: R,
    newlines: u64,
}

impl<R: BufRead> std::io::Read for Lines<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(out)?;
        self.newlines += out[..n].iter().filter(|b| **b == b'\n').count() as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Lines<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let amt = amt.min(buf.len());
            self.newlines += buf[..amt].iter().filter(|b| **b == b'\n').count() as u64;
        }
        self.inner.consume(amt);
    }
}

/// Reads an export, handing each item to `on_item` as it ends; answers the site it came from.
pub fn read_wxr<R: BufRead>(
    input: R,
    mut on_item: impl FnMut(WxrItem),
) -> Result<WxrSite, WxrError> {
    let mut reader = Reader::from_reader(Lines {
        inner: input,
        newlines: 0,
    });
    reader.config_mut().trim_text(false);
    let mut buf = Vec::new();
    let mut path: Vec<String> = Vec::new();
    let mut text = String::new();
    let mut site = WxrSite::default();
    let mut item: Option<WxrItem> = None;
    let mut comment: Option<WxrComment> = None;
    let mut meta_key = String::new();
    let mut term: Option<(String, String)> = None;
    let mut saw_root = false;
    let mut wordpress = false;
    loop {
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|e| WxrError::Malformed {
                line: reader.get_ref().newlines + 1,
                message: e.to_string(),
            })?;
        match event {
            Event::Start(e) => {
                let name = qname(&e);
                if !saw_root {
                    saw_root = true;
                    if name != "rss" {
                        return Err(WxrError::NotWxr(format!(
                            "it starts with <{name}>, where an export starts with <rss>"
                        )));
                    }
                }
                if name.starts_with("wp:") {
                    wordpress = true;
                }
                let depth = path.len();
                match name.as_str() {
                    "item" if depth == 2 => item = Some(WxrItem::default()),
                    "wp:comment" if item.is_some() => comment = Some(WxrComment::default()),
                    "category" if item.is_some() => {
                        let domain = attr(&e, "domain");
                        let slug = attr(&e, "nicename");
                        term = Some((domain, slug));
                    }
                    _ => {}
                }
                path.push(name);
                text.clear();
            }
            Event::Empty(e) => {
                if !saw_root {
                    return Err(WxrError::NotWxr("the document is empty".into()));
                }
                if qname(&e).starts_with("wp:") {
                    wordpress = true;
                }
            }
            Event::Text(e) => {
                // WordPress writes addresses with bare `&` (`?a=1&b=2`): read as a browser
                // would, an `&` that starts no entity is itself.
                text.push_str(&lenient_unescape(&String::from_utf8_lossy(&e)));
            }
            Event::CData(e) => {
                text.push_str(&String::from_utf8_lossy(&e.into_inner()));
            }
            Event::End(_) => {
                let Some(name) = path.pop() else { continue };
                let value = std::mem::take(&mut text);
                let trimmed = value.trim();
                if let Some(c) = comment.as_mut() {
                    match name.as_str() {
                        "wp:comment_id" => c.id = trimmed.to_string(),
                        "wp:comment_parent" => {
                            c.parent =
                                (trimmed != "0" && !trimmed.is_empty()).then(|| trimmed.to_string())
                        }
                        "wp:comment_author" => c.author = trimmed.to_string(),
                        "wp:comment_author_url" => c.author_url = trimmed.to_string(),
                        "wp:comment_date_gmt" => c.date_gmt = wp_date(trimmed),
                        "wp:comment_content" => c.html = value,
                        "wp:comment_approved" => c.approved = trimmed == "1",
                        "wp:comment" => {
                            if let (Some(done), Some(it)) = (comment.take(), item.as_mut()) {
                                it.comments.push(done);
                            }
                        }
                        _ => {}
                    }
                    continue;
                }
                if let Some(it) = item.as_mut() {
                    match name.as_str() {
                        "title" if path.len() == 3 => it.title = trimmed.to_string(),
                        "link" if path.len() == 3 => it.link = trimmed.to_string(),
                        "pubDate" if it.date_gmt.is_none() => {
                            it.date_gmt = DateTime::parse_from_rfc2822(trimmed)
                                .ok()
                                .map(|d| d.with_timezone(&Utc));
                        }
                        "wp:post_date_gmt" => {
                            if let Some(d) = wp_date(trimmed) {
                                it.date_gmt = Some(d);
                            }
                        }
                        "wp:post_date" if it.date_gmt.is_none() => {
                            it.date_gmt = wp_date(trimmed);
                        }
                        "dc:creator" => it.creator = trimmed.to_string(),
                        "content:encoded" => it.html = value,
                        "excerpt:encoded" => it.excerpt = value,
                        "wp:post_id" => it.id = trimmed.to_string(),
                        "wp:post_type" => it.kind = trimmed.to_string(),
                        "wp:post_name" => {
                            it.slug = (!trimmed.is_empty()).then(|| trimmed.to_string())
                        }
                        "wp:status" => it.status = trimmed.to_string(),
                        "wp:post_password" => it.password = !trimmed.is_empty(),
                        "wp:attachment_url" => {
                            it.attachment_url = (!trimmed.is_empty()).then(|| trimmed.to_string())
                        }
                        "wp:meta_key" => meta_key = trimmed.to_string(),
                        "wp:meta_value" => match meta_key.as_str() {
                            "_thumbnail_id" if !trimmed.is_empty() => {
                                it.thumbnail_id = Some(trimmed.to_string())
                            }
                            "enclosure" => {
                                it.enclosure = trimmed
                                    .lines()
                                    .next()
                                    .map(str::trim)
                                    .filter(|l| !l.is_empty())
                                    .map(str::to_string)
                            }
                            _ => {}
                        },
                        "category" => {
                            if let Some((domain, slug)) = term.take() {
                                let name = trimmed.to_string();
                                let slug = if slug.is_empty() { name.clone() } else { slug };
                                let t = WxrTerm { name, slug };
                                let list = match domain.as_str() {
                                    "post_tag" => &mut it.tags,
                                    "category" => &mut it.categories,
                                    _ => continue,
                                };
                                if !t.name.is_empty() && !list.contains(&t) {
                                    list.push(t);
                                }
                            }
                        }
                        "item" => {
                            if let Some(done) = item.take() {
                                on_item(done);
                            }
                        }
                        _ => {}
                    }
                    continue;
                }
                if path.len() == 2 {
                    match name.as_str() {
                        "title" => site.title = trimmed.to_string(),
                        "link" => site.link = trimmed.to_string(),
                        "wp:wxr_version" => site.version = Some(trimmed.to_string()),
                        _ => {}
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if !saw_root {
        return Err(WxrError::NotWxr("the file is empty".into()));
    }
    if let Some(open) = path.last() {
        return Err(WxrError::Malformed {
            line: reader.get_ref().newlines + 1,
            message: format!("the file ends inside <{open}>"),
        });
    }
    if !wordpress {
        return Err(WxrError::NotWxr(
            "it is an RSS feed without WordPress's elements; import it as a feed instead".into(),
        ));
    }
    Ok(site)
}

fn qname(e: &BytesStart) -> String {
    String::from_utf8_lossy(e.name().as_ref()).into_owned()
}

fn attr(e: &BytesStart, name: &str) -> String {
    e.try_get_attribute(name)
        .ok()
        .flatten()
        .map(|a| {
            lenient_unescape(&String::from_utf8_lossy(&a.value))
                .trim()
                .to_string()
        })
        .unwrap_or_default()
}

/// Decodes XML's entities and numeric references; anything else after `&` stays as written.
fn lenient_unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest[1..]
            .find(';')
            .filter(|end| *end <= 10)
            .and_then(|end| {
                let name = &rest[1..1 + end];
                let c = match name {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    _ => name
                        .strip_prefix("#x")
                        .or_else(|| name.strip_prefix("#X"))
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                        .and_then(char::from_u32),
                }?;
                Some((c, end + 2))
            });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
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

/// WordPress's `YYYY-MM-DD HH:MM:SS`; its "no date" (`0000-00-00 00:00:00`) is `None`.
fn wp_date(raw: &str) -> Option<DateTime<Utc>> {
    NaiveDateTime::parse_from_str(raw.trim(), "%Y-%m-%d %H:%M:%S")
        .ok()
        .map(|d| d.and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        let full = super::super::fixture_path(&format!("wordpress/{name}"));
        std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
    }

    fn read(bytes: &[u8]) -> Result<(WxrSite, Vec<WxrItem>), WxrError> {
        let mut items = Vec::new();
        let site = read_wxr(bytes, |i| items.push(i))?;
        Ok((site, items))
    }

    #[test]
    fn the_sample_export() {
        let (site, items) = read(&fixture("sample.xml")).unwrap();
        assert_eq!(site.title, "Acme Company");
        assert_eq!(site.version.as_deref(), Some("1.2"));
        let kinds: Vec<&str> = items.iter().map(|i| i.kind.as_str()).collect();
        assert_eq!(kinds.len(), 6, "{kinds:?}");
        let draft = &items[0];
        assert_eq!(draft.title, "Draft Post");
        assert_eq!(draft.id, "204");
        assert_eq!(draft.status, "draft");
        assert_eq!(draft.slug.as_deref(), Some("draft-post.html"));
        assert_eq!(draft.creator, "harry@example.com");
        assert_eq!(
            draft.tags,
            [WxrTerm {
                name: "Programming".into(),
                slug: "programming".into()
            }]
        );
        assert_eq!(draft.categories[0].name, "Company News");
        assert_eq!(
            draft.date_gmt.unwrap().to_rfc3339(),
            "2013-11-02T23:02:32+00:00"
        );
        assert!(draft.html.starts_with("<p>We're not testing"));
        let basic = &items[1];
        assert_eq!(basic.status, "publish");
        assert_eq!(basic.thumbnail_id.as_deref(), Some("5"));
        assert_eq!(basic.tags.len(), 2);
        assert!(
            kinds.contains(&"page") && kinds.contains(&"customcpt"),
            "{kinds:?}"
        );
        let picture = items
            .iter()
            .find(|i| i.title == "miniature-green-pumpkin-on-white-table")
            .unwrap();
        assert!(
            picture.attachment_url.as_deref().unwrap().ends_with(
                "?ixlib=rb-1.2.1&ixid=eyJhcHBfaWQiOjEyMDd9&auto=format&fit=crop&w=1268&q=80"
            ),
            "a bare & in an address is kept: {:?}",
            picture.attachment_url
        );
    }

    #[test]
    fn an_item_without_a_slug_and_a_podcast_enclosure() {
        let (_, items) = read(&fixture("sample-no-slug.xml")).unwrap();
        assert!(
            items.iter().any(|i| i.slug.is_none() && i.kind == "post"),
            "{items:#?}"
        );
        let (_, podcast) = read(&fixture("has-audio-enclosure.xml")).unwrap();
        assert_eq!(
            podcast[0].enclosure.as_deref(),
            Some("http://media.libsyn.com/media/example/podcast.mp3")
        );
        assert_eq!(podcast[0].slug.as_deref(), Some("my-episode"));
        assert_eq!(
            podcast[0].date_gmt.unwrap().to_rfc3339(),
            "2005-04-10T00:00:00+00:00"
        );
    }

    #[test]
    fn comments_attachments_and_dates_missing() {
        let xml = br#"<?xml version="1.0"?>
<rss xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>Site</title><wp:wxr_version>1.1</wp:wxr_version>
<item><title>Hello &amp; welcome</title><wp:post_id>7</wp:post_id><wp:post_type>post</wp:post_type>
<wp:status>future</wp:status><wp:post_date_gmt>2030-01-02 03:04:05</wp:post_date_gmt>
<content:encoded><![CDATA[Line one

Line two]]></content:encoded>
<wp:post_password>secret</wp:post_password>
<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_author><![CDATA[Ann]]></wp:comment_author>
<wp:comment_date_gmt>2030-01-03 00:00:00</wp:comment_date_gmt><wp:comment_content><![CDATA[Nice <b>post</b>]]></wp:comment_content>
<wp:comment_approved>1</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>
<wp:comment><wp:comment_id>2</wp:comment_id><wp:comment_author>Spammer</wp:comment_author>
<wp:comment_approved>spam</wp:comment_approved><wp:comment_parent>1</wp:comment_parent></wp:comment>
</item>
<item><title>pic</title><wp:post_id>5</wp:post_id><wp:post_type>attachment</wp:post_type>
<wp:post_date_gmt>0000-00-00 00:00:00</wp:post_date_gmt>
<wp:attachment_url>https://example.com/wp-content/uploads/pic.jpg</wp:attachment_url></item>
</channel></rss>"#;
        let (site, items) = read(xml).unwrap();
        assert_eq!(site.version.as_deref(), Some("1.1"));
        let post = &items[0];
        assert_eq!(post.title, "Hello & welcome");
        assert_eq!(post.status, "future");
        assert_eq!(
            post.date_gmt.unwrap().to_rfc3339(),
            "2030-01-02T03:04:05+00:00"
        );
        assert_eq!(post.html, "Line one\n\nLine two");
        assert!(post.password);
        assert_eq!(post.comments.len(), 2);
        assert_eq!(post.comments[0].author, "Ann");
        assert!(post.comments[0].approved);
        assert_eq!(post.comments[0].parent, None);
        assert_eq!(post.comments[0].html, "Nice <b>post</b>");
        assert!(!post.comments[1].approved);
        assert_eq!(post.comments[1].parent.as_deref(), Some("1"));
        let pic = &items[1];
        assert_eq!(pic.kind, "attachment");
        assert_eq!(pic.date_gmt, None);
        assert_eq!(
            pic.attachment_url.as_deref(),
            Some("https://example.com/wp-content/uploads/pic.jpg")
        );
    }

    #[test]
    fn malformed_files_name_their_line_and_other_documents_say_what_they_are() {
        let broken = b"<?xml version=\"1.0\"?>\n<rss xmlns:wp=\"x\">\n<channel>\n<item><title>A</titel></item>\n</channel></rss>";
        match read(broken) {
            Err(WxrError::Malformed { line, .. }) => assert_eq!(line, 4),
            other => panic!("{other:?}"),
        }
        let cut = b"<rss xmlns:wp=\"x\"><channel><item><wp:post_id>1</wp:post_id>";
        assert!(
            matches!(read(cut), Err(WxrError::Malformed { .. })),
            "{:?}",
            read(cut)
        );
        let feed =
            b"<rss><channel><title>A feed</title><item><title>x</title></item></channel></rss>";
        let err = read(feed).unwrap_err();
        assert!(
            err.to_string().contains("import it as a feed instead"),
            "{err}"
        );
        let atom = b"<feed xmlns=\"http://www.w3.org/2005/Atom\"></feed>";
        assert!(read(atom)
            .unwrap_err()
            .to_string()
            .contains("starts with <feed>"));
        assert!(matches!(read(b""), Err(WxrError::NotWxr(_))));
        assert_eq!(
            lenient_unescape("a &amp; b &lt;&#65;&#x42;&gt; c&d &unknown; &"),
            "a & b <AB> c&d &unknown; &"
        );
        assert!(read(b"not xml at all").is_err());
    }
}
