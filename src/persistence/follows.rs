//! The `follows` collection: `{followerId, followeeId, createdAt}`, one document per pair under a
//! unique index. Following twice is "already done"; unfollowing what is not followed likewise.

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, DateTime, Document};
use mongodb::Collection;

use super::graph::FOLLOWS;
use super::observer::Change;
use super::{index, is_duplicate_key, now, unique_index, Db, DbContext, DbResult};

pub const COLLECTION: &str = FOLLOWS;

fn collection(db: &Db) -> Collection<Document> {
    db.database().collection(COLLECTION)
}

/// One edge of the graph as a list shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    /// The other user (the follower in a followers list, the followee in a following list).
    pub user: ObjectId,
    pub since: DateTime,
}

/// The unique (followerId, followeeId) index, and followers by time.
pub async fn ensure_indexes(db: &Db) -> DbResult<()> {
    let unique = unique_index(
        doc! { "followerId": 1, "followeeId": 1 },
        "follower_followee_unique",
    );
    let followers = index(
        doc! { "followeeId": 1, "createdAt": -1 },
        "followee_created",
    );
    let batches = index(
        doc! { "followeeId": 1, "followerId": 1 },
        "followee_follower",
    );
    super::create_indexes(
        &collection(db),
        [unique, followers, batches],
        "creating follow indexes",
    )
    .await?;
    Ok(())
}

/// Follows; returns whether this call created the edge.
pub async fn follow(db: &Db, follower: ObjectId, followee: ObjectId) -> DbResult<bool> {
    // The unique index settles races; this check keeps repeats harmless even before it exists.
    if is_following(db, follower, followee).await? {
        return Ok(false);
    }
    let created = match collection(db)
        .insert_one(doc! { "followerId": follower, "followeeId": followee, "createdAt": now() })
        .await
    {
        Ok(_) => true,
        Err(e) if is_duplicate_key(&e) => false,
        Err(e) => return Err(e).db_context("following"),
    };
    db.changed(Change::Follow {
        follower,
        followee,
        on: true,
    })
    .await;
    Ok(created)
}

/// Unfollows; returns whether an edge was removed.
pub async fn unfollow(db: &Db, follower: ObjectId, followee: ObjectId) -> DbResult<bool> {
    let r = collection(db)
        .delete_one(doc! { "followerId": follower, "followeeId": followee })
        .await
        .db_context("unfollowing")?;
    db.changed(Change::Follow {
        follower,
        followee,
        on: false,
    })
    .await;
    Ok(r.deleted_count == 1)
}

/// Removes the edges between two users in both directions.
pub async fn remove_between(db: &Db, a: ObjectId, b: ObjectId) -> DbResult<()> {
    collection(db)
        .delete_many(doc! { "$or": [
            { "followerId": a, "followeeId": b },
            { "followerId": b, "followeeId": a },
        ] })
        .await
        .db_context("removing follows")?;
    for (follower, followee) in [(a, b), (b, a)] {
        db.changed(Change::Follow {
            follower,
            followee,
            on: false,
        })
        .await;
    }
    Ok(())
}

/// Whether `follower` follows `followee`.
pub async fn is_following(db: &Db, follower: ObjectId, followee: ObjectId) -> DbResult<bool> {
    Ok(collection(db)
        .find_one(doc! { "followerId": follower, "followeeId": followee })
        .projection(doc! { "_id": 1 })
        .await
        .db_context("reading a follow")?
        .is_some())
}

/// Which side of the edge a list is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The users following someone.
    Followers,
    /// The users someone follows.
    Following,
}

impl Side {
    fn fields(self) -> (&'static str, &'static str) {
        match self {
            Side::Followers => ("followeeId", "followerId"),
            Side::Following => ("followerId", "followeeId"),
        }
    }
}

/// One page of a user's followers or followings, newest first, leaving out `hidden` users;
/// returns the page and the total.
pub async fn page(
    db: &Db,
    user: ObjectId,
    side: Side,
    hidden: &[ObjectId],
    skip: u64,
    limit: i64,
) -> DbResult<(Vec<Edge>, u64)> {
    let (own, other) = side.fields();
    let mut filter = doc! { own: user };
    if !hidden.is_empty() {
        filter.insert(other, doc! { "$nin": hidden });
    }
    let total = collection(db)
        .count_documents(filter.clone())
        .await
        .db_context("counting follows")?;
    let docs: Vec<Document> = collection(db)
        .find(filter)
        .sort(doc! { "createdAt": -1, "_id": -1 })
        .skip(skip)
        .limit(limit)
        .await
        .db_context("listing follows")?
        .try_collect()
        .await
        .db_context("reading follows")?;
    let edges = docs
        .iter()
        .filter_map(|d| {
            Some(Edge {
                user: d.get_object_id(other).ok()?,
                since: d.get_datetime("createdAt").ok().copied().unwrap_or(now()),
            })
        })
        .collect();
    Ok((edges, total))
}

/// How many followers a user has.
pub async fn follower_count(db: &Db, user: ObjectId) -> DbResult<u64> {
    collection(db)
        .count_documents(doc! { "followeeId": user })
        .await
        .db_context("counting followers")
}

/// How many users a user follows.
pub async fn following_count(db: &Db, user: ObjectId) -> DbResult<u64> {
    collection(db)
        .count_documents(doc! { "followerId": user })
        .await
        .db_context("counting followings")
}

/// Of `others`, those `user` follows.
pub async fn followed_among(
    db: &Db,
    user: ObjectId,
    others: &[ObjectId],
) -> DbResult<Vec<ObjectId>> {
    ends_among(db, ("followerId", user), "followeeId", others).await
}

/// Which of `candidates` follow `followee`.
pub async fn followers_among(
    db: &Db,
    followee: ObjectId,
    candidates: &[ObjectId],
) -> DbResult<Vec<ObjectId>> {
    ends_among(db, ("followeeId", followee), "followerId", candidates).await
}

/// The `other` ends among `ids` of the follows whose `fixed` end is the one given.
async fn ends_among(
    db: &Db,
    fixed: (&str, ObjectId),
    other: &str,
    ids: &[ObjectId],
) -> DbResult<Vec<ObjectId>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let docs: Vec<Document> = collection(db)
        .find(doc! { fixed.0: fixed.1, other: { "$in": ids } })
        .projection(doc! { other: 1 })
        .await
        .db_context("reading follows")?
        .try_collect()
        .await
        .db_context("reading follows")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id(other).ok())
        .collect())
}

/// How a follower hears of an author's new posts (`alerts` on the follow; `instant` when unset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Alerts {
    /// A notice and an email at once.
    #[default]
    Instant,
    /// A notice now, the email in the daily digest.
    Digest,
    /// Neither.
    Off,
}

impl Alerts {
    pub const ALL: [Alerts; 3] = [Alerts::Instant, Alerts::Digest, Alerts::Off];

    pub fn as_str(self) -> &'static str {
        match self {
            Alerts::Instant => "instant",
            Alerts::Digest => "digest",
            Alerts::Off => "off",
        }
    }

    pub fn parse(raw: &str) -> Option<Alerts> {
        Alerts::ALL.into_iter().find(|a| a.as_str() == raw)
    }

    /// The alerts stored in a follow document (`instant` when unset).
    pub fn of(doc: &Document) -> Alerts {
        doc.get_str("alerts")
            .ok()
            .and_then(Alerts::parse)
            .unwrap_or_default()
    }
}

/// The alerts `follower` chose for `followee`, `None` when they do not follow them.
pub async fn alerts(db: &Db, follower: ObjectId, followee: ObjectId) -> DbResult<Option<Alerts>> {
    Ok(collection(db)
        .find_one(doc! { "followerId": follower, "followeeId": followee })
        .projection(doc! { "alerts": 1 })
        .await
        .db_context("reading a follow")?
        .map(|d| Alerts::of(&d)))
}

/// Sets the alerts of a follow; `false` when `follower` does not follow `followee`.
pub async fn set_alerts(
    db: &Db,
    follower: ObjectId,
    followee: ObjectId,
    alerts: Alerts,
) -> DbResult<bool> {
    let r = collection(db)
        .update_one(
            doc! { "followerId": follower, "followeeId": followee },
            doc! { "$set": { "alerts": alerts.as_str() } },
        )
        .await
        .db_context("setting alerts")?;
    Ok(r.matched_count == 1)
}

/// The alerts of `follower` for each of `followees` they follow.
pub async fn alerts_among(
    db: &Db,
    follower: ObjectId,
    followees: &[ObjectId],
) -> DbResult<std::collections::HashMap<ObjectId, Alerts>> {
    if followees.is_empty() {
        return Ok(Default::default());
    }
    let docs: Vec<Document> = collection(db)
        .find(doc! { "followerId": follower, "followeeId": { "$in": followees } })
        .projection(doc! { "followeeId": 1, "alerts": 1 })
        .await
        .db_context("reading follows")?
        .try_collect()
        .await
        .db_context("reading follows")?;
    Ok(docs
        .iter()
        .filter_map(|d| Some((d.get_object_id("followeeId").ok()?, Alerts::of(d))))
        .collect())
}

/// The authors whose alerts `follower` turned off.
pub async fn silenced_by(db: &Db, follower: ObjectId) -> DbResult<Vec<ObjectId>> {
    let docs: Vec<Document> = collection(db)
        .find(doc! { "followerId": follower, "alerts": "off" })
        .projection(doc! { "followeeId": 1 })
        .await
        .db_context("reading follows")?
        .try_collect()
        .await
        .db_context("reading follows")?;
    Ok(docs
        .iter()
        .filter_map(|d| d.get_object_id("followeeId").ok())
        .collect())
}

/// Up to `limit` followers of `followee` after `after` (by follower id, ascending), with their
/// alerts, read to the end at once (the new-post worker reads large pages: FerretDB answers the
/// `$gt` and the sort by reading the collection, so each page costs a pass over it; and a cursor
/// left open between writes would hold SQLite's read lock).
pub async fn followers_page(
    db: &Db,
    followee: ObjectId,
    after: Option<ObjectId>,
    limit: i64,
) -> DbResult<Vec<(ObjectId, Alerts)>> {
    followers_after(db, followee, after, limit).await
}

/// The next batch of `followee`'s followers after `after` (by follower id), with their alerts.
pub async fn followers_after(
    db: &Db,
    followee: ObjectId,
    after: Option<ObjectId>,
    limit: i64,
) -> DbResult<Vec<(ObjectId, Alerts)>> {
    let mut filter = doc! { "followeeId": followee };
    if let Some(a) = after {
        filter.insert("followerId", doc! { "$gt": a });
    }
    let docs: Vec<Document> = collection(db)
        .find(filter)
        .projection(doc! { "followerId": 1, "alerts": 1 })
        .sort(doc! { "followerId": 1 })
        .limit(limit)
        .await
        .db_context("listing followers")?
        .try_collect()
        .await
        .db_context("reading followers")?;
    Ok(docs
        .iter()
        .filter_map(|d| Some((d.get_object_id("followerId").ok()?, Alerts::of(d))))
        .collect())
}
