//! The `poll_votes` collection: the choices users made in poll blocks, one document per
//! (post, poll block, user, slot) under a unique index. A single-choice poll uses slot 0, whose
//! `option` moves when the user votes again; a multiple-choice poll uses slot `option + 1` per
//! chosen option, toggled by delete or insert. The counts shown with the poll live in the post's
//! block (`data.options[i].votes`) and are set from these records under the post's lock, so they
//! always equal the records.

use std::collections::HashMap;

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Document};
use mongodb::Collection;
use serde_json::Value;

use super::{is_duplicate_key, now, posts, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = "poll_votes";

fn collection(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

/// The unique (postId, blockId, userId, slot) index, and a voter's votes (an account's removal).
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    super::create_indexes(
        &collection(db),
        [
            unique_index(
                doc! { "postId": 1, "blockId": 1, "userId": 1, "slot": 1 },
                "post_block_user_slot_unique",
            ),
            super::index(doc! { "userId": 1 }, "user"),
        ],
        "creating poll vote indexes",
    )
    .await?;
    Ok(())
}

fn option_of(d: &Document) -> Option<usize> {
    d.get_i64("option")
        .or_else(|_| d.get_i32("option").map(i64::from))
        .ok()
        .and_then(|o| usize::try_from(o).ok())
}

fn as_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Sets the user's single choice; voting again moves it.
pub async fn vote_single(
    db: &Db,
    post: ObjectId,
    block_id: &str,
    user: ObjectId,
    option: usize,
) -> DbResult<()> {
    let filter = doc! { "postId": post, "blockId": block_id, "userId": user, "slot": 0 };
    let update = doc! {
        "$set": { "option": as_i64(option), "updatedAt": now() },
        "$setOnInsert": { "createdAt": now() },
    };
    for attempt in 0..2 {
        match collection(db)
            .update_one(filter.clone(), update.clone())
            .upsert(true)
            .await
        {
            Ok(_) => break,
            // A simultaneous first vote created the record: this one becomes an update.
            Err(e) if is_duplicate_key(&e) && attempt == 0 => continue,
            Err(e) => return Err(e).db_context("recording a poll vote"),
        }
    }
    sync_counts(db, post, block_id).await
}

/// Toggles one choice of a multiple-choice poll.
pub async fn toggle_multiple(
    db: &Db,
    post: ObjectId,
    block_id: &str,
    user: ObjectId,
    option: usize,
) -> DbResult<()> {
    let key =
        doc! { "postId": post, "blockId": block_id, "userId": user, "slot": as_i64(option + 1) };
    let removed = collection(db)
        .delete_one(key.clone())
        .await
        .db_context("withdrawing a poll vote")?;
    if removed.deleted_count == 0 {
        let mut record = key;
        record.insert("option", as_i64(option));
        record.insert("createdAt", now());
        record.insert("updatedAt", now());
        match collection(db).insert_one(record).await {
            Ok(_) => {}
            // A simultaneous toggle chose it already.
            Err(e) if is_duplicate_key(&e) => {}
            Err(e) => return Err(e).db_context("recording a poll vote"),
        }
    }
    sync_counts(db, post, block_id).await
}

/// The options a user chose in a poll, in order.
pub async fn choices_of(
    db: &Db,
    post: ObjectId,
    block_id: &str,
    user: ObjectId,
) -> DbResult<Vec<usize>> {
    let docs: Vec<Document> = collection(db)
        .find(doc! { "postId": post, "blockId": block_id, "userId": user })
        .await
        .db_context("reading poll votes")?
        .try_collect()
        .await
        .db_context("reading poll votes")?;
    let mut choices: Vec<usize> = docs.iter().filter_map(option_of).collect();
    choices.sort_unstable();
    choices.dedup();
    Ok(choices)
}

/// Votes per option, counted from the records.
pub async fn tally(db: &Db, post: ObjectId, block_id: &str) -> DbResult<HashMap<usize, i64>> {
    let docs: Vec<Document> = collection(db)
        .find(doc! { "postId": post, "blockId": block_id })
        .projection(doc! { "option": 1 })
        .await
        .db_context("listing poll votes")?
        .try_collect()
        .await
        .db_context("reading poll votes")?;
    let mut counts = HashMap::new();
    for option in docs.iter().filter_map(option_of) {
        *counts.entry(option).or_insert(0) += 1;
    }
    Ok(counts)
}

/// Writes the poll's counts from the records into the post's block, under the post's lock. The
/// block is found by id at write time, so an edit that moved it does not matter.
pub async fn sync_counts(db: &Db, post: ObjectId, block_id: &str) -> DbResult<()> {
    let inner = db.clone();
    let block_id = block_id.to_string();
    posts::with_post_lock(db, post, async move {
        let counts = tally(&inner, post, &block_id).await?;
        let Some(found) = posts::find_by_id(&inner, post).await? else {
            return Ok(());
        };
        let Some((index, block)) = found
            .blocks
            .iter()
            .enumerate()
            .find(|(_, b)| b.id == block_id && b.kind == "poll")
        else {
            return Ok(());
        };
        let options = block
            .data
            .get("options")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let mut set = Document::new();
        for option in 0..options {
            set.insert(
                format!("blocks.{index}.data.options.{option}.votes"),
                counts.get(&option).copied().unwrap_or(0),
            );
        }
        if set.is_empty() {
            return Ok(());
        }
        posts::store_poll_counts(&inner, post, index, &block_id, set).await
    })
    .await
}
