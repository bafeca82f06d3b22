//! Locations: IP geolocation from the local database, saving, tracking, the admin list, follower
//! locations, and the map outlines.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::*;

#[actix_web::test]
async fn ip_location_places_the_client_address_from_the_local_database() {
    let app = spawn_live_app().await;
    let res = app
        .request_from(Method::GET, "/api/user/ip-location", None, IP_MUMBAI, None)
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let loc = json_of(res).await["location"].clone();
    assert_eq!(loc["city"], "Mumbai");
    assert_eq!(loc["country"], "India");
    assert_eq!(loc["countryCode"], "IN");
    assert_eq!(loc["state"], "Maharashtra");
    assert_eq!(loc["pincode"], "400001");
    assert!((loc["latitude"].as_f64().unwrap() - 19.076).abs() < 0.001);
    assert!(loc["timestamp"].is_string());
}

#[actix_web::test]
async fn private_and_unknown_addresses_give_the_spec_defaults() {
    let app = spawn_live_app().await;
    for ip in ["10.1.2.3", "8.8.8.8"] {
        let res = app
            .request_from(Method::GET, "/api/user/ip-location", None, ip, None)
            .await;
        let loc = json_of(res).await["location"].clone();
        assert_eq!(loc["latitude"], 0.0, "case {ip}");
        assert_eq!(loc["longitude"], 0.0, "case {ip}");
        for key in ["city", "country", "state", "pincode"] {
            assert_eq!(loc[key], "Unknown", "case {ip} {key}");
        }
    }
}

#[actix_web::test]
async fn forwarded_for_is_ignored_from_an_untrusted_peer() {
    let app = spawn_app().await;
    let res = app
        .request_from(Method::GET, "/api/user/ip-location", None, IP_MUMBAI, None)
        .await;
    assert_eq!(json_of(res).await["location"]["country"], "Unknown");
}

#[actix_web::test]
async fn save_location_validates_and_stores_the_latest() {
    let app = spawn_live_app().await;
    let user = app.signup().await;
    let t = Some(user.token.as_str());
    let cases = [
        (json!({}), "Invalid location data from IP"),
        (
            json!({ "coordinates": { "lat": 10 } }),
            "Invalid location data from IP",
        ),
        (
            json!({ "coordinates": { "lat": 91, "lon": 0 } }),
            "Latitude must be a number between -90 and 90",
        ),
        (
            json!({ "coordinates": { "lat": 0, "lon": 180.5 } }),
            "Longitude must be a number between -180 and 180",
        ),
        (
            json!({ "coordinates": { "lat": "x", "lon": 0 } }),
            "Invalid value for 'coordinates.lat'",
        ),
    ];
    for (body, message) in cases {
        let res = app.post_json("/api/user/save-location", &body, t).await;
        let got = assert_error(res, StatusCode::BAD_REQUEST).await;
        assert!(got.starts_with(message), "case {body}: {got}");
    }
    let res = app
        .post_json(
            "/api/user/save-location",
            &json!({ "coordinates": { "lat": 12.97, "lon": 77.59 }, "city": "Bengaluru", "country": "India", "state": "", "pincode": null }),
            t,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let loc = json_of(res).await["location"].clone();
    assert_eq!(loc["userId"], user.id);
    assert_eq!(loc["coordinates"], json!({ "lat": 12.97, "lon": 77.59 }));
    assert_eq!(loc["city"], "Bengaluru");
    assert_eq!(loc["state"], "Unknown");
    assert_eq!(loc["pincode"], "Unknown");
    let res = app
        .post_json(
            "/api/user/save-location",
            &json!({ "coordinates": { "lat": 1, "lon": 2 } }),
            None,
        )
        .await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
}

#[actix_web::test]
async fn tracking_the_ip_never_replaces_a_device_location() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    let user = app.signup().await;
    let res = app
        .request_from(
            Method::POST,
            "/api/user/track-ip-location",
            Some(&user.token),
            IP_BERLIN,
            None,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(json_of(res).await["location"]["city"], "Berlin");
    let list = json_of(app.get("/api/user/locations", Some(&admin.token)).await).await;
    assert_eq!(list["total"], 1);
    assert_eq!(list["locations"][0]["city"], "Berlin");
    assert_eq!(list["locations"][0]["source"], "ip");

    app.post_json(
        "/api/user/save-location",
        &json!({ "coordinates": { "lat": 12.97, "lon": 77.59 }, "city": "Bengaluru" }),
        Some(&user.token),
    )
    .await;
    app.request_from(
        Method::POST,
        "/api/user/track-ip-location",
        Some(&user.token),
        IP_LONDON,
        None,
    )
    .await;
    let list = json_of(app.get("/api/user/locations", Some(&admin.token)).await).await;
    assert_eq!(list["locations"][0]["city"], "Bengaluru");
    assert_eq!(list["locations"][0]["user"]["_id"], user.id);
    assert_eq!(
        list["locations"][0]["isOnline"], false,
        "presence is told (no socket here)"
    );
}

#[actix_web::test]
async fn the_admin_location_list_is_paged_by_twelve_and_admin_only() {
    let app = spawn_live_app().await;
    let admin = app.admin().await;
    for i in 0..13 {
        let u = app.signup().await;
        app.post_json(
            "/api/user/save-location",
            &json!({ "coordinates": { "lat": i as f64, "lon": 1.0 } }),
            Some(&u.token),
        )
        .await;
    }
    let first = json_of(app.get("/api/user/locations", Some(&admin.token)).await).await;
    assert_eq!(first["total"], 13);
    assert_eq!(first["totalPages"], 2);
    assert_eq!(first["locations"].as_array().unwrap().len(), 12);
    assert_eq!(first["locations"][0]["coordinates"]["lat"], 12.0);
    let second = json_of(
        app.get("/api/user/locations?page=2", Some(&admin.token))
            .await,
    )
    .await;
    assert_eq!(second["locations"].as_array().unwrap().len(), 1);

    let user = app.signup().await;
    let res = app.get("/api/user/locations", Some(&user.token)).await;
    assert_eq!(
        assert_error(res, StatusCode::FORBIDDEN).await,
        "Admin access required"
    );
}

#[actix_web::test]
async fn follower_locations_list_only_the_callers_followers() {
    let app = spawn_live_app().await;
    let me = app.signup().await;
    let fan = app.signup().await;
    let quiet_fan = app.signup().await;
    let stranger = app.signup().await;
    let followed = app.signup().await;
    app.follow_directly(&fan, &me).await;
    app.follow_directly(&quiet_fan, &me).await;
    app.follow_directly(&me, &followed).await;
    for u in [&fan, &stranger, &followed] {
        app.post_json(
            "/api/user/save-location",
            &json!({ "coordinates": { "lat": 5.0, "lon": 6.0 }, "city": "Somewhere" }),
            Some(&u.token),
        )
        .await;
    }
    let body = json_of(
        app.get("/api/follow/follower-locations", Some(&me.token))
            .await,
    )
    .await;
    assert_eq!(body["total"], 1);
    assert_eq!(body["totalPages"], 1);
    let list = body["list"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["userId"], fan.id);
    assert_eq!(list[0]["isOnline"], false);
    assert_eq!(list[0]["city"], "Somewhere");
    // Nobody is connected: with includeOffline=false nothing is left.
    let body = json_of(
        app.get(
            "/api/follow/follower-locations?includeOffline=false",
            Some(&me.token),
        )
        .await,
    )
    .await;
    assert_eq!(body["total"], 0);
    let res = app.get("/api/follow/follower-locations", None).await;
    assert_error(res, StatusCode::UNAUTHORIZED).await;
    let res = app
        .get(
            "/api/follow/follower-locations?includeOffline=maybe",
            Some(&me.token),
        )
        .await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn the_map_outlines_are_feature_collections() {
    let app = spawn_app().await;
    let res = app.get("/api/geojson/india-border", None).await;
    assert_eq!(res.status(), StatusCode::OK);
    let india = json_of(res).await;
    assert_eq!(india["type"], "FeatureCollection");
    let features = india["features"].as_array().unwrap();
    assert_eq!(features.len(), 1);
    assert_eq!(features[0]["properties"]["name"], "India");
    assert_eq!(features[0]["geometry"]["type"], "MultiPolygon");
    let world = json_of(app.get("/api/geojson/world", None).await).await;
    assert_eq!(world["type"], "FeatureCollection");
    assert!(world["features"].as_array().unwrap().len() >= 2);
}

/// Without the map data installed the outlines answer 503 with the service's message, not a 500.
#[actix_web::test]
async fn the_map_outlines_without_their_data_are_unavailable() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.geojson.directory = std::env::temp_dir().join("pressroom-no-map-data-here");
        })),
        ..AppOptions::default()
    })
    .await;
    for path in ["/api/geojson/india-border", "/api/geojson/world"] {
        let res = app.get(path, None).await;
        assert_eq!(
            assert_error(res, StatusCode::SERVICE_UNAVAILABLE).await,
            pressroom::error::UNAVAILABLE_MESSAGE,
            "{path}"
        );
    }
}
