//! Bytes on the wire: the build's precompressed copies of hashed assets (Brotli, else gzip)
//! served as they are with a year-long immutable cache, HTML and JSON compressed on the fly with
//! Brotli beside gzip, and pages validated (`no-cache` with an `ETag`).

use std::io::Read;
use std::path::PathBuf;

use reqwest::StatusCode;

use crate::support::content::{create_post, post_body};
use crate::support::*;

const SCRIPT: &str = "export const greeting = 'hello, reader';\n";

/// A built app of one asset, with the copies the build writes beside it.
fn web_dist() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dist-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><html><head><title>Pressroom</title></head><body><div id=\"root\"></div></body></html>",
    )
    .unwrap();
    let asset = dir.join("assets").join("app-Ab12Cd34.js");
    std::fs::write(&asset, SCRIPT.repeat(50)).unwrap();
    // Distinct bodies, so the test knows which copy it was sent.
    std::fs::write(asset.with_extension("js.br"), b"brotli copy").unwrap();
    std::fs::write(asset.with_extension("js.gz"), b"gzip copy").unwrap();
    dir
}

async fn app_with_dist() -> TestApp {
    let dist = web_dist();
    spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s| s.server.static_dir = dist)),
        ..AppOptions::default()
    })
    .await
}

async fn get_with(app: &TestApp, path: &str, accept: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .header("Accept-Encoding", accept)
        .send()
        .await
        .unwrap()
}

#[actix_web::test]
async fn hashed_assets_are_sent_precompressed_and_immutable() {
    let app = app_with_dist().await;
    let path = "/assets/app-Ab12Cd34.js";
    for (accept, encoding, body) in [
        ("gzip, deflate, br", Some("br"), b"brotli copy".to_vec()),
        ("gzip", Some("gzip"), b"gzip copy".to_vec()),
        ("br;q=0, gzip", Some("gzip"), b"gzip copy".to_vec()),
        ("identity", None, SCRIPT.repeat(50).into_bytes()),
    ] {
        let res = get_with(&app, path, accept).await;
        assert_eq!(res.status(), StatusCode::OK, "{accept}");
        let headers = res.headers().clone();
        assert_eq!(
            headers.get("content-encoding").map(|v| v.to_str().unwrap()),
            encoding,
            "{accept}"
        );
        assert!(headers["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript"));
        assert_eq!(
            headers["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(res.bytes().await.unwrap().to_vec(), body, "{accept}");
    }
    // No copy of a missing file, and no way out of the folder.
    assert_eq!(
        get_with(&app, "/assets/missing-1234.js", "br")
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    for path in ["/assets/..%2findex.html", "/assets/..%2f..%2fCargo.toml"] {
        let res = get_with(&app, path, "identity").await;
        assert_ne!(res.status(), StatusCode::OK, "{path}");
    }
}

#[actix_web::test]
async fn html_and_json_are_compressed_with_brotli_when_asked() {
    let app = app_with_dist().await;
    let author = app.signup().await;
    let post = create_post(
        &app,
        &author.token,
        post_body("Compressed", &"A paragraph worth compressing. ".repeat(40)),
    )
    .await;
    let page = format!("/post/{}", post["slug"].as_str().unwrap());
    for path in ["/api/public/posts", page.as_str()] {
        let plain = get_with(&app, path, "identity").await;
        assert_eq!(plain.status(), StatusCode::OK);
        assert!(plain.headers().get("content-encoding").is_none());
        let plain = plain.bytes().await.unwrap();

        let res = get_with(&app, path, "gzip, br").await;
        assert_eq!(res.headers()["content-encoding"], "br", "{path}");
        let compressed = res.bytes().await.unwrap();
        assert!(compressed.len() < plain.len() / 2, "{path}");
        let mut decoded = Vec::new();
        brotli::Decompressor::new(&compressed[..], 4096)
            .read_to_end(&mut decoded)
            .unwrap();
        assert_eq!(decoded, plain.to_vec(), "{path}");

        let res = get_with(&app, path, "gzip").await;
        assert_eq!(res.headers()["content-encoding"], "gzip", "{path}");
    }
    // The page is validated on every visit.
    let res = app.get(&page, None).await;
    assert_eq!(res.headers()["cache-control"], "no-cache");
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    let again = app
        .client
        .get(app.url(&page))
        .header("If-None-Match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
}
