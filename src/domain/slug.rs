//! Slugs: the URL names of categories and posts. A slug is lowercase ASCII letters and digits in
//! words joined by single hyphens ("web-design-2024").

use super::error::DomainError;

pub const MIN_SLUG_LEN: usize = 2;
pub const MAX_SLUG_LEN: usize = 60;
/// Post slugs derived from titles are cut at this length (before any collision suffix).
pub const MAX_POST_SLUG_BASE_LEN: usize = 80;

pub const MSG_SLUG_REQUIRED: &str = "Slug is required";
pub const MSG_SLUG_SHAPE: &str =
    "Slug may contain only lowercase letters, digits and single hyphens between words";

/// A validated category slug.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slug(String);

impl Slug {
    /// Parses a slug as given (surrounding whitespace is ignored, nothing else is changed).
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let slug = raw.trim();
        if slug.is_empty() {
            return Err(DomainError::invalid(MSG_SLUG_REQUIRED));
        }
        let len = slug.chars().count();
        if !(MIN_SLUG_LEN..=MAX_SLUG_LEN).contains(&len) {
            return Err(DomainError::invalid(format!(
                "Slug must be between {MIN_SLUG_LEN} and {MAX_SLUG_LEN} characters"
            )));
        }
        if !is_slug_shaped(slug) {
            return Err(DomainError::invalid(MSG_SLUG_SHAPE));
        }
        Ok(Slug(slug.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// Lowercase letters and digits in words joined by single hyphens.
pub fn is_slug_shaped(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Turns any text into slug words: transliterated to ASCII, lowercased, every run of other
/// characters a single hyphen, cut at `max` characters on a word boundary. May be empty.
pub fn slugify(text: &str, max: usize) -> String {
    let ascii = deunicode::deunicode(text).to_ascii_lowercase();
    let mut out = String::with_capacity(ascii.len());
    for word in ascii.split(|c: char| !c.is_ascii_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let extra = if out.is_empty() { 0 } else { 1 };
        if out.len() + extra + word.len() > max {
            if out.is_empty() {
                out.push_str(&word[..max.min(word.len())]);
            }
            break;
        }
        if extra == 1 {
            out.push('-');
        }
        out.push_str(word);
    }
    out
}

/// The slug base for a post title ("post" when the title has no letters or digits at all).
pub fn post_slug_base(title: &str) -> String {
    let base = slugify(title, MAX_POST_SLUG_BASE_LEN);
    if base.is_empty() {
        "post".to_string()
    } else {
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowercase_words_joined_by_hyphens_are_a_slug() {
        for ok in ["tech", "web-design", "top-10-tips", "a1"] {
            assert!(Slug::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn uppercase_spaces_underscores_and_stray_hyphens_are_rejected() {
        for bad in [
            "Tech",
            "web design",
            "web_design",
            "-web",
            "web-",
            "web--design",
            "é",
            "a",
            "",
        ] {
            assert!(Slug::parse(bad).is_err(), "{bad:?} should be refused");
        }
        assert!(Slug::parse(&"a".repeat(MAX_SLUG_LEN + 1)).is_err());
    }

    #[test]
    fn a_title_becomes_a_readable_slug() {
        assert_eq!(
            post_slug_base("  Hello, World! Café au lait "),
            "hello-world-cafe-au-lait"
        );
        assert_eq!(post_slug_base("!!!"), "post");
        assert_eq!(slugify("one two three", 7), "one-two");
        assert_eq!(slugify("abcdefghij", 4), "abcd");
    }
}
