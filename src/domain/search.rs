//! Search text: how posts are indexed for search and how a query is turned into a literal,
//! case-insensitive pattern over that index.

use super::error::DomainError;

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
