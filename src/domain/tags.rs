//! Post tags: trimmed, lowercased, inner whitespace collapsed, a leading `#` dropped,
//! de-duplicated in first-seen order, at most `MAX_TAGS` per post.

use serde::Deserialize;

use super::error::DomainError;

pub const MAX_TAGS: usize = 10;
pub const MAX_TAG_LEN: usize = 40;

/// Tags as a client may send them: a list, or one comma-separated string.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum TagsInput {
    List(Vec<String>),
    Text(String),
}

/// Normalises one tag; `None` when nothing is left of it.
pub fn normalize_tag(raw: &str) -> Option<String> {
    let trimmed = raw.trim().trim_start_matches('#');
    let tag = trimmed
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    (!tag.is_empty()).then_some(tag)
}

/// Parses and normalises a post's tags.
pub fn parse_tags(input: Option<TagsInput>) -> Result<Vec<String>, DomainError> {
    let raw: Vec<String> = match input {
        None => Vec::new(),
        Some(TagsInput::List(list)) => list,
        Some(TagsInput::Text(text)) => text.split(',').map(str::to_string).collect(),
    };
    let mut tags: Vec<String> = Vec::new();
    for item in raw {
        let Some(tag) = normalize_tag(&item) else {
            continue;
        };
        if tag.chars().count() > MAX_TAG_LEN {
            return Err(DomainError::invalid(format!(
                "Tag '{}' is longer than {MAX_TAG_LEN} characters",
                tag.chars().take(MAX_TAG_LEN).collect::<String>()
            )));
        }
        if tag.chars().any(char::is_control) {
            return Err(DomainError::invalid(
                "Tags may not contain control characters",
            ));
        }
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    if tags.len() > MAX_TAGS {
        return Err(DomainError::invalid(format!(
            "A post may have at most {MAX_TAGS} tags"
        )));
    }
    Ok(tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Option<TagsInput> {
        Some(TagsInput::List(
            items.iter().map(|s| s.to_string()).collect(),
        ))
    }

    #[test]
    fn tags_are_trimmed_lowercased_and_deduplicated() {
        let tags = parse_tags(list(&[" Rust ", "#rust", "WEB  Dev", "", "web dev"])).unwrap();
        assert_eq!(tags, vec!["rust", "web dev"]);
    }

    #[test]
    fn a_comma_separated_string_is_accepted() {
        let tags = parse_tags(Some(TagsInput::Text("a, B ,c,,a".into()))).unwrap();
        assert_eq!(tags, vec!["a", "b", "c"]);
    }

    #[test]
    fn eleven_distinct_tags_are_refused_but_duplicates_do_not_count() {
        let eleven: Vec<String> = (0..11).map(|i| format!("t{i}")).collect();
        let refs: Vec<&str> = eleven.iter().map(String::as_str).collect();
        assert!(parse_tags(list(&refs)).is_err());
        let mut ten_with_dupes = refs[..10].to_vec();
        ten_with_dupes.push("T0");
        assert_eq!(parse_tags(list(&ten_with_dupes)).unwrap().len(), 10);
    }

    #[test]
    fn an_overlong_tag_is_refused() {
        assert!(parse_tags(list(&[&"x".repeat(MAX_TAG_LEN + 1)])).is_err());
    }
}
