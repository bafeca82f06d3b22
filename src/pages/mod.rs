//! Pages for the outside world: what link previews, crawlers, feed readers and readers without
//! JavaScript get. Pure rendering (no storage, no HTTP): the page's head and article, the app's
//! `index.html` as a template, Atom and RSS feeds, sitemaps and share images. `routes::site`
//! reads what they need from the read index and answers.

pub mod article;
pub mod cards;
pub mod head;
pub mod html;
pub mod model;
pub mod picture;
pub mod series;
pub mod share_image;
pub mod shell;
pub mod sitemap;
pub mod syndication;
pub mod view;
