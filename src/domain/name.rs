//! A person's display name: trimmed, 1 to 100 characters, no control characters.

use super::error::DomainError;

pub const MAX_NAME_LEN: usize = 100;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonName(String);

impl PersonName {
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let name: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() {
            return Err(DomainError::invalid("Name is required"));
        }
        if name.chars().count() > MAX_NAME_LEN {
            return Err(DomainError::invalid(format!(
                "Name must be at most {MAX_NAME_LEN} characters"
            )));
        }
        if name.chars().any(char::is_control) {
            return Err(DomainError::invalid("Name contains invalid characters"));
        }
        Ok(PersonName(name))
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_and_its_spaces_collapsed() {
        assert_eq!(
            PersonName::parse("  Ada   Lovelace ")
                .unwrap()
                .into_string(),
            "Ada Lovelace"
        );
    }

    #[test]
    fn an_empty_or_overlong_name_is_rejected() {
        assert!(PersonName::parse("   ").is_err());
        assert!(PersonName::parse(&"x".repeat(101)).is_err());
    }
}
