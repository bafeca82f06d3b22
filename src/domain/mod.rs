//! Domain values parsed at the edge: once built, they are valid.

pub mod email;
pub mod name;

pub use email::Email;
pub use name::PersonName;
