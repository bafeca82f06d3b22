//! Search text: how posts are indexed for search and how a query is turned into a literal,
//! case-insensitive pattern over that index.

use super::blocks::Block;
use super::error::DomainError;
use super::post::Audience;

pub const MIN_QUERY_LEN: usize = 3;
pub const MAX_QUERY_LEN: usize = 200;
pub const MSG_QUERY_TOO_SHORT: &str = "Search query must be at least 3 characters";

/// Lowercases and collapses whitespace: the form stored in a post's `searchText` and the form a
/// query is matched in.
pub fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A search query: normalised, at least `MIN_QUERY_LEN` characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery(String);

impl SearchQuery {
    pub fn parse(raw: Option<&str>) -> Result<Self, DomainError> {
        let query = normalize(raw.unwrap_or(""));
        if query.chars().count() < MIN_QUERY_LEN {
            return Err(DomainError::invalid(MSG_QUERY_TOO_SHORT));
        }
        if query.chars().count() > MAX_QUERY_LEN {
            return Err(DomainError::invalid(format!(
                "Search query must be at most {MAX_QUERY_LEN} characters"
            )));
        }
        Ok(SearchQuery(query))
    }

    /// A filter text of any length (used inside a user's own post list); `None` when empty.
    pub fn filter(raw: Option<&str>) -> Result<Option<Self>, DomainError> {
        let query = normalize(raw.unwrap_or(""));
        if query.is_empty() {
            return Ok(None);
        }
        if query.chars().count() > MAX_QUERY_LEN {
            return Err(DomainError::invalid(format!(
                "Search text must be at most {MAX_QUERY_LEN} characters"
            )));
        }
        Ok(Some(SearchQuery(query)))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The query as a regular expression matching itself literally.
    pub fn literal_pattern(&self) -> String {
        escape_regex(&self.0)
    }
}

/// Escapes every regular-expression metacharacter so the text matches only itself.
pub fn escape_regex(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Characters of a post's excerpt.
pub const EXCERPT_LEN: usize = 200;

/// The first words of a post's text.
pub fn excerpt(blocks: &[Block]) -> String {
    let text = super::blocks::plain_text_of(
        &blocks
            .iter()
            .filter(|b| b.kind != "code")
            .cloned()
            .collect::<Vec<_>>(),
    );
    super::sanitize::clip(&text, EXCERPT_LEN)
}

/// Characters of a post's search text that are indexed.
pub const MAX_SEARCH_TEXT_LEN: usize = 100_000;

/// The normalised text search matches: title, tags and block text.
pub fn search_text(title: &str, tags: &[String], blocks: &[Block]) -> String {
    let mut text = normalize(&format!(
        "{title} {} {}",
        tags.join(" "),
        super::blocks::plain_text_of(blocks)
    ));
    if text.len() > MAX_SEARCH_TEXT_LEN {
        let mut cut = MAX_SEARCH_TEXT_LEN;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// The search text of a post for its audience: a subscribers-only post is found by its title,
/// tags and excerpt (what everyone may see of it), never by the text of its locked blocks.
pub fn search_text_for(
    title: &str,
    tags: &[String],
    blocks: &[Block],
    audience: Audience,
) -> String {
    match audience {
        Audience::Everyone => search_text(title, tags, blocks),
        Audience::Subscribers => normalize(&format!(
            "{} {}",
            search_text(title, tags, &[]),
            normalize(&excerpt(blocks))
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_character_query_is_refused() {
        assert!(SearchQuery::parse(Some(" ab ")).is_err());
        assert!(SearchQuery::parse(None).is_err());
        assert_eq!(SearchQuery::parse(Some(" A  b ")).unwrap().as_str(), "a b");
    }

    #[test]
    fn regex_characters_are_escaped() {
        assert_eq!(escape_regex("a.b*(c)"), r"a\.b\*\(c\)");
        assert_eq!(escape_regex(r"^$\|"), r"\^\$\\\|");
    }
}
