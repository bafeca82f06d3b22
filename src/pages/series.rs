//! A series for the outside world: its page, the parts in order, and `CreativeWorkSeries`
//! JSON-LD with each part's position (a part's own page carries its bar: `view::series_bar`).

use serde_json::json;

use super::cards::{app_frame, feed_links, wide_page};
use super::head::{PageMeta, SITE_NAME};
use super::html::escape;
use super::model::{author_path, post_path, series_path, PublicPost};
use super::view::{human_date, Site};

/// What the series page shows of the series itself.
pub struct SeriesInfo {
    pub title: String,
    pub slug: String,
    pub description: String,
    pub author_id: String,
    pub author_name: String,
}

/// The head and body of a series page: its parts in order (a subscriber-only part as its
/// teaser, as everywhere).
pub fn series_page(site: &Site, info: &SeriesInfo, parts: &[PublicPost]) -> (PageMeta, String) {
    let path = series_path(&info.slug);
    let description = if info.description.trim().is_empty() {
        format!("A series by {} on {SITE_NAME}", info.author_name)
    } else {
        info.description.trim().to_string()
    };
    let ld = json!({
        "@context": "https://schema.org",
        "@type": "CreativeWorkSeries",
        "name": info.title,
        "description": description,
        "url": site.url(&path),
        "author": { "@type": "Person", "name": info.author_name, "url": site.url(&author_path(&info.author_id)) },
        "hasPart": parts.iter().enumerate().map(|(i, p)| json!({
            "@type": "BlogPosting",
            "headline": p.title,
            "url": site.url(&post_path(&p.slug)),
            "position": i + 1,
            "datePublished": p.published(),
            "isAccessibleForFree": !p.locked,
        })).collect::<Vec<_>>(),
    });
    let meta = PageMeta {
        title: info.title.clone(),
        description: description.clone(),
        canonical: Some(site.url(&path)),
        lang: "en".into(),
        noindex: false,
        og_type: "website",
        image: None,
        article: None,
        json_ld: vec![ld],
        feeds: site.feeds_with(&path, &info.title),
    };
    let mut before = format!(
        "<p class=\"lead muted\">A series by <a href=\"{}\">{}</a> · {} {}</p>",
        escape(&author_path(&info.author_id)),
        escape(&info.author_name),
        parts.len(),
        if parts.len() == 1 { "part" } else { "parts" }
    );
    if !info.description.trim().is_empty() {
        before.push_str(&format!("<p>{}</p>", escape(info.description.trim())));
    }
    before.push_str(&feed_links(
        &path,
        &format!("Follow {} in a feed reader", info.title),
    ));
    let mut list = String::from("<section class=\"series-parts\" aria-label=\"Parts\">");
    if parts.is_empty() {
        list.push_str("<div class=\"feed-state muted\">No parts published yet.</div>");
    } else {
        list.push_str("<ol class=\"series-parts__list\">");
        for (i, p) in parts.iter().enumerate() {
            let date = human_date(p.published());
            list.push_str(&format!(
                "<li><p class=\"series-parts__number\">Part {}</p><h2><a href=\"{}\">{}</a></h2><p class=\"muted\">{}{}</p><p>{}</p></li>",
                i + 1,
                escape(&post_path(&p.slug)),
                escape(&p.title),
                escape(&date),
                if p.locked { " · For subscribers" } else { "" },
                escape(p.excerpt.trim())
            ));
        }
        list.push_str("</ol>");
    }
    list.push_str("</section>");
    (
        meta,
        app_frame(&path, &wide_page(&info.title, &before, &list)),
    )
}
