//! Storing the trending scores (the maths is `domain::trending`).

use super::*;

pub use crate::domain::trending::{
    moved_scores, trending_moved, TrendingInput, TRENDING_TOLERANCE,
};

impl TrendingInput {
    pub fn of(post: &Post) -> Self {
        Self {
            id: post.id,
            created_at: post.created_at,
            likes: post.likes_count,
            comments: post.comments_count,
            shares: post.share_count,
            bookmarks: post.bookmarks_count,
            views: post.views,
            stored: post.trending_score,
        }
    }
}

/// The trending score of a post at `at`.
pub fn trending_score(post: &Post, at: DateTime) -> f64 {
    TrendingInput::of(post).score(at)
}

/// Stores new trending scores; returns how many were stored.
pub async fn store_trending(db: &Db, scores: Vec<(ObjectId, f64)>) -> DbResult<u64> {
    let mut stored = Vec::with_capacity(scores.len());
    for (id, score) in scores {
        let res = collection(db)
            .update_one(
                doc! { "_id": id },
                doc! { "$set": { "trendingScore": score } },
            )
            .await
            .db_context("storing a trending score")?;
        if res.matched_count == 1 {
            stored.push((id, score));
        }
    }
    let count = stored.len() as u64;
    if !stored.is_empty() {
        db.changed(Change::TrendingScores(stored)).await;
    }
    Ok(count)
}

/// Recomputes the trending score of every published post by reading the collection, and stores
/// those that moved (see `trending_moved`); returns how many were stored. The read index offers a
/// way that does not read every post.
pub async fn refresh_trending(db: &Db, at: DateTime) -> DbResult<u64> {
    let mut cursor = collection(db)
        .find(doc! { "status": PostStatus::Published.as_str() })
        .projection(doc! { "blocks": 0, "searchText": 0 })
        .await
        .db_context("reading posts for trending")?;
    let mut inputs = Vec::new();
    while let Some(post) = cursor
        .try_next()
        .await
        .db_context("reading posts for trending")?
    {
        inputs.push(TrendingInput::of(&post));
    }
    store_trending(db, moved_scores(inputs, at)).await
}
