//! One post of a Medium export (`posts/*.html` in the zip Medium sends): its title, subtitle,
//! body, tags, publication time and canonical link. Medium exports drafts (no publication time)
//! and the writer's responses to other posts (comments written as posts) the same way; both are
//! told apart here.

use chrono::{DateTime, Utc};
use scraper::{ElementRef, Html, Selector};

/// A post read from a Medium export file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MediumPost {
    /// Medium's id of the post (the hexadecimal end of its address), else the file's name.
    pub source_id: String,
    pub title: String,
    pub subtitle: String,
    /// The body's HTML (`section[data-field=body]`).
    pub html: String,
    /// Tags as `(name, slug)`.
    pub tags: Vec<(String, String)>,
    /// When Medium published it; `None` for a draft.
    pub published_at: Option<DateTime<Utc>>,
    /// The post's address on Medium (`a.p-canonical`, or a draft's "View original" link).
    pub canonical_url: Option<String>,
    /// The readable part of the canonical address (`my-post` of `…/my-post-1a2b3c4d5e6f`).
    pub slug: Option<String>,
    /// A response to another post rather than a post of its own.
    pub response: bool,
}

/// The elements a selector of this module's own matches (none if it did not parse).
fn matching<'a>(doc: &'a Html, css: &str) -> Vec<ElementRef<'a>> {
    Selector::parse(css)
        .map(|s| doc.select(&s).collect())
        .unwrap_or_default()
}

fn text_of(el: ElementRef) -> String {
    el.text()
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn select(doc: &Html, css: &str) -> Vec<String> {
    matching(doc, css).into_iter().map(text_of).collect()
}

fn first_attr(doc: &Html, css: &str, attr: &str) -> Option<String> {
    matching(doc, css)
        .into_iter()
        .find_map(|e| e.value().attr(attr).map(|v| v.trim().to_string()))
        .filter(|v| !v.is_empty())
}

/// Medium's post id at the end of an address: `…/title-words-1a2b3c4d5e6f` or `…/p/1a2b3c4d5e6f`.
fn medium_id(url: &str) -> Option<(String, Option<String>)> {
    let path = url.split(['?', '#']).next()?.trim_end_matches('/');
    let last = path.rsplit('/').next()?;
    let is_id = |s: &str| s.len() >= 8 && s.chars().all(|c| c.is_ascii_hexdigit());
    if is_id(last) {
        return Some((last.to_string(), None));
    }
    let (words, id) = last.rsplit_once('-')?;
    is_id(id).then(|| {
        (
            id.to_string(),
            Some(words.to_string()).filter(|w| !w.is_empty()),
        )
    })
}

/// Reads one export file; `file_name` stands in for an id Medium did not write.
pub fn read_medium_post(file_name: &str, page: &str) -> MediumPost {
    let doc = Html::parse_document(page);
    let title = select(&doc, "h1.p-name")
        .into_iter()
        .next()
        .or_else(|| select(&doc, "title").into_iter().next())
        .unwrap_or_default();
    let subtitle = select(&doc, "section[data-field=subtitle]")
        .into_iter()
        .next()
        .unwrap_or_default();
    let body = matching(&doc, "section[data-field=body]")
        .into_iter()
        .next();
    let html = body.map(|b| b.inner_html()).unwrap_or_default();
    let tags = matching(&doc, "a.p-tag")
        .into_iter()
        .filter_map(|a| {
            let name = a.text().collect::<String>().trim().to_string();
            let slug = a
                .value()
                .attr("href")
                .and_then(|h| {
                    h.trim_end_matches('/')
                        .rsplit('/')
                        .next()
                        .map(str::to_string)
                })
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| name.to_lowercase());
            (!name.is_empty()).then_some((name, slug))
        })
        .collect();
    let published_at = first_attr(&doc, "time.dt-published", "datetime")
        .and_then(|d| DateTime::parse_from_rfc3339(&d).ok())
        .map(|d| d.with_timezone(&Utc));
    let canonical_url = first_attr(&doc, "a.p-canonical", "href").or_else(|| {
        // A draft links to itself as "View original."
        matching(&doc, "footer a")
            .into_iter()
            .find(|a| {
                a.text()
                    .collect::<String>()
                    .trim()
                    .starts_with("View original")
            })
            .and_then(|a| a.value().attr("href").map(str::to_string))
    });
    let (source_id, slug) = canonical_url
        .as_deref()
        .and_then(medium_id)
        .unwrap_or_else(|| (file_name.trim_end_matches(".html").to_string(), None));
    // A response has no subtitle and no title of its own in its body: Medium names it after its
    // first words.
    let has_title_in_body = body.is_some_and(|b| {
        Selector::parse(".graf--title").is_ok_and(|s| b.select(&s).next().is_some())
    });
    let body_text = body.map(text_of).unwrap_or_default();
    let response = subtitle.is_empty()
        && !has_title_in_body
        && published_at.is_some()
        && !title.is_empty()
        && body_text.starts_with(title.trim_end_matches('…').trim());
    MediumPost {
        source_id,
        title,
        subtitle,
        html,
        tags,
        published_at,
        canonical_url,
        slug,
        response,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(name: &str) -> MediumPost {
        let full = super::super::fixture_path(&format!("medium/posts/{name}"));
        let page =
            std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
        read_medium_post(name, &page)
    }

    #[test]
    fn a_published_post() {
        let p = post("basic-post.html");
        assert_eq!(p.title, "Basic Post Title");
        assert_eq!(p.subtitle, "This is a subtitle of some sort");
        assert_eq!(p.source_id, "efefef12121212");
        assert_eq!(p.slug.as_deref(), Some("testpost"));
        assert_eq!(
            p.canonical_url.as_deref(),
            Some("https://medium.com/@JoeBloggs/testpost-efefef12121212")
        );
        assert_eq!(
            p.tags,
            [
                ("Things".to_string(), "things".to_string()),
                ("Stuff".to_string(), "stuff".to_string())
            ]
        );
        assert_eq!(
            p.published_at.unwrap().to_rfc3339(),
            "2018-08-11T11:23:34.123+00:00"
        );
        assert!(p.html.contains("This is a paragraph of text and stuff."));
        assert!(!p.response);
    }

    #[test]
    fn a_draft_a_post_without_a_slug_and_a_response() {
        let draft = post("draft-post.html");
        assert_eq!(draft.published_at, None);
        assert_eq!(draft.source_id, "ababab12121212");
        assert!(!draft.response);
        let no_slug = post("no-slug-post.html");
        assert_eq!(no_slug.source_id, "1234567890");
        assert_eq!(no_slug.slug, None);
        let response = post("comment.html");
        assert!(response.response, "{response:?}");
        assert_eq!(response.source_id, "a1b2c3d4e5f6");
        assert!(!post("quote-post.html").response);
    }

    #[test]
    fn a_file_that_is_not_a_medium_post_gives_an_empty_post() {
        let p = read_medium_post("notes.html", "<html><body><p>hello</p></body></html>");
        assert_eq!(p.title, "");
        assert_eq!(p.html, "");
        assert_eq!(p.source_id, "notes");
    }
}
