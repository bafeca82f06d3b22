//! One post read by its address (`GET /api/post/get-post/{slug}`): from the read index's stored
//! card when it can answer (guests, and posts without polls or a series, get it as it is), else
//! from the database; with the viewer's own poll choices and the post's place in its series.

use mongodb::bson::oid::ObjectId;
use serde_json::value::RawValue;
use serde_json::{json, Value};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::feeds::cards::ReadError;
use crate::persistence::{posts, votes, Db};
use crate::services::posts::{
    render_one_for, unlock_raw, visible_to, Access, MSG_INVALID_SLUG, MSG_POST_NOT_FOUND,
};
use crate::state::AppState;

/// A post as read: the stored card as it is, or a view completed for the viewer.
pub enum PostRead {
    Stored(Box<RawValue>),
    Shaped(Value),
}

/// Longest slug worth looking up.
const MAX_LOOKUP_LEN: usize = 200;

/// The post as the viewer may see it, from the index (`Ok(None)`: not there or not visible;
/// `Err(Index)`: the index cannot say).
async fn from_index(
    state: &AppState,
    viewer: Option<&AuthUser>,
    slug: &str,
) -> Result<Option<Box<RawValue>>, ReadError> {
    let Some(gen) = state.feeds.current() else {
        return Err(crate::redis_pool::RedisFailure::Down.into());
    };
    let Some(id) = state.feeds.post_id_by_slug(&gen, slug).await? else {
        return Ok(None);
    };
    let Some(stored) = state.feeds.stored_posts(&gen, &[id]).await?.pop().flatten() else {
        return Ok(None);
    };
    let access = Access {
        author: stored.author,
        status: &stored.status,
        visibility: &stored.visibility,
        blocked: stored.blocked,
    };
    if !access.visible_to(viewer) {
        return Ok(None);
    }
    let posts = state.feeds.render_stored(&[stored]).await?;
    Ok(unlock_raw(state, &gen, viewer, posts).await?.pop())
}

/// Marks the viewer's own choices in the post's poll blocks.
async fn mark_own_votes(db: &Db, post: &mut Value, me: ObjectId) -> ApiResult<()> {
    let Some(id) = post["_id"]
        .as_str()
        .and_then(|id| ObjectId::parse_str(id).ok())
    else {
        return Ok(());
    };
    let Some(blocks) = post["blocks"].as_array_mut() else {
        return Ok(());
    };
    for block in blocks.iter_mut().filter(|b| b["type"] == "poll") {
        let Some(block_id) = block["id"].as_str().map(str::to_string) else {
            continue;
        };
        let choices = votes::choices_of(db, id, &block_id, me).await?;
        let multiple = block["data"]["multiple"].as_bool().unwrap_or(false);
        if let Some(data) = block["data"].as_object_mut() {
            let single = if multiple {
                None
            } else {
                choices.first().copied()
            };
            data.insert("userVote".into(), json!(single));
            data.insert("userVotes".into(), json!(choices));
        }
    }
    Ok(())
}

/// Adds `series` (where the post stands in its series) to a post that is a part of one.
async fn add_series_place(state: &AppState, post: &mut Value) -> ApiResult<()> {
    let id = |key: &str| post[key].as_str().and_then(|s| ObjectId::parse_str(s).ok());
    let (Some(post_id), Some(series_id)) = (id("_id"), id("seriesId")) else {
        return Ok(());
    };
    if let Some(place) = crate::services::series::of_post(state, post_id, series_id).await? {
        post["series"] = serde_json::to_value(place).map_err(ApiError::internal)?;
    }
    Ok(())
}

/// The post at `slug` as `viewer` may see it (a hidden post is as missing as an unknown one).
pub async fn read(state: &AppState, viewer: Option<&AuthUser>, slug: &str) -> ApiResult<PostRead> {
    let slug = slug.trim();
    if slug.is_empty() || slug == "undefined" || slug == "null" {
        return Err(ApiError::bad_request(MSG_INVALID_SLUG));
    }
    if slug.len() > MAX_LOOKUP_LEN {
        return Err(ApiError::not_found(MSG_POST_NOT_FOUND));
    }
    let mut post = match from_index(state, viewer, slug).await {
        // Guests, and posts without polls, get the stored card as it is (unless it is a part of
        // a series, whose place is added).
        Ok(Some(raw))
            if (viewer.is_none() || !raw.get().contains("\"type\":\"poll\""))
                && !raw.get().contains("\"seriesId\":\"") =>
        {
            return Ok(PostRead::Stored(raw));
        }
        Ok(Some(raw)) => serde_json::from_str(raw.get()).map_err(ApiError::internal)?,
        Ok(None) => return Err(ApiError::not_found(MSG_POST_NOT_FOUND)),
        Err(ReadError::Db(e)) => return Err(e.into()),
        Err(ReadError::Index(_)) => {
            let post = posts::find_by_slug(&state.db, slug)
                .await?
                .filter(|p| visible_to(p, viewer))
                .ok_or_else(|| ApiError::not_found(MSG_POST_NOT_FOUND))?;
            serde_json::to_value(render_one_for(state, viewer, post).await?)
                .map_err(ApiError::internal)?
        }
    };
    if let Some(me) = viewer {
        mark_own_votes(&state.db, &mut post, me.user.id).await?;
    }
    add_series_place(state, &mut post).await?;
    Ok(PostRead::Shaped(post))
}
