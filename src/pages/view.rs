//! Each kind of public page as a head and a body, from what the read index holds: a post, an
//! author, a tag, a category, the home page. Pure: the caller reads the data and the site's
//! address.

use serde_json::{json, Value};

use super::article::{render_blocks, ImageSizes, LOCKED_CLASS};
use super::cards::{app_frame, feed_links, home_head, post_feed, tag_base, wide_page};
use super::head::{ArticleMeta, FeedLink, PageMeta, PreviewImage, SITE_DESCRIPTION, SITE_NAME};
use super::html::escape;
use super::model::{
    author_path, category_path, encode_segment, post_path, series_path, tag_path, PublicPost,
};
use super::picture::Picture;
use super::share_image;
use crate::domain::sanitize::clip;
use crate::post_view::SeriesPlace;

/// Characters of a description.
pub const DESCRIPTION_LEN: usize = 200;
/// Characters of a JSON-LD headline (search engines cut longer ones).
pub const HEADLINE_LEN: usize = 110;

/// The site's address (no trailing slash), for absolute links.
#[derive(Debug, Clone)]
pub struct Site {
    pub base: String,
}

impl Site {
    pub fn new(base: &str) -> Self {
        Self {
            base: base.trim_end_matches('/').to_string(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// An address as it stands, or made absolute when it is a path on the site.
    pub fn absolute(&self, url: &str) -> String {
        if url.starts_with('/') && !url.starts_with("//") {
            self.url(url)
        } else {
            url.to_string()
        }
    }

    /// The site's own feeds.
    pub fn site_feeds(&self) -> Vec<FeedLink> {
        vec![
            FeedLink {
                mime: "application/atom+xml",
                title: format!("{SITE_NAME} (Atom)"),
                href: self.url("/feed.xml"),
            },
            FeedLink {
                mime: "application/rss+xml",
                title: format!("{SITE_NAME} (RSS)"),
                href: self.url("/rss.xml"),
            },
        ]
    }

    /// The site's feeds and those of a page (`path` + `/feed.xml`, `/rss.xml`).
    pub fn feeds_with(&self, path: &str, name: &str) -> Vec<FeedLink> {
        let mut feeds = self.site_feeds();
        feeds.push(FeedLink {
            mime: "application/atom+xml",
            title: format!("{name} – {SITE_NAME} (Atom)"),
            href: self.url(&format!("{path}/feed.xml")),
        });
        feeds.push(FeedLink {
            mime: "application/rss+xml",
            title: format!("{name} – {SITE_NAME} (RSS)"),
            href: self.url(&format!("{path}/rss.xml")),
        });
        feeds
    }

    fn publisher(&self) -> Value {
        json!({ "@type": "Organization", "name": SITE_NAME, "url": self.url("/") })
    }

    fn breadcrumbs(&self, last: (&str, &str)) -> Value {
        json!({
            "@context": "https://schema.org",
            "@type": "BreadcrumbList",
            "itemListElement": [
                { "@type": "ListItem", "position": 1, "name": SITE_NAME, "item": self.url("/") },
                { "@type": "ListItem", "position": 2, "name": last.0, "item": self.url(last.1) },
            ]
        })
    }
}

/// A readable date (`May 1, 2024`) of an ISO-8601 time.
pub fn human_date(iso: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(iso)
        .map(|d| d.format("%B %-d, %Y").to_string())
        .unwrap_or_default()
}

/// A post's description: its excerpt, without its title repeated in front.
fn post_description(post: &PublicPost) -> String {
    let excerpt = post.excerpt.trim();
    let rest = excerpt
        .strip_prefix(post.title.trim())
        .map(str::trim_start)
        .filter(|r| !r.is_empty())
        .unwrap_or(excerpt);
    let d = clip(rest, DESCRIPTION_LEN);
    if d.is_empty() {
        format!("{} by {} on {SITE_NAME}", post.title, post.author.name)
    } else {
        d
    }
}

/// The head and body of a post's page. `listable`: the post may be indexed (public, not
/// unlisted).
pub fn post_page(site: &Site, post: &PublicPost, sizes: &dyn ImageSizes) -> (PageMeta, String) {
    let path = post_path(&post.slug);
    let canonical = site.url(&path);
    let author_url = site.url(&author_path(&post.author.id));
    let description = post_description(post);
    let version = share_image::version(&post.title, &post.author.name, post.thumbnail.as_deref());
    let image_url = site.url(&format!(
        "/og/post/{}.png?v={version}",
        encode_segment(&post.id)
    ));
    let keywords = post.tags.join(", ");
    let mut ld = json!({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": clip(&post.title, HEADLINE_LEN),
        "description": description,
        "image": [image_url],
        "datePublished": post.published(),
        "dateModified": post.modified(),
        "author": { "@type": "Person", "name": post.author.name, "url": author_url },
        "publisher": site.publisher(),
        "mainEntityOfPage": { "@type": "WebPage", "@id": canonical },
        "url": canonical,
        "inLanguage": post.lang(),
        "keywords": keywords,
        "isAccessibleForFree": !post.locked,
    });
    if let Some(c) = &post.category {
        ld["articleSection"] = json!(c.name);
    }
    if let Some(place) = &post.series {
        let (series, position) = part_of(site, place);
        ld["isPartOf"] = series;
        ld["position"] = json!(position);
    }
    if post.locked {
        ld["hasPart"] = json!({
            "@type": "WebPageElement",
            "isAccessibleForFree": false,
            "cssSelector": format!(".{LOCKED_CLASS}"),
        });
    }
    let meta = PageMeta {
        title: post.title.clone(),
        description,
        canonical: Some(canonical),
        lang: post.lang().to_string(),
        noindex: !post.is_listable(),
        og_type: "article",
        image: Some(PreviewImage {
            url: image_url,
            width: share_image::WIDTH,
            height: share_image::HEIGHT,
            alt: post.title.clone(),
        }),
        article: Some(ArticleMeta {
            published: post.published().to_string(),
            modified: post.modified().to_string(),
            author_url,
            section: post.category.as_ref().map(|c| c.name.clone()),
            tags: post.tags.clone(),
        }),
        json_ld: vec![ld],
        feeds: site.site_feeds(),
    };
    (meta, article_html(post, &path, sizes))
}

/// The article of a post page (a subscribers-only post: its teaser and where to subscribe).
pub fn article_html(post: &PublicPost, path: &str, sizes: &dyn ImageSizes) -> String {
    let mut b = String::with_capacity(4096);
    b.push_str(&format!(
        "<main id=\"main\"><article class=\"ssr\" lang=\"{}\"><header><h1>{}</h1><p class=\"byline\">By <a href=\"{}\">{}</a>",
        escape(post.lang()),
        escape(&post.title),
        escape(&author_path(&post.author.id)),
        escape(&post.author.name)
    ));
    let date = human_date(post.published());
    if !date.is_empty() {
        b.push_str(&format!(
            " · <time datetime=\"{}\">{}</time>",
            escape(post.published()),
            escape(&date)
        ));
    }
    if let Some(edited) = post.edited_at.as_deref().filter(|e| !e.is_empty()) {
        let day = human_date(edited);
        if !day.is_empty() {
            b.push_str(&format!(
                " · <span class=\"edited\">Edited <time datetime=\"{}\">{}</time></span>",
                escape(edited),
                escape(&day)
            ));
        }
    }
    if post.reading_time > 0 {
        b.push_str(&format!(" · {} min read", post.reading_time));
    }
    if let Some(c) = &post.category {
        b.push_str(&format!(
            " · in <a href=\"{}\">{}</a>",
            escape(&category_path(&c.slug)),
            escape(&c.name)
        ));
    }
    b.push_str("</p></header>\n");
    if let Some(place) = &post.series {
        b.push_str(&series_bar(place));
    }
    if let Some(thumb) = post.thumbnail.as_deref().filter(|t| !t.is_empty()) {
        // What the media directory holds, else what the post recorded when it was saved.
        let meta = sizes
            .meta_of(thumb)
            .or_else(|| post.thumbnail_image.clone());
        b.push_str(&format!(
            "<figure class=\"thumbnail\">{}</figure>\n",
            Picture::new(thumb, &post.title, meta.as_ref())
                .priority()
                .html()
        ));
    }
    if post.locked {
        if !post.excerpt.trim().is_empty() {
            b.push_str(&format!("<p>{}</p>\n", escape(post.excerpt.trim())));
        }
        b.push_str(&format!(
            "<div class=\"{LOCKED_CLASS}\"><p>The rest of this post is for subscribers of {}. <a href=\"/plans/{}\">See the plans</a> or <a href=\"/login\">log in</a>.</p></div>\n",
            escape(&post.author.name),
            escape(&encode_segment(&post.author.id))
        ));
    } else {
        b.push_str(&render_blocks(&post.blocks, path, sizes));
    }
    if !post.tags.is_empty() {
        b.push_str("<p class=\"tags\">");
        for tag in &post.tags {
            b.push_str(&format!(
                "<a href=\"{}\">#{}</a> ",
                escape(&tag_path(tag)),
                escape(tag)
            ));
        }
        b.push_str("</p>\n");
    }
    b.push_str("</article></main>");
    b
}

/// An author as their page shows them.
#[derive(Debug, Clone)]
pub struct AuthorInfo {
    pub id: String,
    pub name: String,
    pub bio: Option<String>,
    pub avatar: Option<String>,
}

/// What an author's page shows besides its head: their profile as the API gives it to a guest,
/// whether they sell subscriptions, and the first page of their posts and its total.
pub struct AuthorScreen<'a> {
    pub profile: &'a Value,
    pub has_plans: bool,
    pub posts: &'a [PublicPost],
    pub total: u64,
}

/// The head and body of an author's page (the app's frame, profile and cards).
pub fn author_page(
    site: &Site,
    author: &AuthorInfo,
    screen: &AuthorScreen,
    cx: &CardContext,
) -> (PageMeta, String) {
    let path = author_path(&author.id);
    let canonical = site.url(&path);
    let bio = author.bio.as_deref().map(str::trim).unwrap_or("");
    let description = if bio.is_empty() {
        format!("Posts by {} on {SITE_NAME}", author.name)
    } else {
        clip(bio, DESCRIPTION_LEN)
    };
    let mut person = json!({
        "@type": "Person",
        "name": author.name,
        "url": canonical,
        "identifier": author.id,
    });
    if !bio.is_empty() {
        person["description"] = json!(bio);
    }
    if let Some(avatar) = author.avatar.as_deref().filter(|a| !a.is_empty()) {
        person["image"] = json!(site.absolute(avatar));
    }
    let ld = json!({
        "@context": "https://schema.org",
        "@type": "ProfilePage",
        "mainEntity": person,
        "url": canonical,
    });
    let meta = PageMeta {
        title: author.name.clone(),
        description,
        canonical: Some(canonical),
        lang: "en".into(),
        noindex: false,
        og_type: "profile",
        image: None,
        article: None,
        json_ld: vec![ld],
        feeds: site.feeds_with(&path, &author.name),
    };
    let body = super::cards::author_body(
        screen.profile,
        screen.has_plans,
        screen.posts,
        screen.total,
        cx.sizes,
        cx.now,
    );
    (meta, super::cards::app_frame_without_sections(&path, &body))
}

/// What a list page's cards need besides its posts: image sizes and the time they are drawn at.
pub struct CardContext<'a> {
    pub sizes: &'a dyn ImageSizes,
    pub now: chrono::DateTime<chrono::Utc>,
}

/// The head and body of a tag's page (the app's frame and cards).
pub fn tag_page(
    site: &Site,
    tag: &str,
    posts: &[PublicPost],
    cx: &CardContext,
) -> (PageMeta, String) {
    let path = tag_path(tag);
    let name = format!("#{tag}");
    let meta = PageMeta {
        title: name.clone(),
        description: format!("Posts tagged #{tag} on {SITE_NAME}"),
        canonical: Some(site.url(&path)),
        lang: "en".into(),
        noindex: false,
        og_type: "website",
        image: None,
        article: None,
        json_ld: vec![site.breadcrumbs((&name, &path))],
        feeds: site.feeds_with(&path, &name),
    };
    let base = tag_base(tag);
    let page = wide_page(
        &name,
        &feed_links(&base, &format!("Follow #{tag} in a feed reader")),
        &post_feed(
            &format!("Posts tagged {tag}"),
            "No posts with this tag yet.",
            posts,
            cx.sizes,
            cx.now,
        ),
    );
    (meta, app_frame(&path, &page))
}

/// A category as its page shows it.
#[derive(Debug, Clone)]
pub struct CategoryInfo {
    pub name: String,
    pub slug: String,
    pub description: String,
}

/// The head and body of a category's page (the app's frame and cards).
pub fn category_page(
    site: &Site,
    cat: &CategoryInfo,
    posts: &[PublicPost],
    cx: &CardContext,
) -> (PageMeta, String) {
    let path = category_path(&cat.slug);
    let description = if cat.description.trim().is_empty() {
        format!("Posts in {} on {SITE_NAME}", cat.name)
    } else {
        clip(&cat.description, DESCRIPTION_LEN)
    };
    let meta = PageMeta {
        title: cat.name.clone(),
        description,
        canonical: Some(site.url(&path)),
        lang: "en".into(),
        noindex: false,
        og_type: "website",
        image: None,
        article: None,
        json_ld: vec![site.breadcrumbs((&cat.name, &path))],
        feeds: site.feeds_with(&path, &cat.name),
    };
    let mut before = String::new();
    if !cat.description.is_empty() {
        before.push_str(&format!(
            "<p class=\"lead muted\">{}</p>",
            escape(&cat.description)
        ));
    }
    before.push_str(&feed_links(
        &path,
        &format!("Follow {} in a feed reader", cat.name),
    ));
    let page = wide_page(
        &cat.name,
        &before,
        &post_feed(
            &format!("Posts in {}", cat.name),
            "No posts in this category yet.",
            posts,
            cx.sizes,
            cx.now,
        ),
    );
    (meta, app_frame(&path, &page))
}

/// The home page's title, as the app's.
pub const HOME_TITLE: &str = "Stories";

/// The head and body of the home page (the app's frame, its Latest tab and the count of posts).
pub fn home_page(
    site: &Site,
    posts: &[PublicPost],
    all_posts: u64,
    cx: &CardContext,
) -> (PageMeta, String) {
    let ld = json!({
        "@context": "https://schema.org",
        "@type": "WebSite",
        "name": SITE_NAME,
        "url": site.url("/"),
        "description": SITE_DESCRIPTION,
    });
    let meta = PageMeta {
        title: String::new(),
        description: SITE_DESCRIPTION.to_string(),
        canonical: Some(site.url("/")),
        lang: "en".into(),
        noindex: false,
        og_type: "website",
        image: None,
        article: None,
        json_ld: vec![ld],
        feeds: site.site_feeds(),
    };
    let list = format!(
        "<div role=\"tabpanel\" id=\"panel-latest\" aria-labelledby=\"tab-latest\">{}</div>",
        post_feed(
            "Latest posts",
            "No posts yet. Be the first to write one!",
            posts,
            cx.sizes,
            cx.now,
        )
    );
    let page = wide_page(HOME_TITLE, &home_head(all_posts), &list);
    (meta, app_frame("/", &page))
}

/// A part's JSON-LD `isPartOf` and `position`.
pub fn part_of(site: &Site, place: &SeriesPlace) -> (Value, usize) {
    (
        json!({
            "@type": "CreativeWorkSeries",
            "name": place.title,
            "url": site.url(&series_path(&place.slug)),
        }),
        place.position,
    )
}

/// The series bar of a part's page.
pub fn series_bar(place: &SeriesPlace) -> String {
    let mut b = format!(
        "<nav class=\"series-bar\" aria-label=\"Series\"><p class=\"series-bar__title\">Part {} of {} in <a href=\"{}\">{}</a></p>",
        place.position,
        place.total,
        escape(&series_path(&place.slug)),
        escape(&place.title)
    );
    b.push_str("<p class=\"series-bar__steps\">");
    if let Some(prev) = &place.previous {
        b.push_str(&format!(
            "<a rel=\"prev\" href=\"{}\">← Part {}: {}</a> ",
            escape(&post_path(&prev.slug)),
            prev.position,
            escape(&prev.title)
        ));
    }
    if let Some(next) = &place.next {
        b.push_str(&format!(
            "<a rel=\"next\" href=\"{}\">Part {}: {} →</a>",
            escape(&post_path(&next.slug)),
            next.position,
            escape(&next.title)
        ));
    }
    b.push_str("</p><details class=\"series-bar__parts\"><summary>All parts</summary><ol>");
    for part in &place.parts {
        if part.position == place.position {
            b.push_str(&format!(
                "<li aria-current=\"page\">{}</li>",
                escape(&part.title)
            ));
        } else {
            b.push_str(&format!(
                "<li><a href=\"{}\">{}</a></li>",
                escape(&post_path(&part.slug)),
                escape(&part.title)
            ));
        }
    }
    b.push_str("</ol></details></nav>\n");
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::article::NoSizes;
    use serde_json::json;

    fn post(extra: Value) -> PublicPost {
        let mut v = json!({
            "_id": "64b7f0000000000000000001",
            "slug": "a-post",
            "title": "A </title><script>x</script> \"post\" & more",
            "blocks": [{"id": "p1", "type": "paragraph", "data": {"text": "Body text here."}}],
            "thumbnail": null,
            "excerpt": "Body text here.",
            "tags": ["rust", "web"],
            "language": "de",
            "locked": false,
            "visibility": "Public",
            "status": "published",
            "blocked": false,
            "readingTime": 2,
            "publishedAt": "2024-05-01T10:00:00Z",
            "createdAt": "2024-04-30T10:00:00Z",
            "updatedAt": "2024-05-02T10:00:00Z",
            "editedAt": "2024-05-02T09:00:00Z",
            "author": {"_id": "64b7f00000000000000000aa", "name": "Ann <Writer>", "avatar": null},
            "category": {"_id": "64b7f00000000000000000cc", "name": "Tech", "slug": "tech"}
        });
        if let (Some(base), Some(extra)) = (v.as_object_mut(), extra.as_object()) {
            for (k, val) in extra {
                base.insert(k.clone(), val.clone());
            }
        }
        serde_json::from_value(v).unwrap()
    }

    fn ld_of(meta: &PageMeta) -> &Value {
        &meta.json_ld[0]
    }

    #[test]
    fn a_post_page_describes_the_post() {
        let site = Site::new("https://news.example/");
        let (meta, body) = post_page(&site, &post(json!({})), &NoSizes);
        assert_eq!(
            meta.canonical.as_deref(),
            Some("https://news.example/post/a-post")
        );
        assert_eq!(meta.lang, "de");
        assert!(!meta.noindex);
        let ld = ld_of(&meta);
        assert_eq!(ld["@type"], "BlogPosting");
        assert_eq!(ld["datePublished"], "2024-05-01T10:00:00Z");
        // Modified when the content was edited, not when anything else changed.
        assert_eq!(ld["dateModified"], "2024-05-02T09:00:00Z");
        assert!(body.contains("Edited <time datetime=\"2024-05-02T09:00:00Z\">"));
        let (never, _) = post_page(&site, &post(json!({ "editedAt": null })), &NoSizes);
        assert_eq!(ld_of(&never)["dateModified"], "2024-05-01T10:00:00Z");
        assert_eq!(
            ld["author"]["url"],
            "https://news.example/author-profile/64b7f00000000000000000aa"
        );
        assert_eq!(ld["inLanguage"], "de");
        assert_eq!(ld["keywords"], "rust, web");
        assert_eq!(ld["isAccessibleForFree"], true);
        assert!(ld.get("hasPart").is_none());
        let img = meta.image.as_ref().unwrap();
        assert!(img
            .url
            .starts_with("https://news.example/og/post/64b7f0000000000000000001.png?v="));
        assert_eq!((img.width, img.height), (1200, 630));
        assert!(body.contains("<p>Body text here.</p>"));
        assert!(body.contains(
            "<h1>A &lt;/title&gt;&lt;script&gt;x&lt;/script&gt; &quot;post&quot; &amp; more</h1>"
        ));
        assert!(body.contains(
            "By <a href=\"/author-profile/64b7f00000000000000000aa\">Ann &lt;Writer&gt;</a>"
        ));
        assert!(body.contains("<time datetime=\"2024-05-01T10:00:00Z\">May 1, 2024</time>"));
        assert!(
            !body.contains("<figure class=\"thumbnail\">"),
            "no thumbnail, no figure"
        );
        let head = meta.render();
        assert!(!head.contains("<script>x"));
    }

    #[test]
    fn a_subscribers_only_post_shows_its_teaser_and_is_marked_paywalled() {
        let site = Site::new("https://news.example");
        let p = post(json!({"locked": true, "blocks": [], "excerpt": "The teaser."}));
        let (meta, body) = post_page(&site, &p, &NoSizes);
        let ld = ld_of(&meta);
        assert_eq!(ld["isAccessibleForFree"], false);
        assert_eq!(ld["hasPart"]["isAccessibleForFree"], false);
        assert_eq!(ld["hasPart"]["cssSelector"], ".post-locked");
        assert!(body.contains("<p>The teaser.</p>"));
        assert!(body.contains("<div class=\"post-locked\">"));
        assert!(body.contains("/plans/64b7f00000000000000000aa"));
    }

    #[test]
    fn unlisted_posts_are_not_indexed_and_odd_languages_are_english() {
        let site = Site::new("https://news.example");
        let (meta, _) = post_page(
            &site,
            &post(json!({"visibility": "Unlisted", "language": "\"><x"})),
            &NoSizes,
        );
        assert!(meta.noindex);
        assert_eq!(meta.lang, "en");
    }

    #[test]
    fn a_thumbnail_is_painted_first() {
        let site = Site::new("https://news.example");
        let (_, body) = post_page(
            &site,
            &post(json!({"thumbnail": "https://cdn.example/t.png"})),
            &NoSizes,
        );
        assert!(body.contains("<img src=\"https://cdn.example/t.png\" alt=\"A &lt;/title&gt;"));
        assert!(body.contains("fetchpriority=\"high\""));
    }

    #[test]
    fn a_description_does_not_repeat_the_title() {
        let p = post(json!({"title": "Hello", "excerpt": "Hello The body starts here."}));
        assert_eq!(post_description(&p), "The body starts here.");
    }

    #[test]
    fn list_pages_offer_their_feeds_and_breadcrumbs() {
        let site = Site::new("https://news.example");
        let cx = CardContext {
            sizes: &NoSizes,
            now: chrono::Utc::now(),
        };
        let (meta, body) = tag_page(&site, "rust lang", &[post(json!({}))], &cx);
        assert_eq!(
            meta.canonical.as_deref(),
            Some("https://news.example/tag/rust%20lang")
        );
        assert!(meta
            .feeds
            .iter()
            .any(|f| f.href == "https://news.example/tag/rust%20lang/feed.xml"));
        assert!(meta
            .feeds
            .iter()
            .any(|f| f.href == "https://news.example/feed.xml"));
        assert_eq!(ld_of(&meta)["@type"], "BreadcrumbList");
        assert!(body.contains("<a href=\"/post/a-post\">"));
        assert!(body.contains("<ul class=\"post-grid\"><li><article class=\"post-card\""));
        assert!(body.contains("<h1 class=\"page__title\">#rust lang</h1>"));
        assert!(body.contains("href=\"/tag/rust%20lang/feed.xml\""));
        let (_, home) = home_page(&site, &[post(json!({}))], 1234, &cx);
        assert!(home.contains("<h1 class=\"page__title\">Stories</h1>"));
        assert!(home.contains("<dd data-testid=\"count-all\">1.2K</dd>"));
        assert!(
            home.contains("<a class=\"nav-link active\" aria-current=\"page\" href=\"/\">Home</a>")
        );
        let author = AuthorInfo {
            id: "64b7f00000000000000000aa".into(),
            name: "Ann".into(),
            bio: Some("Writes about <rust>.".into()),
            avatar: Some("/media/x.png".into()),
        };
        let profile = serde_json::json!({"_id": author.id, "name": "Ann", "bio": "Writes about <rust>.", "createdAt": "2024-05-01T10:00:00Z", "followersCount": 1500});
        let screen = AuthorScreen {
            profile: &profile,
            has_plans: true,
            posts: &[],
            total: 0,
        };
        let (meta, body) = author_page(&site, &author, &screen, &cx);
        assert!(body.contains("<dd data-testid=\"followers-count\">1.5K</dd>"));
        assert!(body.contains("<span>Joined May 1, 2024</span>"));
        assert!(body.contains("href=\"/plans/64b7f00000000000000000aa\">Subscribe</a>"));
        assert!(body.contains("Ann has not published a post yet."));
        assert!(!body.contains("secondary-bar"));
        assert_eq!(meta.og_type, "profile");
        assert_eq!(meta.description, "Writes about <rust>.");
        assert_eq!(
            ld_of(&meta)["mainEntity"]["image"],
            "https://news.example/media/x.png"
        );
        assert!(body.contains("Writes about &lt;rust&gt;."));
    }
}

#[cfg(test)]
mod series_bar_tests {
    use super::*;
    use crate::post_view::PartLink;

    fn link(n: usize) -> PartLink {
        PartLink {
            slug: format!("part-{n}"),
            title: format!("Part <{n}>"),
            position: n,
        }
    }

    #[test]
    fn the_bar_names_the_place_and_the_neighbours() {
        let place = SeriesPlace {
            id: "s".into(),
            slug: "my-saga".into(),
            title: "My saga".into(),
            position: 2,
            total: 3,
            previous: Some(link(1)),
            next: Some(link(3)),
            parts: vec![link(1), link(2), link(3)],
        };
        let bar = series_bar(&place);
        assert!(bar.contains("Part 2 of 3 in <a href=\"/series/my-saga\">My saga</a>"));
        assert!(bar.contains("<a rel=\"prev\" href=\"/post/part-1\">← Part 1: Part &lt;1&gt;</a>"));
        assert!(bar.contains("<a rel=\"next\" href=\"/post/part-3\">"));
        assert!(bar.contains("<li aria-current=\"page\">Part &lt;2&gt;</li>"));
        let (ld, position) = part_of(&Site::new("https://x.example"), &place);
        assert_eq!(ld["@type"], "CreativeWorkSeries");
        assert_eq!(ld["url"], "https://x.example/series/my-saga");
        assert_eq!(position, 2);
    }
}
