//! Revisions of posts: saved when a post is created, published or unpublished, saved, edited by
//! an administrator, blocked or restored, and for autosaves at most once per period; kept up to
//! `revisions.keep` per post (published states and pinned evidence beyond that); listed,
//! compared and pinned by reports, appeals and blocks.

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::domain::revisions::{compare, ChangeSummary, Comparison, Reason, Snapshot};
use crate::error::{ApiError, ApiResult};
use crate::persistence::post_revisions::{self, Pin, Revision};
use crate::persistence::posts::Post;
use crate::persistence::user_directory;
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_REVISION_NOT_FOUND: &str = "Revision not found";
pub const MSG_REVISION_RESTORED: &str = "Revision restored";
/// `compare` without `from` or `to`.
pub const MSG_COMPARE_NEEDS_BOTH: &str =
    "Give the two revisions to compare as from and to (a revision id, or current)";
/// What `from` or `to` may be besides a revision id: the post as it is now.
pub const CURRENT: &str = "current";

/// The state of `post` a revision keeps.
pub fn snapshot_of(post: &Post) -> Snapshot {
    Snapshot {
        title: post.title.clone(),
        blocks: post.blocks.clone(),
        thumbnail: post.thumbnail.clone(),
        category: post.category.map(|c| c.to_hex()),
        tags: post.tags.clone(),
        visibility: post.visibility.as_str().to_string(),
        audience: post.audience.as_str().to_string(),
    }
}

/// Whether changing `before` into `after` at `at` is an edit readers are told of: the content
/// of a post published before and after it changed, past the grace period after publication.
pub fn is_reader_visible_edit(
    state: &AppState,
    before: &Post,
    after: &Post,
    at: mongodb::bson::DateTime,
) -> bool {
    use crate::domain::post::PostStatus;
    let published = before.status == PostStatus::Published && after.status == PostStatus::Published;
    let grace_ms = state.settings.revisions.edited_grace_seconds.max(0) * 1000;
    let past_grace = after
        .published_at
        .is_some_and(|p| at.timestamp_millis() - p.timestamp_millis() > grace_ms);
    published && past_grace && snapshot_of(before).fingerprint() != snapshot_of(after).fingerprint()
}

fn snapshot(revision: &Revision) -> ApiResult<Snapshot> {
    Ok(revision.snapshot()?)
}

/// Saves a revision of `post` as it is now, unless nothing would be gained: a save or an
/// autosave identical to the newest revision, or an autosave sooner than the period after the
/// newest autosave. Drops the oldest unprotected revisions beyond the limit.
pub async fn record(
    state: &AppState,
    post: &Post,
    by: Option<ObjectId>,
    reason: Reason,
) -> ApiResult<Option<Revision>> {
    let db = &state.db;
    let snap = snapshot_of(post);
    let newest = post_revisions::newest(db, post.id).await?;
    if let Some(last) = &newest {
        let same = last.fingerprint == snap.fingerprint();
        let quiet = matches!(reason, Reason::Saved | Reason::Autosave | Reason::AdminEdit);
        if same && quiet {
            return Ok(None);
        }
        let period = state.settings.revisions.autosave_every_seconds.max(0) * 1000;
        let recent =
            mongodb::bson::DateTime::now().timestamp_millis() - last.created_at.timestamp_millis();
        if reason == Reason::Autosave && last.reason == Reason::Autosave && recent < period {
            return Ok(None);
        }
    }
    let change = match &newest {
        Some(last) => compare(&snapshot(last)?, &snap).summary,
        None => compare(&empty_like(&snap), &snap).summary,
    };
    let revision = Revision::new(
        post.id,
        by,
        reason,
        &snap,
        change,
        crate::domain::block_media::media_in_use(snap.thumbnail.as_deref(), &snap.blocks),
    )?;
    post_revisions::insert(db, &revision).await?;
    post_revisions::prune(db, post.id, state.settings.revisions.keep).await?;
    Ok(Some(revision))
}

/// An empty post with the same title and settings: what the first revision is compared with
/// (its change is the words and blocks written).
fn empty_like(snap: &Snapshot) -> Snapshot {
    Snapshot {
        title: snap.title.clone(),
        blocks: Vec::new(),
        thumbnail: None,
        category: snap.category.clone(),
        tags: snap.tags.clone(),
        visibility: snap.visibility.clone(),
        audience: snap.audience.clone(),
    }
}

/// Pins the revision that holds the post as it is now (saving one, for `reason`, when none
/// does) as the evidence of a report, appeal or block; answers its id.
pub async fn pin_current(
    state: &AppState,
    post: &Post,
    by: Option<ObjectId>,
    reason: Reason,
    pin: Pin,
) -> ApiResult<ObjectId> {
    let fingerprint = snapshot_of(post).fingerprint();
    let newest = post_revisions::newest(&state.db, post.id).await?;
    let revision = match newest.filter(|r| r.fingerprint == fingerprint) {
        Some(r) => r,
        None => record(state, post, by, reason).await?.ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!(
                "a revision of the current state was not saved"
            ))
        })?,
    };
    post_revisions::pin(&state.db, revision.id, &pin).await?;
    Ok(revision.id)
}

/// Saves the post as an administrator blocks it, pinned while the block lasts; answers the
/// revision's id.
pub async fn pin_blocked(state: &AppState, post: &Post, by: ObjectId) -> ApiResult<ObjectId> {
    let revision = record(state, post, Some(by), Reason::Blocked)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the blocked revision was not saved")))?;
    post_revisions::pin(&state.db, revision.id, &block_pin(post.id)).await?;
    Ok(revision.id)
}

/// Lifts the pin of a block that ended.
pub async fn unpin_blocked(state: &AppState, post_id: ObjectId) -> ApiResult<()> {
    Ok(post_revisions::unpin(&state.db, &block_pin(post_id)).await?)
}

fn block_pin(post_id: ObjectId) -> Pin {
    Pin {
        kind: "block".into(),
        id: post_id,
    }
}

/// For each (post, pinned revision) pair, whether the post changed since that revision (a
/// post that no longer exists has not).
pub async fn edited_since(
    state: &AppState,
    pairs: &[(ObjectId, ObjectId)],
) -> ApiResult<std::collections::HashSet<ObjectId>> {
    let mut post_ids: Vec<ObjectId> = pairs.iter().map(|p| p.0).collect();
    post_ids.sort();
    post_ids.dedup();
    let revision_ids: Vec<ObjectId> = pairs.iter().map(|p| p.1).collect();
    let found = crate::persistence::posts::find_many(&state.db, &post_ids).await?;
    let now: std::collections::HashMap<ObjectId, String> = found
        .iter()
        .map(|p| (p.id, snapshot_of(p).fingerprint()))
        .collect();
    let pinned = post_revisions::fingerprints(&state.db, &revision_ids).await?;
    Ok(pairs
        .iter()
        .filter(
            |(post, revision)| match (now.get(post), pinned.get(revision)) {
                (Some(a), Some(b)) => a != b,
                _ => false,
            },
        )
        .map(|(_, revision)| *revision)
        .collect())
}

/// Pins the revision of the post as it is now as the evidence of a report or appeal.
pub async fn pin_for(
    state: &AppState,
    post: &Post,
    by: Option<ObjectId>,
    kind: &str,
    id: ObjectId,
) -> ApiResult<ObjectId> {
    let reason = if kind == "appeal" {
        Reason::Appealed
    } else {
        Reason::Reported
    };
    pin_current(
        state,
        post,
        by,
        reason,
        Pin {
            kind: kind.to_string(),
            id,
        },
    )
    .await
}

/// A pinned revision shown as evidence.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    pub revision_id: String,
    pub created_at: String,
    pub title: String,
    pub blocks: Vec<crate::domain::blocks::Block>,
}

/// The content of a pinned revision, whether or not its post still exists.
pub async fn evidence(state: &AppState, id: ObjectId) -> ApiResult<Option<Evidence>> {
    let Some(revision) = post_revisions::find_by_id(&state.db, id).await? else {
        return Ok(None);
    };
    let snap = snapshot(&revision)?;
    Ok(Some(Evidence {
        revision_id: revision.id.to_hex(),
        created_at: iso(revision.created_at),
        title: snap.title,
        blocks: snap.blocks,
    }))
}

/// The media addresses the kept revisions of a post use: a post's files stay while a revision
/// that could be restored shows them.
pub async fn media_in_use(state: &AppState, post_id: ObjectId) -> ApiResult<Vec<String>> {
    Ok(post_revisions::media_of(&state.db, post_id).await?)
}

/// Who saved a revision.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RevisionAuthor {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
}

/// A revision in a list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevisionSummary {
    pub id: String,
    pub created_at: String,
    pub by: Option<RevisionAuthor>,
    pub reason: Reason,
    /// Evidence of a report, appeal or block: never dropped, not deletable by the author.
    pub pinned: bool,
    /// A state a publication made public.
    pub published: bool,
    /// It holds the post as it is now.
    pub current: bool,
    pub title: String,
    /// The change from the revision before it.
    pub change: ChangeSummary,
}

/// A revision with its content.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevisionDetail {
    #[serde(flatten)]
    pub summary: RevisionSummary,
    pub blocks: Vec<crate::domain::blocks::Block>,
    pub thumbnail: Option<String>,
    /// The category's id.
    pub category: Option<String>,
    pub tags: Vec<String>,
    pub visibility: String,
    pub audience: String,
}

/// Summaries of these revisions of `post`, with who saved them.
pub async fn summaries(
    state: &AppState,
    post: Option<&Post>,
    revisions: Vec<Revision>,
) -> ApiResult<Vec<RevisionSummary>> {
    let mut ids: Vec<ObjectId> = revisions.iter().filter_map(|r| r.by).collect();
    ids.sort();
    ids.dedup();
    let people = user_directory::authors(&state.db, &ids).await?;
    let current = post.map(|p| snapshot_of(p).fingerprint());
    Ok(revisions
        .into_iter()
        .map(|r| RevisionSummary {
            id: r.id.to_hex(),
            created_at: iso(r.created_at),
            by: r.by.map(|id| RevisionAuthor {
                id: id.to_hex(),
                name: people
                    .get(&id)
                    .map(|p| p.name.clone())
                    .unwrap_or_else(|| crate::post_view::DELETED_AUTHOR.to_string()),
            }),
            reason: r.reason,
            pinned: r.pinned,
            published: r.published,
            current: current.as_deref() == Some(r.fingerprint.as_str()),
            title: r.title,
            change: r.change,
        })
        .collect())
}

/// The revisions of `post`, newest first.
pub async fn list(state: &AppState, post: &Post) -> ApiResult<Vec<RevisionSummary>> {
    let revisions = post_revisions::list(&state.db, post.id).await?;
    summaries(state, Some(post), revisions).await
}

/// A revision of `post` with its content; 404 when it is not one of the post's.
pub async fn load(state: &AppState, post: &Post, raw_id: &str) -> ApiResult<Revision> {
    let id = ObjectId::parse_str(raw_id.trim())
        .map_err(|_| ApiError::not_found(MSG_REVISION_NOT_FOUND))?;
    post_revisions::find(&state.db, post.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_REVISION_NOT_FOUND))
}

/// A revision of a post that no longer exists (kept as evidence); 404 otherwise.
/// One revision with its content, for `me`: of a post `me` manages, or, for an administrator,
/// of a deleted post (its revisions kept as a report's evidence).
pub async fn detail_for(
    state: &AppState,
    me: &crate::auth::AuthUser,
    post_id: ObjectId,
    raw_id: &str,
) -> ApiResult<RevisionDetail> {
    let Some(post) = crate::persistence::posts::find_by_id(&state.db, post_id).await? else {
        if !me.is_admin() {
            return Err(ApiError::not_found(
                crate::services::posts::MSG_POST_NOT_FOUND,
            ));
        }
        let revision = load_orphan(state, post_id, raw_id).await?;
        return detail(state, None, revision).await;
    };
    let post = crate::services::posts::managed_post(Some(post), me)?;
    let revision = load(state, &post, raw_id).await?;
    detail(state, Some(&post), revision).await
}

pub async fn load_orphan(state: &AppState, post_id: ObjectId, raw_id: &str) -> ApiResult<Revision> {
    let id = ObjectId::parse_str(raw_id.trim())
        .map_err(|_| ApiError::not_found(MSG_REVISION_NOT_FOUND))?;
    post_revisions::find(&state.db, post_id, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_REVISION_NOT_FOUND))
}

/// A revision shown with its content (`post`: its post as it is now, `None` when deleted).
pub async fn detail(
    state: &AppState,
    post: Option<&Post>,
    revision: Revision,
) -> ApiResult<RevisionDetail> {
    let snap = snapshot(&revision)?;
    let summary = summaries(state, post, vec![revision])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a revision summary went missing")))?;
    Ok(RevisionDetail {
        summary,
        blocks: snap.blocks,
        thumbnail: snap.thumbnail,
        category: snap.category,
        tags: snap.tags,
        visibility: snap.visibility,
        audience: snap.audience,
    })
}

/// One side of a comparison.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    /// The revision's id, or `current`.
    pub id: String,
    pub created_at: String,
    /// Why the revision was saved; `null` for the post as it is now.
    pub reason: Option<Reason>,
}

/// A side of a comparison: a revision of `post`, or the post as it is now.
pub async fn side(state: &AppState, post: &Post, raw: &str) -> ApiResult<(Side, Snapshot)> {
    if raw.trim() == CURRENT {
        return Ok((
            Side {
                id: CURRENT.to_string(),
                created_at: iso(post.updated_at),
                reason: None,
            },
            snapshot_of(post),
        ));
    }
    let revision = load(state, post, raw).await?;
    let snap = snapshot(&revision)?;
    Ok((
        Side {
            id: revision.id.to_hex(),
            created_at: iso(revision.created_at),
            reason: Some(revision.reason),
        },
        snap,
    ))
}

/// The comparison of two states of `post`.
pub async fn compare_sides(
    state: &AppState,
    post: &Post,
    from: &str,
    to: &str,
) -> ApiResult<(Side, Side, Comparison)> {
    let (from_side, before) = side(state, post, from).await?;
    let (to_side, after) = side(state, post, to).await?;
    Ok((from_side, to_side, compare(&before, &after)))
}
