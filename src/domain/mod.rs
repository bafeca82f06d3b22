//! Domain values parsed at the edge: once built, they are valid.

pub mod api_keys;
pub mod block_media;
pub mod blocks;
pub mod eligibility;
pub mod email;
pub mod error;
pub mod image;
pub mod image_variants;
pub mod import;
pub mod media_name;
pub mod money;
pub mod name;
pub mod params;
pub mod post;
pub mod push;
pub mod revisions;
pub mod sanitize;
pub mod search;
pub mod slug;
pub mod tags;
pub mod trending;
pub mod webhooks;

pub use email::Email;
pub use name::PersonName;
