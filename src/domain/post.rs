//! The small vocabularies of a post: its type, visibility and status.

use serde::{Deserialize, Serialize};

use super::error::DomainError;

/// Article or Blog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, utoipa::ToSchema)]
pub enum PostType {
    #[default]
    Article,
    Blog,
}

/// Who may see a post: Public (everywhere), Unlisted (by its address only), Private (the author
/// and administrators).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, utoipa::ToSchema)]
pub enum Visibility {
    #[default]
    Public,
    Private,
    Unlisted,
}

/// Where a post is in its life: a draft, scheduled for `publishAt`, or published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PostStatus {
    Draft,
    #[default]
    Published,
    Scheduled,
}

impl PostType {
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        match raw.trim().to_lowercase().as_str() {
            "article" => Ok(PostType::Article),
            "blog" => Ok(PostType::Blog),
            _ => Err(DomainError::invalid("postType must be Article or Blog")),
        }
    }
}

impl Visibility {
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        match raw.trim().to_lowercase().as_str() {
            "public" => Ok(Visibility::Public),
            "private" => Ok(Visibility::Private),
            "unlisted" => Ok(Visibility::Unlisted),
            _ => Err(DomainError::invalid(
                "visibility must be Public, Private or Unlisted",
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "Public",
            Visibility::Private => "Private",
            Visibility::Unlisted => "Unlisted",
        }
    }
}

impl PostStatus {
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        match raw.trim().to_lowercase().as_str() {
            "draft" => Ok(PostStatus::Draft),
            "published" => Ok(PostStatus::Published),
            "scheduled" => Ok(PostStatus::Scheduled),
            _ => Err(DomainError::invalid(
                "status must be draft, published or scheduled",
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PostStatus::Draft => "draft",
            PostStatus::Published => "published",
            PostStatus::Scheduled => "scheduled",
        }
    }
}

/// Who may read a post's blocks: everyone, or only the author's subscribers (others get the
/// title, thumbnail and excerpt with `locked: true`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    #[default]
    Everyone,
    Subscribers,
}

impl Audience {
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        match raw.trim().to_lowercase().as_str() {
            "everyone" => Ok(Audience::Everyone),
            "subscribers" => Ok(Audience::Subscribers),
            _ => Err(DomainError::invalid(
                "audience must be everyone or subscribers",
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Audience::Everyone => "everyone",
            Audience::Subscribers => "subscribers",
        }
    }
}

/// A post language: a short code such as `en` or `pt-BR`.
pub fn parse_language(raw: &str) -> Result<String, DomainError> {
    let lang = raw.trim();
    let ok = (2..=12).contains(&lang.len())
        && lang.split('-').all(|part| {
            !part.is_empty() && part.len() <= 8 && part.bytes().all(|b| b.is_ascii_alphanumeric())
        });
    if !ok {
        return Err(DomainError::invalid(
            "language must be a language code such as en or pt-BR",
        ));
    }
    Ok(lang.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabularies_parse_case_insensitively() {
        assert_eq!(PostType::parse("blog").unwrap(), PostType::Blog);
        assert_eq!(
            Visibility::parse(" UNLISTED ").unwrap(),
            Visibility::Unlisted
        );
        assert_eq!(
            PostStatus::parse("Scheduled").unwrap(),
            PostStatus::Scheduled
        );
        assert!(Visibility::parse("friends").is_err());
        assert_eq!(
            Audience::parse(" Subscribers ").unwrap(),
            Audience::Subscribers
        );
        assert!(Audience::parse("friends").is_err());
        assert!(PostStatus::parse("archived").is_err());
    }

    #[test]
    fn a_language_is_a_short_code() {
        assert_eq!(parse_language(" en ").unwrap(), "en");
        assert!(parse_language("pt-BR").is_ok());
        assert!(parse_language("e").is_err());
        assert!(parse_language("en; drop").is_err());
    }
}
