//! The location actor: takes location updates (the socket's `userLocationUpdate`, save-location,
//! track-ip-location), debounces them to one per second per user, stores the latest, keeps the
//! newest locations in memory (at most 500, one per user) and pushes `userLocationUpdate` to the
//! administrators and to the users this user follows (whose follower maps show them).

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, Message};
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use pressroom_actors::events::{Coordinates, UserLocationUpdate};
use pressroom_actors::Realtime;
use serde_json::Value;

use crate::geoip::UNKNOWN;
use crate::persistence::locations::{self, Source, UserLocation};
use crate::persistence::Db;
use crate::post_view::iso;

/// One push per user per this long; the last update in the window wins.
pub const LOCATION_DEBOUNCE: Duration = Duration::from_secs(1);
/// Latest locations kept in memory (seed 000 §9 "Stored user locations: 500").
pub const MAX_LOCATIONS: usize = 500;
/// Longest place name kept.
pub const MAX_PLACE_LEN: usize = 100;

/// Owns the latest locations and the pending (debounced) updates.
pub struct LocationActor {
    db: Db,
    realtime: Realtime,
    /// Newest first, one per user, at most [`MAX_LOCATIONS`].
    latest: Vec<UserLocation>,
    /// Updates waiting for their user's debounce window to end, and whether to store them.
    pending: HashMap<ObjectId, (UserLocation, bool)>,
    /// Users whose debounce window is open.
    waiting: HashSet<ObjectId>,
}

impl LocationActor {
    pub fn new(db: Db, realtime: Realtime) -> Self {
        LocationActor {
            db,
            realtime,
            latest: Vec::new(),
            pending: HashMap::new(),
            waiting: HashSet::new(),
        }
    }

    fn flush(&mut self, user: ObjectId) {
        self.waiting.remove(&user);
        let Some((location, store)) = self.pending.remove(&user) else {
            return;
        };
        remember(&mut self.latest, location.clone(), MAX_LOCATIONS);
        let db = self.db.clone();
        let realtime = self.realtime.clone();
        actix::spawn(async move {
            if store {
                if let Err(e) = locations::upsert(&db, &location).await {
                    tracing::warn!(error = %e, user = %user, "could not store a location");
                }
            }
            // A follower map shows its owner's followers: the move goes to the people this
            // user follows.
            let audience = match locations::maps_showing(&db, user).await {
                Ok(ids) => ids.iter().map(|id| id.to_hex()).collect(),
                Err(e) => {
                    tracing::warn!(error = %e, "could not load followees for a location update");
                    Vec::new()
                }
            };
            crate::live::user_location_updated(&realtime, &audience, to_event(&location));
        });
    }
}

impl Actor for LocationActor {
    type Context = Context<Self>;
}

/// Sent by the socket handler (`store: true`) and by the REST handlers that already stored the
/// location (`store: false`).
#[derive(Message)]
#[rtype(result = "()")]
pub struct Update {
    pub location: UserLocation,
    pub store: bool,
}

impl Handler<Update> for LocationActor {
    type Result = ();

    #[tracing::instrument(skip_all)]
    fn handle(&mut self, msg: Update, ctx: &mut Context<Self>) {
        let user = msg.location.user_id;
        let store = msg.store || self.pending.get(&user).is_some_and(|(_, s)| *s);
        self.pending.insert(user, (msg.location, store));
        if self.waiting.insert(user) {
            ctx.run_later(LOCATION_DEBOUNCE, move |act, _| act.flush(user));
        }
    }
}

/// Sent when an account is removed: its location leaves memory and a pending update is dropped.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Forget {
    pub user: ObjectId,
}

impl Handler<Forget> for LocationActor {
    type Result = ();

    fn handle(&mut self, msg: Forget, _: &mut Context<Self>) {
        self.latest.retain(|l| l.user_id != msg.user);
        self.pending.remove(&msg.user);
    }
}

/// Asks for the newest locations in memory (newest first).
#[derive(Message)]
#[rtype(result = "Vec<UserLocation>")]
pub struct Latest;

impl Handler<Latest> for LocationActor {
    type Result = Vec<UserLocation>;

    fn handle(&mut self, _: Latest, _: &mut Context<Self>) -> Self::Result {
        self.latest.clone()
    }
}

/// Puts `location` first, drops the same user's earlier entry, trims to `cap`.
pub fn remember(list: &mut Vec<UserLocation>, location: UserLocation, cap: usize) {
    list.retain(|l| l.user_id != location.user_id);
    list.insert(0, location);
    list.truncate(cap);
}

/// The wire form of a location.
pub fn to_event(location: &UserLocation) -> UserLocationUpdate {
    UserLocationUpdate {
        user_id: location.user_id.to_hex(),
        coordinates: Coordinates {
            lat: location.coordinates.lat,
            lon: location.coordinates.lon,
        },
        city: location.city.clone(),
        country: location.country.clone(),
        country_code: location.country_code.clone(),
        state: location.state.clone(),
        pincode: location.pincode.clone(),
        timestamp: iso(location.timestamp),
    }
}

/// A place name as stored: trimmed, at most [`MAX_PLACE_LEN`] characters, `Unknown` when empty.
pub fn place_name(raw: Option<&str>) -> String {
    let trimmed = raw.map(str::trim).unwrap_or("");
    if trimmed.is_empty() {
        UNKNOWN.to_string()
    } else {
        trimmed.chars().take(MAX_PLACE_LEN).collect()
    }
}

/// Whether a latitude and longitude are on the globe.
pub fn valid_coordinates(lat: f64, lon: f64) -> bool {
    lat.is_finite()
        && lon.is_finite()
        && (-90.0..=90.0).contains(&lat)
        && (-180.0..=180.0).contains(&lon)
}

fn number(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Reads a client's `userLocationUpdate` payload sent by `socket_user`. `None` (ignored) unless
/// it names that user as `userId` and carries `lat` and `lon` (flat or under `coordinates`) on
/// the globe.
pub fn parse_client_update(socket_user: &str, args: &[Value]) -> Option<UserLocation> {
    let payload = args.first()?.as_object()?;
    let user_id = payload.get("userId")?.as_str()?;
    if user_id != socket_user {
        return None;
    }
    let user_id = ObjectId::parse_str(user_id).ok()?;
    let nested = payload.get("coordinates").and_then(Value::as_object);
    let lat = number(payload.get("lat")).or_else(|| number(nested.and_then(|c| c.get("lat"))))?;
    let lon = number(payload.get("lon")).or_else(|| number(nested.and_then(|c| c.get("lon"))))?;
    if !valid_coordinates(lat, lon) {
        return None;
    }
    let text = |key: &str| place_name(payload.get(key).and_then(Value::as_str));
    let country_code = payload
        .get("countryCode")
        .and_then(Value::as_str)
        .map(|c| c.trim().to_uppercase())
        .filter(|c| c.len() == 2 && c.chars().all(|ch| ch.is_ascii_alphabetic()));
    Some(UserLocation {
        user_id,
        coordinates: locations::Coordinates { lat, lon },
        city: text("city"),
        country: text("country"),
        country_code,
        state: text("state"),
        pincode: text("pincode"),
        source: Source::Device,
        timestamp: DateTime::now(),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn at(user: ObjectId, lat: f64) -> UserLocation {
        UserLocation {
            user_id: user,
            coordinates: locations::Coordinates { lat, lon: 0.0 },
            city: UNKNOWN.into(),
            country: UNKNOWN.into(),
            country_code: None,
            state: UNKNOWN.into(),
            pincode: UNKNOWN.into(),
            source: Source::Device,
            timestamp: DateTime::now(),
        }
    }

    #[test]
    fn the_same_user_is_replaced_and_put_first() {
        let (a, b) = (ObjectId::new(), ObjectId::new());
        let mut list = Vec::new();
        remember(&mut list, at(a, 1.0), 10);
        remember(&mut list, at(b, 2.0), 10);
        remember(&mut list, at(a, 3.0), 10);
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].user_id, a);
        assert_eq!(list[0].coordinates.lat, 3.0);
        assert_eq!(list[1].user_id, b);
    }

    #[test]
    fn the_list_keeps_the_newest_five_hundred() {
        let mut list = Vec::new();
        let users: Vec<ObjectId> = (0..MAX_LOCATIONS + 20).map(|_| ObjectId::new()).collect();
        for u in &users {
            remember(&mut list, at(*u, 1.0), MAX_LOCATIONS);
        }
        assert_eq!(list.len(), MAX_LOCATIONS);
        assert_eq!(list[0].user_id, *users.last().unwrap());
        assert!(!list.iter().any(|l| l.user_id == users[19]));
        assert!(list.iter().any(|l| l.user_id == users[20]));
    }

    #[test]
    fn a_client_update_needs_its_own_user_id_and_coordinates() {
        let me = ObjectId::new().to_hex();
        let other = ObjectId::new().to_hex();
        let cases = [
            (json!({"userId": me, "lat": 12.5, "lon": 77.1}), true),
            (
                json!({"userId": me, "coordinates": {"lat": 12.5, "lon": 77.1}}),
                true,
            ),
            (json!({"userId": me, "lat": "12.5", "lon": "77.1"}), true),
            (json!({"userId": other, "lat": 12.5, "lon": 77.1}), false),
            (json!({"lat": 12.5, "lon": 77.1}), false),
            (json!({"userId": me, "lon": 77.1}), false),
            (json!({"userId": me, "lat": 12.5}), false),
            (json!({"userId": me, "lat": 91, "lon": 0}), false),
            (json!({"userId": me, "lat": 0, "lon": -181}), false),
            (json!("nonsense"), false),
        ];
        for (payload, accepted) in cases {
            assert_eq!(
                parse_client_update(&me, std::slice::from_ref(&payload)).is_some(),
                accepted,
                "case {payload}"
            );
        }
    }

    #[test]
    fn missing_place_names_are_unknown() {
        let me = ObjectId::new().to_hex();
        let loc = parse_client_update(
            &me,
            &[json!({"userId": me, "lat": 1, "lon": 2, "city": "  "})],
        )
        .unwrap();
        assert_eq!(loc.city, UNKNOWN);
        assert_eq!(loc.pincode, UNKNOWN);
    }
}
