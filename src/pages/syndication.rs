//! Atom 1.0 and RSS 2.0 feeds of posts (the `atom_syndication` and `rss` crates write the XML):
//! the newest public posts of the site, an author, a tag or a category, each with its full
//! sanitised HTML (the teaser and a link for a subscribers-only post, unless the feed is a
//! subscriber's own).

use atom_syndication as atom;
use chrono::{DateTime, FixedOffset, Utc};

use super::article::NoSizes;
use super::head::SITE_NAME;
use super::html::escape;
use super::model::{post_path, tag_path, PublicPost};
use super::view::{article_html, Site};

/// Posts in a feed.
pub const FEED_LEN: i64 = 30;
pub const ATOM_TYPE: &str = "application/atom+xml; charset=utf-8";
pub const RSS_TYPE: &str = "application/rss+xml; charset=utf-8";

/// What a feed is about.
#[derive(Debug, Clone)]
pub struct FeedInfo {
    pub title: String,
    pub description: String,
    /// The page the feed follows (a path on the site).
    pub page_path: String,
    /// The feed's own address (a path on the site).
    pub self_path: String,
}

fn parse_time(iso: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(iso).unwrap_or_else(|_| DateTime::<Utc>::UNIX_EPOCH.fixed_offset())
}

/// When the feed last changed: its newest edit or publication.
pub fn last_modified(posts: &[PublicPost]) -> DateTime<FixedOffset> {
    posts
        .iter()
        .map(|p| parse_time(p.modified()))
        .max()
        .unwrap_or_else(|| DateTime::<Utc>::UNIX_EPOCH.fixed_offset())
}

/// A post's HTML for a feed reader: the article with links made absolute.
pub fn content_html(site: &Site, post: &PublicPost) -> String {
    let path = post_path(&post.slug);
    let html = article_html(post, &path, &NoSizes);
    let html = html
        .replace("href=\"/", &format!("href=\"{}/", site.base))
        .replace("src=\"/", &format!("src=\"{}/", site.base));
    if post.locked {
        format!(
            "{html}<p><a href=\"{}\">Read the whole post on {SITE_NAME}</a></p>",
            escape(&site.url(&path))
        )
    } else {
        html
    }
}

/// The feed in Atom.
pub fn atom(site: &Site, info: &FeedInfo, posts: &[PublicPost]) -> String {
    let entries: Vec<atom::Entry> = posts
        .iter()
        .map(|p| {
            let url = site.url(&post_path(&p.slug));
            let mut categories: Vec<atom::Category> = Vec::new();
            if let Some(c) = &p.category {
                categories.push(atom::Category {
                    term: c.name.clone(),
                    scheme: Some(site.url("/category/")),
                    label: Some(c.name.clone()),
                });
            }
            for tag in &p.tags {
                categories.push(atom::Category {
                    term: tag.clone(),
                    scheme: Some(site.url("/tag/")),
                    label: Some(format!("#{tag}")),
                });
            }
            atom::EntryBuilder::default()
                .id(format!("{}/posts/{}", site.base, p.id))
                .title(atom::Text::plain(p.title.clone()))
                .updated(parse_time(p.modified()))
                .published(Some(parse_time(p.published())))
                .authors(vec![atom::Person {
                    name: p.author.name.clone(),
                    email: None,
                    uri: Some(site.url(&super::model::author_path(&p.author.id))),
                    ..Default::default()
                }])
                .categories(categories)
                .links(vec![atom::Link {
                    href: url,
                    rel: "alternate".into(),
                    mime_type: Some("text/html".into()),
                    ..Default::default()
                }])
                .summary(Some(atom::Text::plain(p.excerpt.clone())))
                .content(Some(atom::Content {
                    value: Some(content_html(site, p)),
                    content_type: Some("html".into()),
                    ..Default::default()
                }))
                .build()
        })
        .collect();
    let feed = atom::FeedBuilder::default()
        .id(site.url(&info.self_path))
        .title(atom::Text::plain(info.title.clone()))
        .subtitle(Some(atom::Text::plain(info.description.clone())))
        .updated(last_modified(posts))
        .links(vec![
            atom::Link {
                href: site.url(&info.self_path),
                rel: "self".into(),
                mime_type: Some("application/atom+xml".into()),
                ..Default::default()
            },
            atom::Link {
                href: site.url(&info.page_path),
                rel: "alternate".into(),
                mime_type: Some("text/html".into()),
                ..Default::default()
            },
        ])
        .generator(Some(atom::Generator {
            value: SITE_NAME.into(),
            uri: None,
            version: None,
        }))
        .entries(entries)
        .build();
    feed.to_string()
}

/// The feed in RSS (with an `atom:link rel="self"`).
pub fn rss(site: &Site, info: &FeedInfo, posts: &[PublicPost]) -> String {
    let items: Vec<rss::Item> = posts
        .iter()
        .map(|p| {
            let url = site.url(&post_path(&p.slug));
            let mut categories: Vec<rss::Category> = Vec::new();
            if let Some(c) = &p.category {
                categories.push(rss::CategoryBuilder::default().name(c.name.clone()).build());
            }
            for tag in &p.tags {
                categories.push(
                    rss::CategoryBuilder::default()
                        .name(tag.clone())
                        .domain(Some(site.url(&tag_path(tag))))
                        .build(),
                );
            }
            rss::ItemBuilder::default()
                .title(Some(p.title.clone()))
                .link(Some(url))
                .guid(Some(
                    rss::GuidBuilder::default()
                        .value(format!("{}/posts/{}", site.base, p.id))
                        .permalink(false)
                        .build(),
                ))
                .pub_date(Some(parse_time(p.published()).to_rfc2822()))
                .author(None)
                .dublin_core_ext(Some(rss::extension::dublincore::DublinCoreExtension {
                    creators: vec![p.author.name.clone()],
                    ..Default::default()
                }))
                .categories(categories)
                .description(Some(p.excerpt.clone()))
                .content(Some(content_html(site, p)))
                .build()
        })
        .collect();
    let mut atom_ext = rss::extension::atom::AtomExtension::default();
    atom_ext.set_links(vec![rss::extension::atom::Link {
        href: site.url(&info.self_path),
        rel: "self".into(),
        mime_type: Some("application/rss+xml".into()),
        ..Default::default()
    }]);
    let channel = rss::ChannelBuilder::default()
        .title(info.title.clone())
        .link(site.url(&info.page_path))
        .description(info.description.clone())
        .last_build_date(Some(last_modified(posts).to_rfc2822()))
        .generator(Some(SITE_NAME.to_string()))
        .atom_ext(Some(atom_ext))
        .items(items)
        .build();
    channel.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn post(id: &str, locked: bool) -> PublicPost {
        serde_json::from_value(json!({
            "_id": id, "slug": format!("post-{id}"), "title": "A <b>bold</b> & title",
            "blocks": if locked { json!([]) } else { json!([{"id": "p", "type": "paragraph", "data": {"text": "Full <i>text</i>."}}, {"id": "i", "type": "image", "data": {"file": {"url": "/media/0123456789abcdef0123456789abcdef.png"}, "caption": ""}}]) },
            "excerpt": "Teaser.", "tags": ["rust"], "language": "en", "locked": locked,
            "visibility": "Public", "status": "published", "blocked": false, "readingTime": 1,
            "publishedAt": "2024-05-01T10:00:00Z", "createdAt": "2024-05-01T10:00:00Z",
            "updatedAt": "2024-05-09T10:00:00Z",
            "editedAt": format!("2024-05-0{}T10:00:00Z", if locked { 3 } else { 2 }),
            "author": {"_id": "a1", "name": "Ann", "avatar": null},
            "category": {"_id": "c1", "name": "Tech", "slug": "tech"}
        }))
        .unwrap()
    }

    fn info() -> FeedInfo {
        FeedInfo {
            title: "Pressroom".into(),
            description: "Latest".into(),
            page_path: "/".into(),
            self_path: "/feed.xml".into(),
        }
    }

    #[test]
    fn atom_reads_back_with_entries_content_and_self_link() {
        let site = Site::new("https://news.example");
        let xml = atom(&site, &info(), &[post("1", false), post("2", true)]);
        let feed: atom::Feed = xml.parse().unwrap();
        assert_eq!(feed.entries().len(), 2);
        assert_eq!(feed.updated().to_rfc3339(), "2024-05-03T10:00:00+00:00");
        assert!(feed
            .links()
            .iter()
            .any(|l| l.rel() == "self" && l.href() == "https://news.example/feed.xml"));
        let first = &feed.entries()[0];
        assert_eq!(first.id(), "https://news.example/posts/1");
        assert_eq!(first.title().as_str(), "A <b>bold</b> & title");
        let content = first.content().unwrap().value().unwrap();
        assert!(content.contains("Full <i>text</i>."));
        assert!(content
            .contains("src=\"https://news.example/media/0123456789abcdef0123456789abcdef.png\""));
        let locked = feed.entries()[1].content().unwrap().value().unwrap();
        assert!(locked.contains("Teaser."));
        assert!(locked.contains("Read the whole post"));
        assert!(!locked.contains("Full"));
    }

    #[test]
    fn rss_reads_back_with_items() {
        let site = Site::new("https://news.example");
        let xml = rss(&site, &info(), &[post("1", false)]);
        let channel: rss::Channel = xml.parse().unwrap();
        assert_eq!(channel.items().len(), 1);
        let item = &channel.items()[0];
        assert_eq!(item.link(), Some("https://news.example/post/post-1"));
        assert_eq!(item.guid().unwrap().value(), "https://news.example/posts/1");
        assert!(item.content().unwrap().contains("Full <i>text</i>."));
        assert_eq!(item.pub_date(), Some("Wed, 1 May 2024 10:00:00 +0000"));
        assert!(xml.contains("rel=\"self\""));
    }
}
