//! Engagement: likes, bookmarks, views, shares, reading time and polls; comments; follows and
//! blocks between users; the achievements and analytics counted from them.

mod achievements;
mod analytics;
mod blocks;
mod comments;
mod follows;
mod interactions;
