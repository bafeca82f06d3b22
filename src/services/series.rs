//! Series: a writer's posts in order. Readers see the visible parts (published, public, not
//! blocked), numbered in the series' order, so unpublishing or deleting a part renumbers the
//! rest; a subscriber-only part shows as its teaser. Followers of a series hear of each new part
//! once, and not again when they also follow its writer (whose followers the new-post worker
//! tells).

use std::collections::{HashMap, HashSet};

use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;

use crate::auth::AuthUser;
use crate::domain::post::Audience;
use crate::domain::slug::{is_slug_shaped, slugify, MAX_SLUG_LEN, MIN_SLUG_LEN};
use crate::error::{ApiError, ApiResult};
use crate::persistence::posts::{self, Post};
use crate::persistence::series::{self as store, Series};
use crate::persistence::{post_mail, reading_time, user_directory, DbError};
use crate::post_view::{excerpt, iso, PartLink, SeriesPlace};
use crate::state::AppState;

pub const MSG_SERIES_NOT_FOUND: &str = "Series not found";
pub const MSG_NOT_SERIES_OWNER: &str = "Only the writer of this series can change it";
pub const MSG_TITLE_REQUIRED: &str = "Title is required";
pub const MSG_SLUG_TAKEN: &str = "This address is already taken by another series";
pub const MSG_NOT_YOUR_POST: &str = "You can only add your own posts to a series";
pub const MSG_IN_OTHER_SERIES: &str = "This post is already part of another series";
pub const MSG_ALREADY_PART: &str = "This post is already part of this series";
pub const MSG_NOT_A_PART: &str = "This post is not part of this series";
pub const MSG_ORDER_MISMATCH: &str =
    "The new order must list every part of the series exactly once";
pub const MSG_BAD_COVER: &str = "The cover must be a web address or a picture stored here";
pub const MSG_SERIES_CREATED: &str = "Series created";
pub const MSG_SERIES_UPDATED: &str = "Series updated";
pub const MSG_SERIES_DELETED: &str = "Series deleted; its posts stay published on their own";
/// Longest title, description.
pub const MAX_TITLE_LEN: usize = 120;
pub const MAX_DESCRIPTION_LEN: usize = 1000;
/// Parts one series may hold; series one writer may have.
pub const MAX_PARTS: usize = 100;
pub const MAX_SERIES: usize = 50;
/// Slugs the site's own addresses use.
const RESERVED: [&str; 1] = ["mine"];

/// A title: trimmed, required, at most [`MAX_TITLE_LEN`] characters.
pub fn parse_title(raw: Option<&str>) -> ApiResult<String> {
    let title = raw.map(str::trim).unwrap_or_default();
    if title.is_empty() {
        return Err(ApiError::bad_request(MSG_TITLE_REQUIRED));
    }
    if title.chars().count() > MAX_TITLE_LEN {
        return Err(ApiError::bad_request(format!(
            "Title must be at most {MAX_TITLE_LEN} characters"
        )));
    }
    Ok(title.to_string())
}

pub fn parse_description(raw: Option<&str>) -> ApiResult<String> {
    let text = raw.map(str::trim).unwrap_or_default();
    if text.chars().count() > MAX_DESCRIPTION_LEN {
        return Err(ApiError::bad_request(format!(
            "Description must be at most {MAX_DESCRIPTION_LEN} characters"
        )));
    }
    Ok(text.to_string())
}

/// A slug given by the writer.
pub fn parse_slug(raw: &str) -> ApiResult<String> {
    let slug = raw.trim();
    let len = slug.chars().count();
    if !(MIN_SLUG_LEN..=MAX_SLUG_LEN).contains(&len) || !is_slug_shaped(slug) {
        return Err(ApiError::bad_request(format!(
            "The address must be {MIN_SLUG_LEN} to {MAX_SLUG_LEN} lowercase letters, digits and single hyphens"
        )));
    }
    if RESERVED.contains(&slug) {
        return Err(ApiError::conflict(MSG_SLUG_TAKEN));
    }
    Ok(slug.to_string())
}

/// A cover: empty (none), a web address, or a picture in the media store.
pub fn parse_cover(raw: Option<&str>) -> ApiResult<Option<String>> {
    let cover = raw.map(str::trim).unwrap_or_default();
    if cover.is_empty() {
        return Ok(None);
    }
    let ok = crate::domain::blocks::is_web_url(cover) || crate::domain::image::is_media_path(cover);
    if !ok || cover.len() > 2048 {
        return Err(ApiError::bad_request(MSG_BAD_COVER));
    }
    Ok(Some(cover.to_string()))
}

/// A free slug from the title (`-2`, `-3`, … on a clash).
async fn free_slug(state: &AppState, title: &str) -> ApiResult<String> {
    let mut base = slugify(title, MAX_SLUG_LEN - 4);
    if base.len() < MIN_SLUG_LEN || RESERVED.contains(&base.as_str()) {
        base = "series".to_string();
    }
    for n in 1..=50 {
        let slug = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        if store::find_by_slug(&state.db, &slug).await?.is_none() {
            return Ok(slug);
        }
    }
    Ok(format!("{base}-{}", &ObjectId::new().to_hex()[18..]))
}

/// The series `raw_id` names, which `me` may change (its writer or an administrator).
pub async fn owned(state: &AppState, me: &AuthUser, raw_id: &str) -> ApiResult<Series> {
    let id = crate::domain::params::object_id(raw_id, "series id")?;
    let series = store::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_SERIES_NOT_FOUND))?;
    if series.author != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_SERIES_OWNER));
    }
    Ok(series)
}

/// Creates a series for `me`.
pub async fn create(
    state: &AppState,
    me: &AuthUser,
    title: String,
    description: String,
    cover: Option<String>,
    slug: Option<String>,
) -> ApiResult<Series> {
    if store::by_author(&state.db, me.user.id).await?.len() >= MAX_SERIES {
        return Err(ApiError::bad_request(format!(
            "A writer may have at most {MAX_SERIES} series"
        )));
    }
    let slug = match slug {
        Some(s) => s,
        None => free_slug(state, &title).await?,
    };
    let at = DateTime::now();
    let series = Series {
        id: ObjectId::new(),
        author: me.user.id,
        title,
        slug,
        description,
        cover,
        post_ids: Vec::new(),
        announced: Vec::new(),
        version: 0,
        created_at: at,
        updated_at: at,
    };
    store::insert(&state.db, &series)
        .await
        .map_err(slug_clash)?;
    Ok(series)
}

/// A duplicate slug as the writer's error.
pub fn slug_clash(e: DbError) -> ApiError {
    match e {
        DbError::Duplicate(_) => ApiError::conflict(MSG_SLUG_TAKEN),
        other => other.into(),
    }
}

/// Tells the read index and the caches that the parts' pages changed (their numbering, their
/// neighbours).
async fn parts_changed(state: &AppState, parts: &[ObjectId]) {
    if !parts.is_empty() {
        state
            .db
            .changed(crate::persistence::observer::Change::Posts(parts.to_vec()))
            .await;
    }
}

/// The series' title, address or description changed: its parts' pages show them.
pub async fn details_changed(state: &AppState, series: &Series) {
    parts_changed(state, &series.post_ids).await;
}

/// Writes a new list of parts over the version read, reading again and re-applying `change`
/// when another request changed them meanwhile.
async fn change_parts<F>(state: &AppState, mut series: Series, change: F) -> ApiResult<Series>
where
    F: Fn(&Series) -> ApiResult<Vec<ObjectId>>,
{
    for _ in 0..5 {
        let parts = change(&series)?;
        if let Some(done) = store::set_parts(&state.db, series.id, series.version, &parts).await? {
            let mut touched = series.post_ids.clone();
            touched.extend(parts);
            touched.sort();
            touched.dedup();
            parts_changed(state, &touched).await;
            return Ok(done);
        }
        series = store::find_by_id(&state.db, series.id)
            .await?
            .ok_or_else(|| ApiError::not_found(MSG_SERIES_NOT_FOUND))?;
    }
    Err(ApiError::conflict(
        "The series changed several times at once; please try again",
    ))
}

/// Adds one of the writer's posts at the end of the series (a post is in one series at most).
pub async fn add_part(state: &AppState, series: Series, raw_post: &str) -> ApiResult<Series> {
    let post_id = crate::domain::params::object_id(raw_post, "postId")?;
    let post = posts::find_by_id(&state.db, post_id)
        .await?
        .ok_or_else(|| ApiError::not_found(crate::services::posts::MSG_POST_NOT_FOUND))?;
    if post.author != series.author {
        return Err(ApiError::forbidden(MSG_NOT_YOUR_POST));
    }
    match post.series_id {
        Some(s) if s == series.id => return Err(ApiError::conflict(MSG_ALREADY_PART)),
        Some(_) => return Err(ApiError::conflict(MSG_IN_OTHER_SERIES)),
        None => {}
    }
    if series.post_ids.len() >= MAX_PARTS {
        return Err(ApiError::bad_request(format!(
            "A series holds at most {MAX_PARTS} parts"
        )));
    }
    // The post is claimed first: of two series adding it at once, one wins.
    let series_id = series.id;
    if !store::claim_part(&state.db, post_id, series_id).await? {
        return Err(ApiError::conflict(MSG_IN_OTHER_SERIES));
    }
    if !posts::set_series(&state.db, post_id, None, Some(series_id)).await? {
        store::release_part(&state.db, post_id).await?;
        return Err(ApiError::conflict(MSG_IN_OTHER_SERIES));
    }
    let added = change_parts(state, series, |s| {
        let mut parts = s.post_ids.clone();
        if !parts.contains(&post_id) {
            parts.push(post_id);
        }
        Ok(parts)
    })
    .await;
    let series = match added {
        Ok(s) => s,
        Err(e) => {
            let _ = posts::set_series(&state.db, post_id, Some(series_id), None).await;
            let _ = store::release_part(&state.db, post_id).await;
            return Err(e);
        }
    };
    if post.is_listable() {
        announce_part(state, &series, &post, true).await;
    }
    Ok(series)
}

/// Takes a post out of its series (it stays published on its own).
pub async fn remove_part(state: &AppState, series: Series, raw_post: &str) -> ApiResult<Series> {
    let post_id = crate::domain::params::object_id(raw_post, "postId")?;
    if !series.post_ids.contains(&post_id) {
        return Err(ApiError::not_found(MSG_NOT_A_PART));
    }
    let series = change_parts(state, series, |s| {
        Ok(s.post_ids
            .iter()
            .copied()
            .filter(|p| *p != post_id)
            .collect())
    })
    .await?;
    posts::set_series(&state.db, post_id, Some(series.id), None).await?;
    store::release_part(&state.db, post_id).await?;
    Ok(series)
}

/// Puts the parts in the order given: every part exactly once.
pub async fn reorder(state: &AppState, series: Series, order: &[String]) -> ApiResult<Series> {
    let mut ids = Vec::with_capacity(order.len());
    for raw in order {
        ids.push(
            ObjectId::parse_str(raw.trim())
                .map_err(|_| ApiError::bad_request(MSG_ORDER_MISMATCH))?,
        );
    }
    change_parts(state, series, |s| {
        let given: HashSet<ObjectId> = ids.iter().copied().collect();
        let current: HashSet<ObjectId> = s.post_ids.iter().copied().collect();
        if given.len() != ids.len() || given != current {
            return Err(ApiError::bad_request(MSG_ORDER_MISMATCH));
        }
        Ok(ids.clone())
    })
    .await
}

/// Deletes a series; its posts stay, on their own.
pub async fn delete(state: &AppState, series: Series) -> ApiResult<()> {
    let Some(gone) = store::delete(&state.db, series.id).await? else {
        return Err(ApiError::not_found(MSG_SERIES_NOT_FOUND));
    };
    for post in &gone.post_ids {
        posts::set_series(&state.db, *post, Some(gone.id), None).await?;
        store::release_part(&state.db, *post).await?;
    }
    Ok(())
}

/// A post left its series (it was deleted): the series forgets it.
pub async fn forget_post(state: &AppState, post: &Post) {
    let Some(series_id) = post.series_id else {
        return;
    };
    let result = async {
        if let Some(series) = store::find_by_id(&state.db, series_id).await? {
            change_parts(state, series, |s| {
                Ok(s.post_ids
                    .iter()
                    .copied()
                    .filter(|p| *p != post.id)
                    .collect())
            })
            .await?;
        }
        Ok::<_, ApiError>(())
    }
    .await;
    if let Err(e) = result {
        tracing::warn!(error = %e, post = %post.id, "could not take a deleted post out of its series");
    }
}

/// A part's visibility changed (published, unpublished, blocked): its neighbours renumber, and
/// a part newly visible is announced to the series' followers.
pub async fn part_visibility_changed(state: &AppState, post: &Post) {
    let Some(series_id) = post.series_id else {
        return;
    };
    match store::find_by_id(&state.db, series_id).await {
        Ok(Some(series)) => {
            parts_changed(state, &series.post_ids).await;
            if post.is_listable() {
                announce_part(state, &series, post, false).await;
            }
        }
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "could not read a post's series"),
    }
}

/// Tells the series' followers of a new part: the post's announcement goes on to them
/// (`jobs::announce`, which notifies and emails by each follower's alerts, and never tells a
/// reader twice of one post: the notice's `_id` and the email's claim are per post and reader).
/// `added`: the part joined the series now — its announcement, finished long ago or never made,
/// goes to the series' followers (again, after being taken out and put back: only readers not
/// told yet hear of it). Otherwise the part became visible in the series: the first time, its
/// own announcement reaches them (reopened when it had finished); later (unpublished and
/// published again, blocked and restored) nobody is told again.
async fn announce_part(state: &AppState, series: &Series, post: &Post, added: bool) {
    let result = async {
        let first = store::mark_announced(&state.db, series.id, post.id).await?;
        if !first && !added {
            return Ok::<_, ApiError>(());
        }
        if post_mail::announce_to_series(&state.db, post.id, post.author, added).await? {
            state.wakes.announcements.notify_waiters();
        }
        Ok(())
    }
    .await;
    if let Err(e) = result {
        tracing::warn!(error = %e, post = %post.id, "could not tell a series' followers of a new part");
    }
}

/// Who wrote a series.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SeriesAuthor {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub avatar: Option<String>,
}

/// A series as readers see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeriesView {
    #[serde(rename = "_id")]
    pub id: String,
    pub slug: String,
    pub title: String,
    pub description: String,
    pub cover: Option<String>,
    pub author: SeriesAuthor,
    /// Visible parts.
    pub total: usize,
    pub followers: u64,
    /// Whether the viewer follows it (false for guests).
    pub following: bool,
    /// How the viewer hears of new parts (`instant`, `digest`, `off`); null when not following.
    pub alerts: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A visible part, numbered.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartView {
    #[serde(rename = "_id")]
    pub id: String,
    pub slug: String,
    pub title: String,
    /// 1-based, among the visible parts.
    pub position: usize,
    pub excerpt: String,
    /// For the writer's subscribers: readers see the teaser.
    pub locked: bool,
    pub published_at: Option<String>,
    /// The viewer has read it (reading time recorded).
    pub read: bool,
}

/// The parts of a series its writer manages: every part, visible or not.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManagedPart {
    #[serde(rename = "_id")]
    pub id: String,
    pub slug: String,
    pub title: String,
    pub status: String,
    /// Readers see it (published, public, not blocked).
    pub visible: bool,
}

/// The visible parts of `series` in order, numbered.
pub async fn visible_parts(state: &AppState, series: &Series) -> ApiResult<Vec<(Post, usize)>> {
    let found = posts::find_many(&state.db, &series.post_ids).await?;
    let mut by_id: HashMap<ObjectId, Post> = found.into_iter().map(|p| (p.id, p)).collect();
    Ok(series
        .post_ids
        .iter()
        .filter_map(|id| by_id.remove(id))
        .filter(|p| p.is_listable() && p.series_id == Some(series.id))
        .enumerate()
        .map(|(i, p)| (p, i + 1))
        .collect())
}

/// The parts of `series` as its writer manages them.
pub async fn managed_parts(state: &AppState, series: &Series) -> ApiResult<Vec<ManagedPart>> {
    let found = posts::find_many_without_blocks(&state.db, &series.post_ids).await?;
    let by_id: HashMap<ObjectId, Post> = found.into_iter().map(|p| (p.id, p)).collect();
    Ok(series
        .post_ids
        .iter()
        .filter_map(|id| by_id.get(id))
        .map(|p| ManagedPart {
            id: p.id.to_hex(),
            slug: p.slug.clone(),
            title: p.title.clone(),
            status: p.status.as_str().to_string(),
            visible: p.is_listable(),
        })
        .collect())
}

/// The readers' view of a series.
pub async fn view(
    state: &AppState,
    series: &Series,
    viewer: Option<&AuthUser>,
    total: usize,
) -> ApiResult<SeriesView> {
    let authors = user_directory::authors(&state.db, &[series.author]).await?;
    let author = authors.get(&series.author);
    let alerts = match viewer {
        Some(me) => store::alerts(&state.db, series.id, me.user.id).await?,
        None => None,
    };
    Ok(SeriesView {
        id: series.id.to_hex(),
        slug: series.slug.clone(),
        title: series.title.clone(),
        description: series.description.clone(),
        cover: series.cover.clone(),
        author: SeriesAuthor {
            id: series.author.to_hex(),
            name: author
                .map(|a| a.name.clone())
                .unwrap_or_else(|| crate::post_view::DELETED_AUTHOR.to_string()),
            avatar: author.and_then(|a| a.avatar.clone()),
        },
        total,
        followers: store::follower_count(&state.db, series.id).await?,
        following: alerts.is_some(),
        alerts: alerts.map(|a| a.as_str().to_string()),
        created_at: iso(series.created_at),
        updated_at: iso(series.updated_at),
    })
}

/// The visible parts as readers see them, with what `viewer` has read.
pub async fn part_views(
    state: &AppState,
    parts: &[(Post, usize)],
    viewer: Option<&AuthUser>,
) -> ApiResult<Vec<PartView>> {
    let read: HashSet<ObjectId> = match viewer {
        Some(me) => {
            let ids: Vec<ObjectId> = parts.iter().map(|(p, _)| p.id).collect();
            let key = format!("user:{}", me.user.id.to_hex());
            reading_time::read_by(&state.db, &ids, &key).await?
        }
        None => HashSet::new(),
    };
    Ok(parts
        .iter()
        .map(|(p, position)| PartView {
            id: p.id.to_hex(),
            slug: p.slug.clone(),
            title: p.title.clone(),
            position: *position,
            excerpt: excerpt(&p.blocks),
            locked: p.audience == Audience::Subscribers,
            published_at: p.published_at.map(iso),
            read: read.contains(&p.id),
        })
        .collect())
}

/// Where a post stands in its series, when it is a visible part of one.
pub async fn of_post(
    state: &AppState,
    post_id: ObjectId,
    series_id: ObjectId,
) -> ApiResult<Option<SeriesPlace>> {
    let Some(series) = store::find_by_id(&state.db, series_id).await? else {
        return Ok(None);
    };
    let parts = visible_parts(state, &series).await?;
    let links: Vec<PartLink> = parts
        .iter()
        .map(|(p, position)| PartLink {
            slug: p.slug.clone(),
            title: p.title.clone(),
            position: *position,
        })
        .collect();
    let Some(at) = parts.iter().position(|(p, _)| p.id == post_id) else {
        return Ok(None);
    };
    Ok(Some(SeriesPlace {
        id: series.id.to_hex(),
        slug: series.slug.clone(),
        title: series.title.clone(),
        position: at + 1,
        total: links.len(),
        previous: at.checked_sub(1).map(|i| links[i].clone()),
        next: links.get(at + 1).cloned(),
        parts: links,
    }))
}
