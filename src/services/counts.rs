//! Post counts: the public feed's, an author's own and a following feed's. The same counts travel
//! in `postCountsUpdated` (see [`post_counts_updated`]).

use std::collections::HashSet;

use actix_web::web;
use mongodb::bson::oid::ObjectId;
use pressroom_actors::events::PostCountsUpdated;

use super::feed::{self, Feed};
use crate::error::ApiResult;
use crate::live;
use crate::persistence::graph;
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

/// A post of `author` was created, published, unpublished, blocked, unblocked or deleted: send
/// each receiver the counts it needs (`postCountsUpdated`, see its definition). Every client gets
/// the public `allPostsCount`; the author's tabs get their three counts; when `feeds_changed` (the
/// post entered or left the public lists, and so the author's followers' following feeds), each
/// follower online gets their `followingPostsCount`. Counting runs on its own task, after the
/// change is stored; a failure is logged (clients still fetch counts when they load a page).
pub fn post_counts_updated(state: &web::Data<AppState>, author: ObjectId, feeds_changed: bool) {
    let state = state.clone();
    tokio::spawn(async move {
        if let Err(e) = send_post_counts(&state, author, feeds_changed).await {
            tracing::warn!(error = %e, "could not send post counts");
        }
    });
}

/// An account was removed with its posts: everyone gets the public count, and its former
/// `followers` online their following count.
pub fn account_posts_removed(state: &web::Data<AppState>, followers: Vec<ObjectId>) {
    let state = state.clone();
    tokio::spawn(async move {
        let sent = async {
            send_public_post_count(&state).await?;
            send_following_counts(&state, followers).await
        };
        if let Err(e) = sent.await {
            tracing::warn!(error = %e, "could not send post counts");
        }
    });
}

async fn send_public_post_count(state: &AppState) -> crate::error::ApiResult<()> {
    let public = all_posts_count(state, None).await?;
    live::public_post_count(&state.realtime, public);
    Ok(())
}

async fn send_post_counts(
    state: &AppState,
    author: ObjectId,
    feeds_changed: bool,
) -> crate::error::ApiResult<()> {
    let db = &state.db;
    send_public_post_count(state).await?;
    live::post_counts(
        &state.realtime,
        &author.to_hex(),
        PostCountsUpdated {
            all_posts_count: Some(all_posts_count(state, Some(author)).await?),
            my_posts_count: Some(my_posts_count(state, author).await?),
            following_posts_count: Some(following_posts_count(state, author).await?),
        },
    );
    if feeds_changed {
        send_following_counts(state, graph::followers(db, author).await?).await?;
    }
    Ok(())
}

/// Sends each of `users` who is online their following feed's count.
async fn send_following_counts(
    state: &AppState,
    users: Vec<ObjectId>,
) -> crate::error::ApiResult<()> {
    let online: HashSet<String> = state.realtime.online().await.user_ids.into_iter().collect();
    for follower in users {
        let id = follower.to_hex();
        if !online.contains(&id) {
            continue;
        }
        live::post_counts(
            &state.realtime,
            &id,
            PostCountsUpdated {
                following_posts_count: Some(following_posts_count(state, follower).await?),
                ..PostCountsUpdated::default()
            },
        );
    }
    Ok(())
}
