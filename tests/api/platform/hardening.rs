//! Security headers on every response, the cross-site check on cookie-authenticated writes, and
//! uploaded images checked by their bytes and re-encoded.

use base64::Engine;
use pressroom::config::Environment;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::*;

fn assert_security_headers(res: &reqwest::Response, what: &str) {
    let h = res.headers();
    let csp = h
        .get("content-security-policy")
        .unwrap_or_else(|| panic!("{what}: no Content-Security-Policy"))
        .to_str()
        .unwrap();
    for directive in [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
    ] {
        assert!(
            csp.contains(directive),
            "{what}: {directive} missing in {csp}"
        );
    }
    assert!(
        !csp.split(';')
            .find(|d| d.trim().starts_with("script-src"))
            .unwrap()
            .contains("unsafe"),
        "{what}: scripts must not be allowed inline or through eval: {csp}"
    );
    assert_eq!(
        h.get("x-content-type-options").unwrap(),
        "nosniff",
        "{what}"
    );
    assert_eq!(
        h.get("referrer-policy").unwrap(),
        "strict-origin-when-cross-origin",
        "{what}"
    );
    assert_eq!(h.get("x-frame-options").unwrap(), "DENY", "{what}");
}

#[actix_web::test]
async fn every_kind_of_response_carries_the_security_headers() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let cases: Vec<(&str, reqwest::Response)> = vec![
        ("health", app.get("/health", None).await),
        ("a list", app.get("/api/categories", None).await),
        (
            "signed in",
            app.get("/api/auth/check", Some(&user.token)).await,
        ),
        ("401", app.get("/api/auth/check", None).await),
        ("404 under /api", app.get("/api/no-such-route", None).await),
        (
            "400 on a malformed body",
            app.post_raw("/api/auth/login", "{not json", None).await,
        ),
        (
            "404 of a media file",
            app.get("/media/0123456789abcdef0123456789abcdef.png", None)
                .await,
        ),
        (
            "the web app's fallback",
            app.get("/some/client/route", None).await,
        ),
        (
            "the OpenAPI document",
            app.get("/api/openapi.json", None).await,
        ),
    ];
    for (what, res) in &cases {
        assert_security_headers(res, what);
        assert!(
            res.headers().get("strict-transport-security").is_none(),
            "{what}: HSTS only in production"
        );
    }
}

#[actix_web::test]
async fn production_adds_strict_transport_security() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s| s.environment = Some(Environment::Production))),
        ..Default::default()
    })
    .await;
    for path in ["/health", "/api/no-such-route"] {
        let res = app.get(path, None).await;
        assert_security_headers(&res, path);
        let hsts = res.headers().get("strict-transport-security").unwrap();
        assert!(hsts.to_str().unwrap().starts_with("max-age="), "{hsts:?}");
    }
}

/// A state-changing request authenticated by the `jwt` cookie alone, with the given `Origin` and
/// `Referer`.
async fn cookie_write(
    app: &TestApp,
    token: &str,
    consent: bool,
    origin: Option<&str>,
    referer: Option<&str>,
) -> reqwest::Response {
    let mut req = app
        .client
        .request(Method::POST, app.url("/api/user/consent"))
        .header("cookie", format!("jwt={token}"))
        .json(&json!({ "consent": consent }));
    if let Some(o) = origin {
        req = req.header("origin", o);
    }
    if let Some(r) = referer {
        req = req.header("referer", r);
    }
    req.send().await.unwrap()
}

#[actix_web::test]
async fn the_session_cookie_is_same_site_lax_and_http_only() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let res = app.login(&user.email, PASSWORD).await;
    let cookie = res.headers().get("set-cookie").unwrap().to_str().unwrap();
    assert!(cookie.starts_with("jwt="), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
}

#[actix_web::test]
async fn cookie_only_writes_must_come_from_the_site_itself() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let own = app.address.clone();

    // From the site (what a browser sends for the web app's own requests): accepted.
    let res = cookie_write(&app, &user.token, true, Some(&own), None).await;
    assert_eq!(res.status(), StatusCode::OK, "{:?}", res.text().await);
    let res = cookie_write(
        &app,
        &user.token,
        true,
        None,
        Some(&format!("{own}/settings")),
    )
    .await;
    assert_eq!(res.status(), StatusCode::OK);

    // From another site, with no origin at all, or with an opaque one: refused before anything
    // is done, with a message a person understands.
    for (origin, referer) in [
        (Some("https://evil.example"), None),
        (None, Some("https://evil.example/page")),
        (None, None),
        (Some("null"), None),
        (Some("https://evil.example"), Some(own.as_str())),
    ] {
        let res = cookie_write(&app, &user.token, false, origin, referer).await;
        let msg = assert_error(res, StatusCode::FORBIDDEN).await;
        assert_eq!(
            msg,
            pressroom::middleware::MSG_CROSS_SITE,
            "{origin:?} {referer:?}"
        );
    }
    // The refused writes changed nothing.
    let id = mongodb::bson::oid::ObjectId::parse_str(&user.id).unwrap();
    let stored = pressroom::persistence::users::find_by_id(&app.db, id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.consent, Some(true));

    // From another site, these are not affected: reads with the cookie alone (a link from
    // another site still works); writes with a bearer token (browsers do not send one on their
    // own); writes without the cookie (a guest signing up from a form elsewhere gets the
    // ordinary answers).
    let cookie = format!("jwt={}", user.token);
    let cases = [
        ("GET", "/api/auth/check", None, Some(&cookie), None),
        (
            "POST",
            "/api/user/consent",
            Some(&user.token),
            Some(&cookie),
            Some(json!({ "consent": true })),
        ),
        (
            "POST",
            "/api/auth/login",
            None,
            None,
            Some(json!({ "email": user.email, "password": PASSWORD })),
        ),
    ];
    for (method, path, bearer, cookie, body) in cases {
        let mut req = app
            .client
            .request(method.parse().unwrap(), app.url(path))
            .header("origin", "https://evil.example");
        if let Some(token) = bearer {
            req = req.bearer_auth(token);
        }
        if let Some(cookie) = cookie {
            req = req.header("cookie", cookie);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        let res = req.send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{method} {path}");
    }
}

// ── Uploaded images ──────────────────────────────────────────────────────────────────────────

/// A real PNG of `w`×`h` with a text chunk carrying `secret` (metadata that must not survive).
fn png_with_metadata(w: u32, h: u32, secret: &str) -> Vec<u8> {
    let img = image::RgbaImage::from_fn(w, h, |x, y| {
        image::Rgba([(x * 40) as u8, (y * 40) as u8, 128, 255])
    });
    let mut out = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    // Insert a tEXt chunk after IHDR (8-byte signature + 25-byte IHDR chunk).
    let data = format!("Comment\0{secret}");
    let mut chunk = Vec::new();
    chunk.extend_from_slice(&(data.len() as u32).to_be_bytes());
    chunk.extend_from_slice(b"tEXt");
    chunk.extend_from_slice(data.as_bytes());
    let crc = crc32(&chunk[4..]);
    chunk.extend_from_slice(&crc.to_be_bytes());
    out.splice(33..33, chunk);
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

async fn post_with_thumbnail(app: &TestApp, token: &str, thumbnail: &str) -> reqwest::Response {
    app.post_json(
        "/api/post/post-create",
        &json!({
            "title": "Pictures",
            "blocks": [{"id": "p1", "type": "paragraph", "data": {"text": "A picture."}}],
            "thumbnail": thumbnail,
        }),
        Some(token),
    )
    .await
}

#[actix_web::test]
async fn uploaded_images_are_reencoded_without_metadata_and_served_inline_with_their_type() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let secret = "GPS 51.5007N 0.1246W camera serial 12345";
    let original = png_with_metadata(6, 5, secret);
    assert!(original
        .windows(secret.len())
        .any(|w| w == secret.as_bytes()));

    let res = post_with_thumbnail(&app, &user.token, &data_url("image/png", &original)).await;
    assert_eq!(res.status(), StatusCode::CREATED, "{:?}", res.text().await);
    let post = json_of(res).await["post"].clone();
    let thumbnail = post["thumbnail"].as_str().unwrap().to_string();
    assert!(
        thumbnail.starts_with("/media/") && thumbnail.ends_with(".png"),
        "{thumbnail}"
    );

    let res = app.get(&thumbnail, None).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers().get("content-type").unwrap(), "image/png");
    assert_eq!(res.headers().get("content-disposition").unwrap(), "inline");
    assert_eq!(
        res.headers().get("x-content-type-options").unwrap(),
        "nosniff"
    );
    let served = res.bytes().await.unwrap();
    assert!(
        !served.windows(secret.len()).any(|w| w == secret.as_bytes()),
        "the metadata must be gone"
    );
    let decoded = image::load_from_memory(&served).unwrap();
    assert_eq!(
        (decoded.width(), decoded.height()),
        (6, 5),
        "the picture is kept"
    );
}

#[actix_web::test]
async fn an_image_is_judged_by_its_bytes_not_its_declared_type() {
    let app = spawn_app().await;
    let user = app.signup().await;
    // HTML declared as a PNG.
    let html = b"<html><script>alert(document.cookie)</script></html>";
    let res = post_with_thumbnail(&app, &user.token, &data_url("image/png", html)).await;
    let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
    assert!(msg.contains("not a valid PNG"), "{msg}");
    // A PNG signature followed by a script (a polyglot): the signature alone is not enough.
    let mut polyglot = b"\x89PNG\r\n\x1a\n".to_vec();
    polyglot.extend_from_slice(html);
    let res = post_with_thumbnail(&app, &user.token, &data_url("image/png", &polyglot)).await;
    let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
    assert!(msg.contains("not a valid PNG"), "{msg}");
    // A real PNG declared as a JPEG: refused (the declared type is not trusted either way).
    let png = png_with_metadata(2, 2, "x");
    let res = post_with_thumbnail(&app, &user.token, &data_url("image/jpeg", &png)).await;
    assert_error(res, StatusCode::BAD_REQUEST).await;
    // Nothing was stored by the refused uploads.
    let dir = &app.settings.server.media_dir;
    let stored = std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0);
    assert_eq!(stored, 0, "no file kept in {dir:?}");
}

#[actix_web::test]
async fn an_image_with_absurd_dimensions_is_refused_before_decoding() {
    let app = spawn_app().await;
    let user = app.signup().await;
    // A valid PNG header announcing 100,000 × 100,000 pixels (a decompression bomb's shape).
    let mut png = png_with_metadata(1, 1, "x");
    png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let res = post_with_thumbnail(&app, &user.token, &data_url("image/png", &png)).await;
    let msg = assert_error(res, StatusCode::BAD_REQUEST).await;
    assert!(msg.contains("pixels"), "{msg}");
}

// ── Counters after a database outage ─────────────────────────────────────────────────────────

#[actix_web::test]
async fn a_counter_whose_recount_failed_is_repaired_once_the_database_returns() {
    use mongodb::bson::{doc, oid::ObjectId};
    use pressroom::persistence::posts::{self, Counter};
    use std::time::{Duration, Instant};

    let app = spawn_app_with(AppOptions {
        db_proxy: true,
        tweak: Some(Box::new(|s| s.database.server_selection_timeout_ms = 500)),
        ..Default::default()
    })
    .await;
    let author = app.signup().await;
    let post = crate::support::content::publish(&app, &author, "Counted", "text").await;
    let id = ObjectId::parse_str(post["_id"].as_str().unwrap()).unwrap();
    // Two likes are stored (as a like is, before its recount) ...
    for _ in 0..2 {
        app.db
            .database()
            .collection::<mongodb::bson::Document>("likes")
            .insert_one(doc! { "_id": ObjectId::new(), "userId": ObjectId::new(), "postId": id, "createdAt": mongodb::bson::DateTime::now() })
            .await
            .unwrap();
    }
    // ... and the database goes away before the counter follows them.
    let proxy = app.proxy.as_ref().unwrap();
    proxy.set_up(false);
    let result = posts::sync_counter(
        &app.state.db,
        id,
        Counter::Likes,
        "likes",
        doc! { "postId": id },
    )
    .await;
    assert!(
        result.is_err(),
        "the recount cannot succeed without the database"
    );
    proxy.set_up(true);
    // Nobody touches the post again; the counter still comes back to its records.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let count = posts::counter(&app.db, id, Counter::Likes).await.unwrap();
        if count == Some(2) {
            break;
        }
        assert!(Instant::now() < deadline, "the counter stayed at {count:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
