//! What a page says about itself in its `<head>`: title, description, canonical address, robots,
//! Open Graph, Twitter card, JSON-LD and the feeds it offers. Every value is escaped here.

use serde_json::Value;

use super::html::{escape, script_json};

/// The site's name in titles and previews.
pub const SITE_NAME: &str = "Pressroom";
/// What the site is, for pages that say nothing more specific.
pub const SITE_DESCRIPTION: &str = "Pressroom: a multi-author publishing platform";

/// An image for previews.
#[derive(Debug, Clone, PartialEq)]
pub struct PreviewImage {
    /// Absolute address.
    pub url: String,
    pub width: u32,
    pub height: u32,
    pub alt: String,
}

/// An article's dates, author and tags for Open Graph.
#[derive(Debug, Clone, PartialEq)]
pub struct ArticleMeta {
    pub published: String,
    pub modified: String,
    /// Absolute address of the author's page.
    pub author_url: String,
    pub section: Option<String>,
    pub tags: Vec<String>,
}

/// A feed a page offers (`<link rel="alternate">`).
#[derive(Debug, Clone, PartialEq)]
pub struct FeedLink {
    /// `application/atom+xml` or `application/rss+xml`.
    pub mime: &'static str,
    pub title: String,
    /// Absolute address.
    pub href: String,
}

/// Everything a page's head says.
#[derive(Debug, Clone, PartialEq)]
pub struct PageMeta {
    /// The `<title>` (the site's name is added).
    pub title: String,
    pub description: String,
    /// Absolute address of the page (none for pages that are not content).
    pub canonical: Option<String>,
    pub lang: String,
    pub noindex: bool,
    /// `website`, `article` or `profile`.
    pub og_type: &'static str,
    pub image: Option<PreviewImage>,
    pub article: Option<ArticleMeta>,
    pub json_ld: Vec<Value>,
    pub feeds: Vec<FeedLink>,
}

impl PageMeta {
    /// A page with a title only: not content, not to be indexed.
    pub fn plain(title: &str) -> Self {
        Self {
            title: title.to_string(),
            description: SITE_DESCRIPTION.to_string(),
            canonical: None,
            lang: "en".into(),
            noindex: true,
            og_type: "website",
            image: None,
            article: None,
            json_ld: Vec::new(),
            feeds: Vec::new(),
        }
    }

    /// The full title: `<title> · Pressroom`, or the site's name alone.
    pub fn full_title(&self) -> String {
        if self.title.is_empty() || self.title == SITE_NAME {
            SITE_NAME.to_string()
        } else {
            format!("{} · {SITE_NAME}", self.title)
        }
    }

    /// The head's elements, one per line.
    pub fn render(&self) -> String {
        let mut h = String::with_capacity(2048);
        let mut meta = |attr: &str, key: &str, value: &str| {
            h.push_str(&format!(
                "<meta {attr}=\"{}\" content=\"{}\" />\n",
                escape(key),
                escape(value)
            ));
        };
        let title = self.full_title();
        meta("name", "description", &self.description);
        if self.noindex {
            meta("name", "robots", "noindex");
        }
        meta("property", "og:site_name", SITE_NAME);
        meta("property", "og:type", self.og_type);
        meta("property", "og:title", &self.title_or_site());
        meta("property", "og:description", &self.description);
        if let Some(url) = &self.canonical {
            meta("property", "og:url", url);
        }
        if let Some(img) = &self.image {
            meta("property", "og:image", &img.url);
            meta("property", "og:image:width", &img.width.to_string());
            meta("property", "og:image:height", &img.height.to_string());
            meta("property", "og:image:alt", &img.alt);
        }
        if let Some(a) = &self.article {
            meta("property", "article:published_time", &a.published);
            meta("property", "article:modified_time", &a.modified);
            meta("property", "article:author", &a.author_url);
            if let Some(section) = &a.section {
                meta("property", "article:section", section);
            }
            for tag in &a.tags {
                meta("property", "article:tag", tag);
            }
        }
        meta(
            "name",
            "twitter:card",
            if self.image.is_some() {
                "summary_large_image"
            } else {
                "summary"
            },
        );
        meta("name", "twitter:title", &self.title_or_site());
        meta("name", "twitter:description", &self.description);
        if let Some(img) = &self.image {
            meta("name", "twitter:image", &img.url);
            meta("name", "twitter:image:alt", &img.alt);
        }
        h.push_str(&format!("<title>{}</title>\n", escape(&title)));
        if let Some(url) = &self.canonical {
            h.push_str(&format!(
                "<link rel=\"canonical\" href=\"{}\" />\n",
                escape(url)
            ));
        }
        for feed in &self.feeds {
            h.push_str(&format!(
                "<link rel=\"alternate\" type=\"{}\" title=\"{}\" href=\"{}\" />\n",
                feed.mime,
                escape(&feed.title),
                escape(&feed.href)
            ));
        }
        for ld in &self.json_ld {
            h.push_str(&format!(
                "<script type=\"application/ld+json\">{}</script>\n",
                script_json(ld)
            ));
        }
        h
    }

    fn title_or_site(&self) -> String {
        if self.title.is_empty() {
            SITE_NAME.to_string()
        } else {
            self.title.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> PageMeta {
        PageMeta {
            title: "</title><script>alert(\"x\")</script> & more".into(),
            description: "Say \"hi\" & <b>bye</b>".into(),
            canonical: Some("https://news.example/post/a?b=1&c=2".into()),
            lang: "en".into(),
            noindex: false,
            og_type: "article",
            image: Some(PreviewImage {
                url: "https://news.example/og/post/1.png?v=ab".into(),
                width: 1200,
                height: 630,
                alt: "A \"title\"".into(),
            }),
            article: Some(ArticleMeta {
                published: "2024-05-01T10:00:00Z".into(),
                modified: "2024-05-02T10:00:00Z".into(),
                author_url: "https://news.example/author-profile/1".into(),
                section: Some("Tech".into()),
                tags: vec!["rust".into(), "<web>".into()],
            }),
            json_ld: vec![
                serde_json::json!({"@type": "BlogPosting", "headline": "</script><script>alert(1)</script>"}),
            ],
            feeds: vec![FeedLink {
                mime: "application/atom+xml",
                title: "Pressroom".into(),
                href: "https://news.example/feed.xml".into(),
            }],
        }
    }

    #[test]
    fn every_value_is_escaped() {
        let head = meta().render();
        assert!(head.contains(
            "<title>&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more · Pressroom</title>"
        ));
        assert!(head.contains("content=\"Say &quot;hi&quot; &amp; &lt;b&gt;bye&lt;/b&gt;\""));
        assert!(head.contains("href=\"https://news.example/post/a?b=1&amp;c=2\""));
        assert!(head.contains("<meta property=\"article:tag\" content=\"&lt;web&gt;\" />"));
        assert_eq!(
            head.matches("<script").count(),
            1,
            "only the JSON-LD block: {head}"
        );
        assert_eq!(head.matches("</script>").count(), 1);
        assert!(!head.contains("<meta name=\"robots\""));
    }

    #[test]
    fn open_graph_and_twitter_describe_the_article() {
        let head = meta().render();
        for expected in [
            "<meta property=\"og:type\" content=\"article\" />",
            "<meta property=\"og:image:width\" content=\"1200\" />",
            "<meta property=\"og:image:height\" content=\"630\" />",
            "<meta property=\"article:published_time\" content=\"2024-05-01T10:00:00Z\" />",
            "<meta property=\"article:author\" content=\"https://news.example/author-profile/1\" />",
            "<meta name=\"twitter:card\" content=\"summary_large_image\" />",
            "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Pressroom\" href=\"https://news.example/feed.xml\" />",
        ] {
            assert!(head.contains(expected), "{expected} missing from {head}");
        }
    }

    #[test]
    fn pages_that_are_not_content_are_not_indexed() {
        let head = PageMeta::plain("Settings").render();
        assert!(head.contains("<meta name=\"robots\" content=\"noindex\" />"));
        assert!(head.contains("<title>Settings · Pressroom</title>"));
        assert!(!head.contains("canonical"));
    }
}
