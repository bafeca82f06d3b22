//! Post counts: the public feed's, an author's own and a following feed's. The same counts travel
//! in `postCountsUpdated` (see `live::post_counts_updated`).

use mongodb::bson::oid::ObjectId;

use super::feed::{self, Feed};
use crate::error::ApiResult;
use crate::state::AppState;

/// Posts of the public feed as `viewer` sees it (`None`: a guest).
pub async fn all_posts_count(state: &AppState, viewer: Option<ObjectId>) -> ApiResult<u64> {
    let feed = Feed::Public {
        tag: None,
        category: None,
    };
    feed::total(state, viewer, &feed).await
}

/// Every post of `user`, whatever its status (the author's own list).
pub async fn my_posts_count(state: &AppState, user: ObjectId) -> ApiResult<u64> {
    let feed = Feed::Author {
        author: user,
        text: None,
    };
    feed::total(state, Some(user), &feed).await
}

/// Posts of `user`'s following feed.
pub async fn following_posts_count(state: &AppState, user: ObjectId) -> ApiResult<u64> {
    feed::total(state, Some(user), &Feed::Following).await
}
