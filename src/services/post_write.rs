//! Writing a new post into the store under a free address: the slug from its title (or the one
//! it had elsewhere), with `-2`, `-3`... when taken. The editor's create and the importer both
//! insert through [`insert_with_free_slug`].

use std::collections::HashSet;

use mongodb::bson::oid::ObjectId;

use crate::error::{ApiError, ApiResult};
use crate::persistence::posts::{self, Post};
use crate::persistence::DbError;
use crate::state::AppState;

/// Attempts at a unique slug before giving up (each after a collision with a concurrent insert).
const SLUG_ATTEMPTS: usize = 5;
/// Candidates looked up at once after `base` itself: `base-2` to `base-33`, then the next 32.
const SLUG_PROBE: u64 = 32;
/// Batches of candidates tried before a random suffix is used.
const SLUG_PROBES: u64 = 8;

pub const MSG_NO_FREE_SLUG: &str = "Could not find a free address for this post; please try again";

/// The first free slug among `base`, `base-2`, `base-3`... : candidates are looked up a batch at
/// a time (in the read index's slug map when it can answer, else by the store's slug index), so
/// the cost does not grow with the number of posts. A suffix freed by a deleted post is used
/// again, as `base` itself is; past `SLUG_PROBES` full batches a random suffix is used.
pub async fn next_free_slug(state: &AppState, base: &str) -> ApiResult<String> {
    next_free_slug_besides(state, base, &HashSet::new()).await
}

/// [`next_free_slug`], counting `reserved` (slugs about to be written together) as taken.
pub async fn next_free_slug_besides(
    state: &AppState,
    base: &str,
    reserved: &HashSet<String>,
) -> ApiResult<String> {
    let mut batch = vec![base.to_string()];
    let mut next = 2;
    for _ in 0..=SLUG_PROBES {
        let taken = slugs_taken(state, &batch).await?;
        if let Some(free) = batch
            .iter()
            .zip(taken)
            .find(|(slug, taken)| !taken && !reserved.contains(*slug))
        {
            return Ok(free.0.clone());
        }
        batch = (next..next + SLUG_PROBE)
            .map(|n| format!("{base}-{n}"))
            .collect();
        next += SLUG_PROBE;
    }
    Ok(format!("{base}-{}", &ObjectId::new().to_hex()[18..]))
}

/// Which of `slugs` are taken, from the read index when it answers, else from the store.
async fn slugs_taken(state: &AppState, slugs: &[String]) -> ApiResult<Vec<bool>> {
    if let Some(gen) = state.feeds.current() {
        if let Ok(taken) = state.feeds.slugs_taken(&gen, slugs).await {
            return Ok(taken);
        }
    }
    let taken = posts::slugs_taken(&state.db, slugs).await?;
    Ok(slugs.iter().map(|s| taken.contains(s)).collect())
}

/// Inserts `post` under the first free slug from `base` (set on the post); a concurrent insert
/// of the same slug ends in a random suffix. Any other failure of the store is answered as is.
pub async fn insert_with_free_slug(state: &AppState, post: &mut Post, base: &str) -> ApiResult<()> {
    for attempt in 0..SLUG_ATTEMPTS {
        post.slug = if attempt == 0 {
            next_free_slug(state, base).await?
        } else {
            // Someone took the same slug a moment ago: a random suffix ends the race.
            format!("{base}-{}", &ObjectId::new().to_hex()[18..])
        };
        match posts::insert(&state.db, post).await {
            Ok(()) => return Ok(()),
            Err(DbError::Duplicate(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::conflict(MSG_NO_FREE_SLUG))
}
