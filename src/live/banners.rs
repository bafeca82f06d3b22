//! The banner actor: holds the active banners in memory (loaded from the database at start),
//! answers "which banners does this caller see" without a database round trip, and expires
//! non-sticky banners on time, telling everyone (`broadcastNotificationDeactivated`).
//!
//! In a cluster every node's actor holds the same banners: a change made through one node is
//! announced to the others (a `banners` notice), whose actors reload the active banners from
//! the database. Every node arms the expiry timers, but only the node that claims the expiry in
//! Redis first announces and stores it, so it fires once (each node drops the banner itself).

use std::collections::HashMap;
use std::time::Duration;

use actix::{
    Actor, ActorFutureExt, AsyncContext, Context, Handler, Message, SpawnHandle, WrapFuture,
};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use pressroom_actors::Realtime;

use crate::persistence::banners::{self, Banner};
use crate::persistence::Db;
use crate::redis_pool::Redis;

/// Topic of the notices between nodes that the banners changed.
pub const NOTICE_TOPIC: &str = "banners";
/// How long the claim on a banner's expiry is kept (longer than any clock skew between nodes).
const EXPIRY_CLAIM_MS: u64 = 24 * 3600 * 1000;

/// Wait before retrying the initial load when the database is not reachable.
pub const LOAD_RETRY: Duration = Duration::from_secs(2);
/// Longest single expiry timer; longer waits are re-armed when it fires.
pub const MAX_TIMER: Duration = Duration::from_secs(3600);
/// Margin after `expiresAt` before a timer fires, so the check never runs a moment early.
pub const EXPIRY_SLACK: Duration = Duration::from_millis(5);

/// Owns the active banners.
pub struct BannerActor {
    db: Db,
    realtime: Realtime,
    redis: Redis,
    /// Active banners, newest first.
    banners: Vec<Banner>,
    loaded: bool,
    timers: HashMap<ObjectId, SpawnHandle>,
}

impl BannerActor {
    pub fn new(db: Db, realtime: Realtime, redis: Redis) -> Self {
        BannerActor {
            db,
            realtime,
            redis,
            banners: Vec::new(),
            loaded: false,
            timers: HashMap::new(),
        }
    }

    fn load(&mut self, ctx: &mut Context<Self>) {
        let db = self.db.clone();
        ctx.spawn(
            async move { banners::list_active(&db).await }
                .into_actor(self)
                .map(|res, act, ctx| match res {
                    Ok(found) if act.loaded => act.replace(found, ctx),
                    Ok(found) => {
                        for banner in found {
                            if !act.banners.iter().any(|b| b.id == banner.id) {
                                act.banners.push(banner.clone());
                                act.arm(banner.id, ctx);
                            }
                        }
                        act.banners.sort_by_key(|b| std::cmp::Reverse(b.timestamp));
                        act.loaded = true;
                        tracing::debug!(count = act.banners.len(), "active banners loaded");
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "could not load banners; retrying");
                        ctx.run_later(LOAD_RETRY, |act, ctx| act.load(ctx));
                    }
                }),
        );
    }

    /// Takes `found` (the active banners in the database) as the whole set, arming the timers
    /// of new ones and cancelling those of banners gone.
    fn replace(&mut self, mut found: Vec<Banner>, ctx: &mut Context<Self>) {
        found.sort_by_key(|b| std::cmp::Reverse(b.timestamp));
        for (_, handle) in self.timers.drain() {
            ctx.cancel_future(handle);
        }
        let ids: Vec<ObjectId> = found.iter().map(|b| b.id).collect();
        self.banners = found;
        for id in ids {
            self.arm(id, ctx);
        }
    }

    /// Tells the other nodes that the banners changed.
    fn announce(&self) {
        self.realtime
            .notify_cluster(NOTICE_TOPIC, serde_json::Value::Null);
    }

    /// Arms the expiry timer of a non-sticky banner with an expiry.
    fn arm(&mut self, id: ObjectId, ctx: &mut Context<Self>) {
        let Some(banner) = self.banners.iter().find(|b| b.id == id) else {
            return;
        };
        let Some(expires_at) = banner.expires_at.filter(|_| !banner.sticky) else {
            return;
        };
        let left = expires_at.timestamp_millis() - DateTime::now().timestamp_millis();
        let wait = Duration::from_millis(u64::try_from(left).unwrap_or(0)) + EXPIRY_SLACK;
        let handle = ctx.run_later(wait.min(MAX_TIMER), move |act, ctx| act.expire(id, ctx));
        if let Some(old) = self.timers.insert(id, handle) {
            ctx.cancel_future(old);
        }
    }

    /// Removes a banner whose time has come and tells everyone; re-arms one that is not due yet.
    fn expire(&mut self, id: ObjectId, ctx: &mut Context<Self>) {
        self.timers.remove(&id);
        let now = DateTime::now();
        let Some(pos) = self.banners.iter().position(|b| b.id == id) else {
            return;
        };
        if self.banners[pos].is_live(now) {
            self.arm(id, ctx);
            return;
        }
        self.banners.remove(pos);
        let (db, redis, realtime) = (self.db.clone(), self.redis.clone(), self.realtime.clone());
        actix::spawn(async move {
            if !claim_expiry(&redis, id).await {
                // Another node announced and stored it.
                return;
            }
            crate::live::banner_deactivated(&realtime, &id.to_hex());
            if let Err(e) = banners::deactivate(&db, id).await {
                tracing::warn!(error = %e, banner = %id, "could not store a banner's expiry");
            }
        });
    }

    fn forget(&mut self, id: ObjectId, ctx: &mut Context<Self>) {
        self.banners.retain(|b| b.id != id);
        if let Some(handle) = self.timers.remove(&id) {
            ctx.cancel_future(handle);
        }
    }
}

/// Whether this node is the one to announce a banner's expiry: the first to claim it in Redis,
/// or every node when there is no Redis (or it is unreachable: each node then tells its own
/// sockets).
async fn claim_expiry(redis: &Redis, id: ObjectId) -> bool {
    if !redis.is_configured() {
        return true;
    }
    let key = redis.key(&format!("banner:expired:{}", id.to_hex()));
    let claimed: Result<Option<String>, _> = redis
        .run_if_up(|mut conn| async move {
            deadpool_redis::redis::cmd("SET")
                .arg(key)
                .arg("1")
                .arg("NX")
                .arg("PX")
                .arg(EXPIRY_CLAIM_MS)
                .query_async(&mut conn)
                .await
        })
        .await;
    match claimed {
        Ok(answer) => answer.is_some(),
        Err(_) => true,
    }
}

impl Actor for BannerActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Context<Self>) {
        self.load(ctx);
    }
}

/// Sent by `POST /bannerNotification/create` after storing a banner.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Created(pub Banner);

impl Handler<Created> for BannerActor {
    type Result = ();

    #[tracing::instrument(skip_all)]
    fn handle(&mut self, msg: Created, ctx: &mut Context<Self>) {
        let banner = msg.0;
        let id = banner.id;
        self.forget(id, ctx);
        if banner.is_active {
            self.banners.insert(0, banner);
            self.arm(id, ctx);
        }
        self.announce();
    }
}

/// Sent by `PATCH /bannerNotification/dismiss/{id}` after storing the dismissal.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Dismissed {
    pub id: ObjectId,
    pub user: ObjectId,
}

impl Handler<Dismissed> for BannerActor {
    type Result = ();

    #[tracing::instrument(skip_all)]
    fn handle(&mut self, msg: Dismissed, _: &mut Context<Self>) {
        if let Some(banner) = self.banners.iter_mut().find(|b| b.id == msg.id) {
            if !banner.dismissed_by.contains(&msg.user) {
                banner.dismissed_by.push(msg.user);
            }
        }
        self.announce();
    }
}

/// Sent by `PATCH /bannerNotification/deactivate/{id}` after storing it.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Deactivated(pub ObjectId);

impl Handler<Deactivated> for BannerActor {
    type Result = ();

    #[tracing::instrument(skip_all)]
    fn handle(&mut self, msg: Deactivated, ctx: &mut Context<Self>) {
        self.forget(msg.0, ctx);
        self.announce();
    }
}

/// Sent by `DELETE /bannerNotification/delete-all` after deleting them.
#[derive(Message)]
#[rtype(result = "()")]
pub struct DeletedAll;

impl Handler<DeletedAll> for BannerActor {
    type Result = ();

    #[tracing::instrument(skip_all)]
    fn handle(&mut self, _: DeletedAll, ctx: &mut Context<Self>) {
        for (_, handle) in self.timers.drain() {
            ctx.cancel_future(handle);
        }
        self.banners.clear();
        self.announce();
    }
}

/// Sent when another node changed the banners: reload them from the database.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Reload;

impl Handler<Reload> for BannerActor {
    type Result = ();

    fn handle(&mut self, _: Reload, ctx: &mut Context<Self>) {
        self.load(ctx);
    }
}

/// Asked by `GET /bannerNotification/get-Notification`: the banners a caller sees (live, in
/// `global` or one of `regions`, not dismissed by `user`), newest first. `None` until the
/// initial load has finished (the handler then reads the database).
#[derive(Message)]
#[rtype(result = "Option<Vec<Banner>>")]
pub struct Visible {
    pub user: Option<ObjectId>,
    /// The caller's regions, lowercased.
    pub regions: Vec<String>,
}

impl Handler<Visible> for BannerActor {
    type Result = Option<Vec<Banner>>;

    #[tracing::instrument(skip_all)]
    fn handle(&mut self, msg: Visible, _: &mut Context<Self>) -> Self::Result {
        if !self.loaded {
            return None;
        }
        Some(visible(
            &self.banners,
            msg.user,
            &msg.regions,
            DateTime::now(),
        ))
    }
}

/// The banners of `all` that a caller in `regions` sees at `at`.
pub fn visible(
    all: &[Banner],
    user: Option<ObjectId>,
    regions: &[String],
    at: DateTime,
) -> Vec<Banner> {
    all.iter()
        .filter(|b| b.is_live(at))
        .filter(|b| b.targets(regions))
        .filter(|b| user.is_none_or(|u| !b.dismissed_by.contains(&u)))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn banner(region: &str, expires_in_ms: Option<i64>, sticky: bool) -> Banner {
        let now = DateTime::now().timestamp_millis();
        Banner {
            urgent: false,
            id: ObjectId::new(),
            title: "T".into(),
            message: "M".into(),
            link: None,
            region: region.into(),
            is_active: true,
            expires_at: expires_in_ms.map(|ms| DateTime::from_millis(now + ms)),
            sticky,
            dismissed_by: Vec::new(),
            created_by: None,
            timestamp: DateTime::now(),
        }
    }

    #[test]
    fn a_caller_sees_global_banners_and_their_region_only() {
        let all = vec![
            banner("global", None, false),
            banner("IN", None, false),
            banner("DE", None, false),
        ];
        let seen = visible(&all, None, &["in".into()], DateTime::now());
        let regions: Vec<&str> = seen.iter().map(|b| b.region.as_str()).collect();
        assert_eq!(regions, ["global", "IN"]);
    }

    #[test]
    fn an_expired_banner_is_hidden_unless_sticky() {
        let all = vec![
            banner("global", Some(-1000), false),
            banner("global", Some(-1000), true),
        ];
        let seen = visible(&all, None, &[], DateTime::now());
        assert_eq!(seen.len(), 1);
        assert!(seen[0].sticky);
    }

    #[test]
    fn a_dismissed_banner_is_hidden_from_that_user_only() {
        let mut b = banner("global", None, false);
        let me = ObjectId::new();
        b.dismissed_by.push(me);
        let all = vec![b];
        assert!(visible(&all, Some(me), &[], DateTime::now()).is_empty());
        assert_eq!(
            visible(&all, Some(ObjectId::new()), &[], DateTime::now()).len(),
            1
        );
        assert_eq!(visible(&all, None, &[], DateTime::now()).len(), 1);
    }
}
