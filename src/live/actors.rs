//! The live feature actors and data every worker shares, started once before the HTTP server.

use std::sync::Arc;

use actix::{Actor, Addr};
use pressroom_actors::Realtime;

use super::banners::BannerActor;
use super::guests::GuestVisitActor;
use super::locations::LocationActor;
use crate::geoip::GeoIp;
use crate::geojson::GeoData;
use crate::persistence::Db;

/// Handles to the live feature actors and the map and IP data.
#[derive(Clone)]
pub struct LiveActors {
    pub banners: Addr<BannerActor>,
    pub locations: Addr<LocationActor>,
    pub guests: Addr<GuestVisitActor>,
    pub geoip: Arc<GeoIp>,
    pub geodata: Arc<GeoData>,
}

impl LiveActors {
    /// Drops a removed account's location from memory.
    pub fn forget_location(&self, user: mongodb::bson::oid::ObjectId) {
        self.locations.do_send(super::locations::Forget { user });
    }
}

/// A location actor's address before it runs, so the socket handlers can hold it while the
/// realtime server the actor needs is started.
pub fn location_context() -> (actix::Context<LocationActor>, Addr<LocationActor>) {
    use actix::AsyncContext;
    let ctx = actix::Context::new();
    let addr = ctx.address();
    (ctx, addr)
}

/// Starts the actors (inside the actix system, once).
pub fn start(
    db: Db,
    realtime: Realtime,
    redis: crate::redis_pool::Redis,
    location_ctx: actix::Context<LocationActor>,
    geoip: GeoIp,
    geodata: GeoData,
) -> LiveActors {
    let locations = location_ctx.run(LocationActor::new(db.clone(), realtime.clone()));
    LiveActors {
        banners: BannerActor::new(db, realtime.clone(), redis).start(),
        locations,
        guests: GuestVisitActor::new(realtime).start(),
        geoip: Arc::new(geoip),
        geodata: Arc::new(geodata),
    }
}
