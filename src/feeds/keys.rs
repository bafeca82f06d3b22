//! What the read index stores and under which names.
//!
//! Keys live in a *generation* (`<ns>g<N>:...`), so a rebuild fills a new generation while the
//! current one serves, and then switches: `<ns>ix:cur` names the generation readers use,
//! `<ns>ix:bld` the one being built. Inside a generation:
//!
//! - `l:<list>`: a sorted set per ordered list. Members are `<createdAt ms, 15 digits>:<_id hex>`,
//!   so members sort as (createdAt, _id) and Redis's order (score, then member) is exactly the
//!   database's (key, createdAt, _id). Scores: createdAt for time lists, the stored trending score
//!   for trending lists, likes and views packed into one number for popular lists.
//! - `p:<id>`: a hash per post: its card (`v`, the JSON of its `CardView`), what lists filter and
//!   order by (author, category, status, visibility, blocked, createdAt, counters, trending score,
//!   search text), and the lists it is in (`ls`), so the next change removes it from exactly those.
//! - `q`: per post, the sequence number of the refresh last applied (see `write`).
//! - `slug`: slug → id. `fw:<u>`: whom `u` follows. `bo:<u>` / `bi:<u>`: whom `u` blocked / who
//!   blocked `u`. `bm:<u>`: `u`'s bookmarks (`<mark id>:<post id>`, scored by bookmark time).

use mongodb::bson::oid::ObjectId;

use crate::domain::post::{PostStatus, Visibility};
use crate::persistence::posts::Post;
use crate::post_view::CardView;

/// Separates list names in a post's `ls` field (never part of a tag or an id).
pub const LIST_SEP: char = '\u{1f}';

/// The list of scheduled posts, scored by `publishAt`.
pub const SCHEDULED: &str = "sched";

/// One generation of the index: builds its key names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gen {
    pub number: u64,
    prefix: String,
}

impl Gen {
    pub fn new(namespace: &str, number: u64) -> Self {
        Self {
            number,
            prefix: format!("{namespace}g{number}:"),
        }
    }

    /// The key prefix of everything in this generation.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    pub fn list(&self, name: &str) -> String {
        format!("{}l:{name}", self.prefix)
    }

    pub fn post(&self, id: &ObjectId) -> String {
        format!("{}p:{}", self.prefix, id.to_hex())
    }

    pub fn slugs(&self) -> String {
        format!("{}slug", self.prefix)
    }

    pub fn seqs(&self) -> String {
        format!("{}q", self.prefix)
    }

    pub fn follows(&self, user: &ObjectId) -> String {
        format!("{}{}", self.prefix, follows_suffix(user))
    }

    pub fn blocked_by(&self, user: &ObjectId) -> String {
        format!("{}{}", self.prefix, blocked_by_suffix(user))
    }

    pub fn blockers_of(&self, user: &ObjectId) -> String {
        format!("{}{}", self.prefix, blockers_of_suffix(user))
    }

    pub fn bookmarks(&self, user: &ObjectId) -> String {
        format!("{}{}", self.prefix, bookmarks_suffix(user))
    }
}

pub fn follows_suffix(user: &ObjectId) -> String {
    format!("fw:{}", user.to_hex())
}

pub fn blocked_by_suffix(user: &ObjectId) -> String {
    format!("bo:{}", user.to_hex())
}

pub fn blockers_of_suffix(user: &ObjectId) -> String {
    format!("bi:{}", user.to_hex())
}

pub fn bookmarks_suffix(user: &ObjectId) -> String {
    format!("bm:{}", user.to_hex())
}

/// A bookmark's member in `bm:<u>`: the mark's id first, so equal times order by it.
pub fn bookmark_member(mark: &ObjectId, post: &ObjectId) -> String {
    format!("{}:{}", mark.to_hex(), post.to_hex())
}

/// The post of a bookmark member.
pub fn bookmark_post(member: &str) -> Option<ObjectId> {
    member
        .rsplit(':')
        .next()
        .and_then(|id| ObjectId::parse_str(id).ok())
}

// List names.
pub const PUBLIC_NEW: &str = "pub:new";
pub const PUBLIC_TREND: &str = "pub:trend";

pub fn tag_list(tag: &str) -> String {
    format!("tag:{tag}")
}
pub fn category_new(category: &ObjectId) -> String {
    format!("cat:{}:new", category.to_hex())
}
pub fn category_trend(category: &ObjectId) -> String {
    format!("cat:{}:trend", category.to_hex())
}
pub fn author_new(author: &ObjectId) -> String {
    format!("au:{}:new", author.to_hex())
}
pub fn author_popular(author: &ObjectId) -> String {
    format!("au:{}:pop", author.to_hex())
}
pub fn own_new(author: &ObjectId) -> String {
    format!("own:{}:new", author.to_hex())
}
pub fn own_popular(author: &ObjectId) -> String {
    format!("own:{}:pop", author.to_hex())
}

/// A list member: `<createdAt ms, zero-padded to 15 digits>:<id hex>`. Dates before 1970 (never
/// given by the server) count as 1970.
pub fn member(created_at_ms: i64, id: &ObjectId) -> String {
    format!("{:015}:{}", created_at_ms.max(0), id.to_hex())
}

/// The post of a list member.
pub fn member_id(member: &str) -> Option<ObjectId> {
    member
        .split_once(':')
        .and_then(|(_, id)| ObjectId::parse_str(id).ok())
}

/// The createdAt (ms) of a list member.
pub fn member_ts(member: &str) -> Option<i64> {
    member.split_once(':').and_then(|(ts, _)| ts.parse().ok())
}

/// Counts above this are clamped in the popular score (it must stay an exact integer).
const POPULAR_LIKES_CAP: i64 = (1 << 21) - 1;
const POPULAR_VIEWS_CAP: i64 = (1 << 32) - 1;

/// The popular order (likes, then views) as one exact number: likes × 2³² + views, with likes up
/// to 2²¹ − 1 and views up to 2³² − 1 (beyond, they are clamped).
pub fn popular_score(likes: i64, views: i64) -> f64 {
    let likes = likes.clamp(0, POPULAR_LIKES_CAP);
    let views = views.clamp(0, POPULAR_VIEWS_CAP);
    (likes as f64) * 4_294_967_296.0 + views as f64
}

/// Whether anyone may find the post in lists and search (`posts::listable`).
pub fn is_listable(post: &Post) -> bool {
    post.status == PostStatus::Published && post.visibility == Visibility::Public && !post.blocked
}

/// The lists a post belongs in, with its score in each.
pub fn lists_of(post: &Post) -> Vec<(String, f64)> {
    let t = post.created_at.timestamp_millis() as f64;
    let pop = popular_score(post.likes_count, post.views);
    let mut lists = vec![(own_new(&post.author), t), (own_popular(&post.author), pop)];
    if is_listable(post) {
        lists.push((PUBLIC_NEW.to_string(), t));
        lists.push((PUBLIC_TREND.to_string(), post.trending_score));
        lists.push((author_new(&post.author), t));
        lists.push((author_popular(&post.author), pop));
        for tag in &post.tags {
            lists.push((tag_list(tag), t));
        }
        if let Some(c) = &post.category {
            lists.push((category_new(c), t));
            lists.push((category_trend(c), post.trending_score));
        }
    }
    if post.status == PostStatus::Scheduled {
        if let Some(at) = post.publish_at {
            lists.push((SCHEDULED.to_string(), at.timestamp_millis() as f64));
        }
    }
    lists.dedup_by(|a, b| a.0 == b.0);
    lists
}

/// The fields of a post's hash (besides `m`, `ls` and `slug`, which the apply script sets).
pub fn card_fields(post: &Post) -> Vec<(&'static str, String)> {
    let view = CardView::of(post);
    let card = serde_json::to_string(&view).unwrap_or_else(|_| "{}".into());
    // A subscribers-only post's card is its teaser; its blocks are kept beside it for readers
    // who may open it.
    let sealed = view
        .sealed_blocks
        .as_ref()
        .and_then(|b| serde_json::to_string(b).ok())
        .unwrap_or_default();
    vec![
        ("sb", sealed),
        ("v", card),
        ("a", post.author.to_hex()),
        ("c", post.category.map(|c| c.to_hex()).unwrap_or_default()),
        ("s", post.status.as_str().to_string()),
        ("vi", post.visibility.as_str().to_string()),
        ("b", if post.blocked { "1" } else { "0" }.to_string()),
        ("t", post.created_at.timestamp_millis().to_string()),
        ("u", post.updated_at.timestamp_millis().to_string()),
        ("tg", post.tags.join(&LIST_SEP.to_string())),
        ("tr", format_score(post.trending_score)),
        ("lk", post.likes_count.to_string()),
        ("cm", post.comments_count.to_string()),
        ("sh", post.share_count.to_string()),
        ("bk", post.bookmarks_count.to_string()),
        ("vw", post.views.to_string()),
        ("st", post.search_text.clone()),
        ("sk", search_key(post)),
    ]
}

/// A digest of what the search index holds of a post (its title, tags, text, author, state and
/// date): the apply script tells the search index of a post's change only when this moved, so a
/// like or a view (a counter) does not wait for the search index.
pub fn search_key(post: &Post) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for part in [
        post.title.as_str(),
        &post.tags.join(&LIST_SEP.to_string()),
        &post.search_text,
        &post.author.to_hex(),
        post.status.as_str(),
        post.visibility.as_str(),
        if post.blocked { "1" } else { "0" },
        &post.created_at.timestamp_millis().to_string(),
    ] {
        hash.update(part.as_bytes());
        hash.update([0u8]);
    }
    hex::encode(&hash.finalize()[..12])
}

/// A score as Redis reads it back exactly (the shortest text that round-trips).
pub fn format_score(score: f64) -> String {
    if score.is_finite() {
        format!("{score:?}")
    } else {
        "0".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_sort_like_created_at_then_id() {
        let a = ObjectId::parse_str("64b7f0000000000000000001").unwrap();
        let b = ObjectId::parse_str("64b7f000000000000000000a").unwrap();
        assert!(member(5, &a) < member(5, &b));
        assert!(member(5, &b) < member(10, &a));
        assert!(member(999, &b) < member(1_700_000_000_000, &a));
        assert_eq!(member_id(&member(7, &b)), Some(b));
        assert_eq!(member_ts(&member(7, &b)), Some(7));
    }

    #[test]
    fn the_popular_score_orders_by_likes_then_views_exactly() {
        assert!(popular_score(1, 0) > popular_score(0, 4_000_000_000));
        assert!(popular_score(3, 2) > popular_score(3, 1));
        assert_eq!(popular_score(5, 7), 5.0 * 4_294_967_296.0 + 7.0);
        let top = popular_score(i64::MAX, i64::MAX);
        assert_eq!(top, top + 0.0);
        assert!(top < 9_007_199_254_740_992.0, "exact in a double");
    }

    #[test]
    fn scores_print_back_exactly() {
        for s in [0.1, 1.0 / 3.0, 1e-300, 1_700_000_000_123.0] {
            assert_eq!(format_score(s).parse::<f64>().unwrap(), s);
        }
    }
}
