//! The domain's own error: why an input breaks a rule, in the words a person reads. It knows
//! nothing of HTTP; `crate::error` turns it into the API's answer at the edge (a 400, or a 413
//! for a picture too large).

/// A rule of the domain that an input breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    /// The input is not acceptable; the message says why.
    #[error("{0}")]
    Invalid(String),
    /// The same, with a stable machine-readable code beside the message.
    #[error("{message}")]
    InvalidCoded {
        /// The code clients may test.
        code: &'static str,
        /// What a person reads.
        message: String,
    },
    /// The input is larger than the rule allows (a picture over its size limit).
    #[error("{0}")]
    TooLarge(String),
}

impl DomainError {
    /// The input is not acceptable, for this reason.
    pub fn invalid(message: impl Into<String>) -> Self {
        DomainError::Invalid(message.into())
    }

    /// The input is not acceptable, with a code beside the reason.
    pub fn coded(code: &'static str, message: impl Into<String>) -> Self {
        DomainError::InvalidCoded {
            code,
            message: message.into(),
        }
    }
}
