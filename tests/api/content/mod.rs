//! Content: posts and categories, the lists and feeds that show them, pages for the outside world,
//! pictures, search, the read index and guest cache that serve them, and the mail that announces
//! them.

mod categories;
mod daily_mail;
mod feeds;
mod guest_cache;
mod images;
mod imports;
mod new_posts;
mod pages;
mod posts;
mod read_index;
mod revisions;
mod search;
mod series;
