//! A Substack export (`posts.csv` and `posts/<post_id>.html` in the zip Substack sends): one row
//! per newsletter, thread, podcast or page, published or not, with who may read it.

use super::ReadError;
use chrono::{DateTime, Utc};

/// One row of `posts.csv`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubstackRow {
    /// `post_id` (`123401.plain-text`): the id, a dot, the slug; the HTML is `posts/<post_id>.html`.
    pub post_id: String,
    /// The numeric part of `post_id`.
    pub source_id: String,
    /// The slug part of `post_id`.
    pub slug: Option<String>,
    pub date: Option<DateTime<Utc>>,
    pub published: bool,
    /// newsletter, podcast, thread or page.
    pub kind: String,
    /// everyone, only_paid, founding, only_free.
    pub audience: String,
    pub title: String,
    pub subtitle: String,
    pub podcast_url: Option<String>,
}

/// Decodes the HTML character references Substack leaves in titles (`&#x201C;`, `&amp;`).
fn decode(text: &str) -> String {
    let fragment = scraper::Html::parse_fragment(text);
    fragment
        .root_element()
        .text()
        .collect::<String>()
        .trim()
        .to_string()
}

/// Reads `posts.csv`.
pub fn read_substack_csv(bytes: &[u8]) -> Result<Vec<SubstackRow>, ReadError> {
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(bytes);
    let headers = reader
        .headers()
        .map_err(|e| ReadError(format!("posts.csv could not be read: {e}")))?
        .clone();
    let column = |name: &str| headers.iter().position(|h| h.trim() == name);
    let required = ["post_id", "title"];
    for name in required {
        if column(name).is_none() {
            return Err(ReadError(format!(
                "posts.csv has no \"{name}\" column: is this a Substack export?"
            )));
        }
    }
    let (id_at, title_at) = (column("post_id").unwrap_or(0), column("title").unwrap_or(0));
    let at = |record: &csv::StringRecord, name: &str| -> String {
        column(name)
            .and_then(|i| record.get(i))
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| {
            let line = e.position().map(|p| p.line()).unwrap_or(line as u64);
            ReadError(format!("posts.csv line {line} could not be read: {e}"))
        })?;
        let post_id = record.get(id_at).unwrap_or("").trim().to_string();
        if post_id.is_empty() {
            return Err(ReadError(format!("posts.csv line {line} has no post_id")));
        }
        if post_id.contains(['/', '\\']) || post_id.starts_with('.') {
            return Err(ReadError(format!(
                "posts.csv line {line} has a post_id that is not a file name: {post_id}"
            )));
        }
        let (source_id, slug) = match post_id.split_once('.') {
            Some((id, slug)) => (
                id.to_string(),
                Some(slug.to_string()).filter(|s| !s.is_empty()),
            ),
            None => (post_id.clone(), None),
        };
        let date = DateTime::parse_from_rfc3339(&at(&record, "post_date"))
            .ok()
            .map(|d| d.with_timezone(&Utc));
        let podcast_url = Some(at(&record, "podcast_url")).filter(|u| !u.is_empty());
        rows.push(SubstackRow {
            source_id,
            slug,
            date,
            published: at(&record, "is_published").eq_ignore_ascii_case("true"),
            kind: Some(at(&record, "type"))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| "newsletter".into()),
            audience: Some(at(&record, "audience"))
                .filter(|a| !a.is_empty())
                .unwrap_or_else(|| "everyone".into()),
            title: decode(record.get(title_at).unwrap_or("")),
            subtitle: decode(&at(&record, "subtitle")),
            podcast_url,
            post_id,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_export_rows() {
        let full = super::super::fixture_path("substack/posts.csv");
        let bytes = std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
        let rows = read_substack_csv(&bytes).unwrap();
        assert_eq!(rows.len(), 5);
        let first = &rows[0];
        assert_eq!(first.post_id, "123401.plain-text");
        assert_eq!(first.source_id, "123401");
        assert_eq!(first.slug.as_deref(), Some("plain-text"));
        assert!(first.published);
        assert_eq!(
            first.subtitle,
            "\u{201C}This quote\u{2019}s rather short\u{201D}"
        );
        assert_eq!(
            first.date.unwrap().to_rfc3339(),
            "2019-07-26T20:48:19.814+00:00"
        );
        assert_eq!(rows[1].kind, "podcast");
        assert_eq!(
            rows[1].podcast_url.as_deref(),
            Some("https://example.com/my-audio/file.mp3")
        );
        assert_eq!(rows[2].kind, "thread");
        assert!(!rows[3].published);
        assert_eq!(rows[4].kind, "page");
        assert!(rows.iter().all(|r| r.audience == "everyone"));
    }

    #[test]
    fn bad_files_say_what_is_wrong_and_where() {
        let err = read_substack_csv(b"id,name\n1,a\n").unwrap_err();
        assert!(err.0.contains("no \"post_id\" column"), "{err}");
        let err = read_substack_csv(b"post_id,title\n1.a,A\n2.b,B,extra\n").unwrap_err();
        assert!(err.0.contains("line 3"), "{err}");
        let err = read_substack_csv(b"post_id,title\n../../etc/passwd,A\n").unwrap_err();
        assert!(err.0.contains("not a file name"), "{err}");
        let err = read_substack_csv(b"post_id,title\n,A\n").unwrap_err();
        assert!(err.0.contains("line 2 has no post_id"), "{err}");
    }
}
