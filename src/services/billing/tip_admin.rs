//! What writers and readers manage around tips: a writer's currency and suggested amounts, the
//! supporters' messages a writer hides, and the lists of tips with the names and posts they
//! read with.

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};

use super::tips::{bounds, load, MAX_SUGGESTED, MSG_TIP_NOT_FOUND};
use crate::domain::money::format_amount;
use crate::error::{ApiError, ApiResult};
use crate::persistence::tips::{self, Tip, TipSettings, TipStatus};
use crate::persistence::users::User;
use crate::persistence::{blocks, now, posts, users};
use crate::state::AppState;

pub const MSG_NOT_WRITER: &str = "Only the writer of the post or an administrator can do this";

/// Saves a writer's currency and suggested amounts (each within the bounds, 1 to
/// [`MAX_SUGGESTED`], ascending without repeats).
pub async fn save_settings(
    state: &AppState,
    author: ObjectId,
    currency: String,
    mut amounts: Vec<i64>,
) -> ApiResult<TipSettings> {
    if !state.settings.payments.currencies.contains(&currency) {
        return Err(ApiError::bad_request(format!(
            "currency must be one of {}",
            state.settings.payments.currencies.join(", ")
        )));
    }
    amounts.sort_unstable();
    amounts.dedup();
    if amounts.is_empty() || amounts.len() > MAX_SUGGESTED {
        return Err(ApiError::bad_request(format!(
            "suggestedAmounts must hold 1 to {MAX_SUGGESTED} different amounts"
        )));
    }
    let (min, max) = bounds(state, &currency);
    if amounts.iter().any(|a| !(min..=max).contains(a)) {
        return Err(ApiError::bad_request(format!(
            "Each suggested amount must be from {} to {}",
            format_amount(min, &currency),
            format_amount(max, &currency)
        )));
    }
    let value = TipSettings {
        author_id: author,
        currency,
        suggested_amounts: amounts,
        updated_at: now(),
    };
    tips::save_settings(&state.db, &value).await?;
    Ok(value)
}

/// Hides or shows a supporter's message: the post's writer or an administrator.
pub async fn set_hidden(
    state: &AppState,
    caller: &User,
    is_admin: bool,
    id: ObjectId,
    hidden: bool,
) -> ApiResult<Tip> {
    let tip = load(state, id).await?;
    if tip.author_id != caller.id && !is_admin {
        return Err(if tip.sender_id == caller.id {
            ApiError::forbidden(MSG_NOT_WRITER)
        } else {
            ApiError::not_found(MSG_TIP_NOT_FOUND)
        });
    }
    tips::set(&state.db, tip.id, doc! { "hidden": hidden })
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_TIP_NOT_FOUND))
}

/// A tip with what it reads with: its post's title and slug (while the post exists), the
/// writer's name and the reader's name and picture (while their accounts exist).
pub struct Listed {
    pub tip: Tip,
    pub post: Option<(String, String)>,
    pub author: Option<String>,
    pub sender: Option<(String, Option<String>)>,
    /// The reader's account is blocked by the administrators.
    pub sender_blocked: bool,
}

/// `tips` with their posts and people, in the same order.
pub async fn with_names(state: &AppState, found: Vec<Tip>) -> ApiResult<Vec<Listed>> {
    let db = &state.db;
    let mut post_ids: Vec<ObjectId> = found.iter().map(|t| t.post_id).collect();
    post_ids.sort();
    post_ids.dedup();
    let mut people: Vec<ObjectId> = found
        .iter()
        .flat_map(|t| [t.author_id, t.sender_id])
        .collect();
    people.sort();
    people.dedup();
    let titles: HashMap<ObjectId, (String, String)> = posts::titles(db, &post_ids)
        .await?
        .into_iter()
        .map(|(id, title, slug)| (id, (title, slug)))
        .collect();
    let names: HashMap<ObjectId, User> = users::find_many(db, &people)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    Ok(found
        .into_iter()
        .map(|tip| Listed {
            post: titles.get(&tip.post_id).cloned(),
            author: names.get(&tip.author_id).map(|u| u.name.clone()),
            sender: names
                .get(&tip.sender_id)
                .map(|u| (u.name.clone(), u.avatar.clone())),
            sender_blocked: names.get(&tip.sender_id).is_some_and(|u| u.blocked),
            tip,
        })
        .collect())
}

/// Which of a person's tips a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The writer's: paid ones (and their refunds).
    Received,
    /// The reader's: every tip they began, failed ones included.
    Sent,
}

/// A page of `user`'s tips on one side, newest first, and how many there are.
pub async fn page_of(
    state: &AppState,
    user: ObjectId,
    side: Side,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<Listed>, u64)> {
    let filter = match side {
        Side::Received => {
            doc! { "authorId": user, "status": { "$in": ["succeeded", "refunding", "refunded"] } }
        }
        Side::Sent => doc! { "senderId": user },
    };
    let (found, total) = tips::page(&state.db, filter, skip, limit).await?;
    Ok((with_names(state, found).await?, total))
}

/// A page of a post's supporters: paid tips whose readers chose to be listed, leaving out
/// readers whose accounts are blocked and readers blocked by (or blocking) the writer.
pub async fn supporters(
    state: &AppState,
    post: ObjectId,
    skip: u64,
    limit: i64,
) -> ApiResult<(Vec<Listed>, u64)> {
    let db = &state.db;
    let mut filter: Document =
        doc! { "postId": post, "public": true, "status": { "$in": ["succeeded", "refunding"] } };
    if let Some(author) = posts::find_by_id(db, post).await?.map(|p| p.author) {
        let excluded: Vec<ObjectId> = blocks::related_to(db, author).await?;
        if !excluded.is_empty() {
            filter.insert("senderId", doc! { "$nin": excluded });
        }
    }
    let (found, total) = tips::page(db, filter, skip, limit).await?;
    let listed = with_names(state, found).await?;
    // Accounts blocked by the administrators (or gone) drop out of the page they fall on.
    let before = listed.len() as u64;
    let listed: Vec<Listed> = listed
        .into_iter()
        .filter(|l| l.sender.is_some() && !l.sender_blocked)
        .collect();
    let dropped = before - listed.len() as u64;
    Ok((listed, total.saturating_sub(dropped)))
}

/// Every tip a person made or received (their data export).
pub async fn all_of(state: &AppState, user: ObjectId) -> ApiResult<(Vec<Tip>, Vec<Tip>)> {
    let sent = tips::find(&state.db, doc! { "senderId": user }).await?;
    let received = tips::find(
        &state.db,
        doc! { "authorId": user, "status": { "$ne": TipStatus::Pending.as_str() } },
    )
    .await?;
    Ok((sent, received))
}
