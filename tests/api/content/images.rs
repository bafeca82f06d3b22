//! Uploaded pictures: their size recorded, resized variants (400, 800, 1600 pixels wide, in the
//! original format and WebP) made on upload and served immutably, described in answers and drawn
//! with `srcset`/`sizes`/`width`/`height` in the server's pages; bad pictures refused with nothing
//! stored; older pictures without variants still shown, and given variants by the backfill.

use std::path::PathBuf;

use base64::Engine;
use mongodb::bson::doc;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::{create_post, get_ok, paragraph};
use crate::support::*;

fn media_dir(app: &TestApp) -> PathBuf {
    app.settings.server.media_dir.clone()
}

/// Files in the media directory (none when it does not exist).
fn media_files(app: &TestApp) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(media_dir(app))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// A `w`×`h` picture with some detail (a gradient and stripes), encoded as PNG (with alpha) or
/// JPEG.
fn picture(w: u32, h: u32, format: image::ImageFormat) -> Vec<u8> {
    let img = image::RgbaImage::from_fn(w, h, |x, y| {
        image::Rgba([
            (x * 255 / w) as u8,
            (y * 255 / h) as u8,
            if (x / 16) % 2 == 0 { 40 } else { 200 },
            if format == image::ImageFormat::Png {
                220
            } else {
                255
            },
        ])
    });
    let pic = image::DynamicImage::ImageRgba8(img);
    let pic = if format == image::ImageFormat::Jpeg {
        image::DynamicImage::ImageRgb8(pic.to_rgb8())
    } else {
        pic
    };
    let mut out = Vec::new();
    pic.write_to(&mut std::io::Cursor::new(&mut out), format)
        .unwrap();
    out
}

/// Fetches every variant of an image description and checks it is what it says: served with
/// its type and an immutable cache, decoding to its stated size.
async fn check_variants(app: &TestApp, meta: &Value) -> Vec<(u32, String)> {
    let mut seen = Vec::new();
    for v in meta["variants"].as_array().unwrap() {
        let src = v["src"].as_str().unwrap();
        let res = app.get(src, None).await;
        assert_eq!(res.status(), StatusCode::OK, "{src}");
        let ct = res.headers()["content-type"].to_str().unwrap().to_string();
        assert_eq!(ct, v["type"].as_str().unwrap(), "{src}");
        let cache = res.headers()["cache-control"].to_str().unwrap().to_string();
        assert!(
            cache.contains("immutable") && cache.contains("max-age=31536000"),
            "{src}: {cache}"
        );
        let bytes = res.bytes().await.unwrap();
        let format = match ct.as_str() {
            "image/webp" => image::ImageFormat::WebP,
            "image/png" => image::ImageFormat::Png,
            "image/jpeg" => image::ImageFormat::Jpeg,
            other => panic!("variant type {other}"),
        };
        let decoded = image::load_from_memory_with_format(&bytes, format)
            .unwrap_or_else(|e| panic!("{src} does not decode: {e}"));
        assert_eq!(
            (decoded.width(), decoded.height()),
            (
                v["width"].as_u64().unwrap() as u32,
                v["height"].as_u64().unwrap() as u32
            ),
            "{src}"
        );
        seen.push((decoded.width(), ct));
    }
    seen
}

#[actix_web::test]
async fn uploads_get_their_size_and_resized_variants_in_their_format_and_webp() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let png = picture(2000, 1000, image::ImageFormat::Png);
    let jpeg = picture(1200, 900, image::ImageFormat::Jpeg);
    let post = create_post(
        &app,
        &user.token,
        json!({
            "title": "Pictures",
            "thumbnail": data_url("image/png", &png),
            "blocks": [
                paragraph("p", "Text before the picture."),
                { "id": "i1", "type": "image", "data": { "file": { "url": data_url("image/jpeg", &jpeg) }, "caption": "A photo" } },
                { "id": "i2", "type": "image", "data": { "file": { "url": "https://example.com/a.png" } } },
            ],
        }),
    )
    .await;

    // The thumbnail: 2000×1000 PNG, variants 400/800/1600 in PNG and WebP (never 2000 wide).
    let thumb = post["thumbnail"].as_str().unwrap();
    let meta = &post["thumbnailImage"];
    assert_eq!(meta["src"], thumb);
    assert_eq!(
        (meta["width"].clone(), meta["height"].clone()),
        (json!(2000), json!(1000))
    );
    assert_eq!(meta["type"], "image/png");
    let seen = check_variants(&app, meta).await;
    assert_eq!(
        seen,
        vec![
            (400, "image/png".to_string()),
            (400, "image/webp".to_string()),
            (800, "image/png".to_string()),
            (800, "image/webp".to_string()),
            (1600, "image/png".to_string()),
            (1600, "image/webp".to_string()),
        ]
    );
    assert_eq!(meta["variants"][0]["height"], 200);

    // The image block: 1200×900 JPEG, variants 400 and 800 in JPEG and WebP, and a WebP of the
    // full size; its size and variants beside its address.
    let file = &post["blocks"][1]["data"]["file"];
    assert_eq!(
        (file["width"].clone(), file["height"].clone()),
        (json!(1200), json!(900))
    );
    let block_meta = json!({ "variants": file["variants"].clone() });
    let seen = check_variants(&app, &block_meta).await;
    assert_eq!(
        seen,
        vec![
            (400, "image/jpeg".to_string()),
            (400, "image/webp".to_string()),
            (800, "image/jpeg".to_string()),
            (800, "image/webp".to_string()),
            (1200, "image/webp".to_string()),
        ]
    );
    // A WebP variant is smaller than the same width in the original format.
    let v400: Vec<usize> =
        futures_util::future::join_all(file["variants"].as_array().unwrap()[..2].iter().map(
            |v| async {
                app.get(v["src"].as_str().unwrap(), None)
                    .await
                    .bytes()
                    .await
                    .unwrap()
                    .len()
            },
        ))
        .await;
    assert!(v400[1] < v400[0], "webp {} vs jpeg {}", v400[1], v400[0]);
    // Images from the web have no size to tell.
    assert!(post["blocks"][2]["data"]["file"].get("width").is_none());

    // Every answer carries the same description: the post, the lists.
    let slug = post["slug"].as_str().unwrap();
    let one = get_ok(&app, &format!("/api/post/public/{slug}"), None).await;
    assert_eq!(one["post"]["thumbnailImage"], post["thumbnailImage"]);
    assert_eq!(one["post"]["blocks"][1]["data"]["file"], *file);
    let list = get_ok(&app, "/api/post/public/posts", None).await;
    let card = list["posts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["slug"] == slug)
        .unwrap();
    assert_eq!(card["thumbnailImage"], post["thumbnailImage"]);

    // An edit that keeps the stored addresses (what the editor sends back) keeps the sizes,
    // whatever the client claims about them.
    let mut blocks = post["blocks"].clone();
    blocks[1]["data"]["file"]["width"] = json!(5);
    blocks[1]["data"]["file"]["variants"] = json!([{ "src": "https://evil.example/x.webp", "width": 1, "height": 1, "type": "image/webp" }]);
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "title": "Pictures", "thumbnail": thumb, "blocks": blocks }),
            Some(&user.token),
        )
        .await;
    let status = res.status();
    let edited = json_of(res).await;
    assert_eq!(status, StatusCode::OK, "{edited}");
    let edited = if edited.get("post").is_some() {
        edited["post"].clone()
    } else {
        edited
    };
    assert_eq!(edited["thumbnailImage"], post["thumbnailImage"]);
    assert_eq!(edited["blocks"][1]["data"]["file"], *file);

    // Deleting the post removes the originals and their variants.
    let res = app
        .delete(
            &format!("/api/post/delete/{}", post["_id"].as_str().unwrap()),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(media_files(&app), Vec::<String>::new());
    for v in meta["variants"].as_array().unwrap() {
        let res = app.get(v["src"].as_str().unwrap(), None).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    }
}

#[actix_web::test]
async fn the_post_page_draws_pictures_with_their_size_and_variants() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let png = picture(1800, 1200, image::ImageFormat::Png);
    let jpeg = picture(900, 600, image::ImageFormat::Jpeg);
    let post = create_post(
        &app,
        &user.token,
        json!({
            "title": "Drawn",
            "thumbnail": data_url("image/png", &png),
            "blocks": [
                paragraph("p", "Words."),
                { "id": "i1", "type": "image", "data": { "file": { "url": data_url("image/jpeg", &jpeg) }, "caption": "Below" } },
            ],
        }),
    )
    .await;
    let thumb = post["thumbnail"].as_str().unwrap();
    let hash = &thumb["/media/".len()..thumb.len() - ".png".len()];
    let html = app
        .get(&format!("/post/{}", post["slug"].as_str().unwrap()), None)
        .await
        .text()
        .await
        .unwrap();
    let figure = html
        .split("<figure class=\"thumbnail\">")
        .nth(1)
        .and_then(|r| r.split("</figure>").next())
        .unwrap_or_else(|| panic!("no thumbnail figure: {html}"));
    assert!(
        figure.starts_with(&format!(
            "<picture><source type=\"image/webp\" srcset=\"/media/{hash}-400.webp 400w, /media/{hash}-800.webp 800w, /media/{hash}-1600.webp 1600w\" sizes=\""
        )),
        "{figure}"
    );
    assert!(
        figure.contains(&format!(
            "srcset=\"/media/{hash}-400.png 400w, /media/{hash}-800.png 800w, /media/{hash}-1600.png 1600w, {thumb} 1800w\""
        )),
        "{figure}"
    );
    assert!(
        figure.contains(" width=\"1800\" height=\"1200\" fetchpriority=\"high\" loading=\"eager\" decoding=\"async\">"),
        "{figure}"
    );
    assert!(!figure.contains("lazy"), "{figure}");
    // The article's picture: lazy, with its size, a WebP source and its JPEG variants.
    let block = html
        .split("<figure class=\"image\">")
        .nth(1)
        .and_then(|r| r.split("</figure>").next())
        .unwrap_or_else(|| panic!("no image figure: {html}"));
    assert!(
        block.starts_with("<picture><source type=\"image/webp\""),
        "{block}"
    );
    assert!(block.contains("-900.webp 900w\""), "{block}");
    assert!(block.contains("-400.jpg 400w, /media/"), "{block}");
    assert!(
        block.contains(" width=\"900\" height=\"600\" loading=\"lazy\" decoding=\"async\">"),
        "{block}"
    );
    // Every <img> on the page has its size.
    for img in html.split("<img ").skip(1) {
        let tag = img.split('>').next().unwrap();
        assert!(
            tag.contains(" width=\"") && tag.contains(" height=\""),
            "{tag}"
        );
    }
}

#[actix_web::test]
async fn bad_pictures_are_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let good = picture(640, 480, image::ImageFormat::Png);
    // A PNG signature followed by garbage.
    let mut not_image = b"\x89PNG\r\n\x1a\n".to_vec();
    not_image.extend_from_slice(&[7u8; 300]);
    // A real PNG cut in half.
    let truncated = good[..good.len() / 2].to_vec();
    // A JPEG cut after its headers.
    let jpeg = picture(640, 480, image::ImageFormat::Jpeg);
    let truncated_jpeg = jpeg[..600.min(jpeg.len())].to_vec();
    // A decompression bomb: 48 million pixels of nothing, a few tens of kilobytes compressed.
    let bomb = {
        let img = image::GrayImage::new(8000, 6000);
        let mut out = Vec::new();
        image::DynamicImage::ImageLuma8(img)
            .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        assert!(out.len() < 1_000_000, "bomb is {} bytes", out.len());
        out
    };
    // A picture 20,000 pixels wide (one row): more than a side may be.
    let too_wide = picture(20_000, 1, image::ImageFormat::Png);
    let cases: Vec<(&str, String, StatusCode, &str)> = vec![
        (
            "not an image",
            data_url("image/png", &not_image),
            StatusCode::BAD_REQUEST,
            "Image data is not a valid PNG file",
        ),
        (
            "text labelled as a picture",
            data_url("image/png", b"hello, world"),
            StatusCode::BAD_REQUEST,
            "Image data is not a valid PNG file",
        ),
        (
            "truncated PNG",
            data_url("image/png", &truncated),
            StatusCode::BAD_REQUEST,
            "Image data is not a valid PNG file",
        ),
        (
            "truncated JPEG",
            data_url("image/jpeg", &truncated_jpeg),
            StatusCode::BAD_REQUEST,
            "Image data is not a valid JPEG file",
        ),
        (
            "decompression bomb",
            data_url("image/png", &bomb),
            StatusCode::BAD_REQUEST,
            "Image has too many pixels (at most 40 million, and 16384 pixels a side)",
        ),
        (
            "too wide",
            data_url("image/png", &too_wide),
            StatusCode::BAD_REQUEST,
            "Image has too many pixels (at most 40 million, and 16384 pixels a side)",
        ),
        (
            "svg",
            data_url("image/svg+xml", b"<svg/>"),
            StatusCode::BAD_REQUEST,
            "Unsupported image type 'image/svg+xml'; use PNG, JPEG, GIF or WebP",
        ),
    ];
    for (case, url, status, message) in cases {
        // As the thumbnail, and as the second picture after a good one (which must not be
        // stored either).
        for body in [
            json!({ "title": "Bad", "thumbnail": url, "blocks": [paragraph("p", "x")] }),
            json!({ "title": "Bad", "thumbnail": data_url("image/png", &good), "blocks": [
                paragraph("p", "x"),
                { "id": "i", "type": "image", "data": { "file": { "url": url } } },
            ] }),
        ] {
            let res = app
                .post_json("/api/post/post-create", &body, Some(&user.token))
                .await;
            let got = assert_error(res, status).await;
            assert_eq!(got, message, "case {case}");
            assert_eq!(media_files(&app), Vec::<String>::new(), "case {case}");
        }
    }
    let posts = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("posts")
        .count_documents(doc! {})
        .await
        .unwrap();
    assert_eq!(posts, 0);
    let media = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("media")
        .count_documents(doc! {})
        .await
        .unwrap();
    assert_eq!(media, 0);
    // Variant names are only served for files the store made.
    for path in [
        "/media/0123456789abcdef0123456789abcdef-400.webp",
        "/media/0123456789abcdef0123456789abcdef-400.gif",
        "/media/0123456789abcdef0123456789abcdef-0400.webp",
    ] {
        assert_eq!(
            app.get(path, None).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
}

async fn page_html(app: &TestApp, slug: &str) -> String {
    app.get(&format!("/post/{slug}"), None)
        .await
        .text()
        .await
        .unwrap()
}

#[actix_web::test]
async fn pictures_stored_before_variants_still_show_and_the_backfill_makes_them() {
    let app = spawn_app().await;
    let user = app.signup().await;
    let png = picture(1000, 800, image::ImageFormat::Png);
    let post = create_post(
        &app,
        &user.token,
        json!({
            "title": "Old picture",
            "thumbnail": data_url("image/png", &png),
            "blocks": [
                { "id": "i", "type": "image", "data": { "file": { "url": data_url("image/png", &png) }, "caption": "" } },
                paragraph("p", "x"),
            ],
        }),
    )
    .await;
    let thumb = post["thumbnail"].as_str().unwrap().to_string();
    assert_eq!(
        post["blocks"][0]["data"]["file"]["url"],
        thumb.as_str(),
        "one stored file for both"
    );
    // As a post saved before variants were made: no variant files, no description.
    let dir = media_dir(&app);
    for name in media_files(&app) {
        if name.contains('-') {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
    }
    assert_eq!(media_files(&app).len(), 1);
    let id = mongodb::bson::oid::ObjectId::parse_str(post["_id"].as_str().unwrap()).unwrap();
    app.db
        .database()
        .collection::<mongodb::bson::Document>("posts")
        .update_one(
            doc! { "_id": id },
            doc! { "$unset": { "thumbnailImage": "" } },
        )
        .await
        .unwrap();
    let posts = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("posts");
    let stored = posts.find_one(doc! { "_id": id }).await.unwrap().unwrap();
    let mut blocks = stored.get_array("blocks").unwrap().clone();
    let image = blocks[0].as_document_mut().unwrap();
    image
        .get_document_mut("data")
        .unwrap()
        .insert("file", doc! { "url": &thumb });
    posts
        .update_one(doc! { "_id": id }, doc! { "$set": { "blocks": blocks } })
        .await
        .unwrap();

    // The page still draws it, with its size read from the file.
    let slug = post["slug"].as_str().unwrap().to_string();
    let html = page_html(&app, &slug).await;
    assert!(
        html.contains(&format!("<img src=\"{thumb}\" alt=\"Old picture\" width=\"1000\" height=\"800\" fetchpriority=\"high\"")),
        "{html}"
    );
    assert!(app.get(&thumb, None).await.status().is_success());

    // The backfill makes the missing variants (and is a no-op the second time).
    let report = pressroom::persistence::media::backfill_variants(&dir)
        .await
        .unwrap();
    assert_eq!((report.files, report.written, report.failed), (1, 5, 0));
    let again = pressroom::persistence::media::backfill_variants(&dir)
        .await
        .unwrap();
    assert_eq!(again.written, 0);

    // The posts then record the pictures' sizes and variants (the thumbnail's and the image
    // block's), so the app draws the same `srcset` as the page; a second run changes nothing.
    let recorded = pressroom::persistence::media::record_post_images(&app.db, &dir)
        .await
        .unwrap();
    assert_eq!(recorded.updated, 1, "{recorded:?}");
    assert!(recorded.posts >= 1);
    let again = pressroom::persistence::media::record_post_images(&app.db, &dir)
        .await
        .unwrap();
    assert_eq!(again.updated, 0, "{again:?}");
    let one = get_ok(&app, &format!("/api/post/public/{slug}"), None).await;
    assert_eq!(one["post"]["thumbnailImage"]["width"], 1000, "{one}");
    assert_eq!(
        check_variants(&app, &one["post"]["thumbnailImage"])
            .await
            .len(),
        5
    );
    let file = &one["post"]["blocks"][0]["data"]["file"];
    assert_eq!(
        (file["url"].as_str(), &file["width"], &file["height"]),
        (Some(thumb.as_str()), &json!(1000), &json!(800)),
        "{file}"
    );
    assert_eq!(file["variants"].as_array().map(Vec::len), Some(5), "{file}");

    // Saving the post again records the description in its answers, and its page (rendered
    // once per version of the post) draws the variants.
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "title": "Old picture", "thumbnail": thumb }),
            Some(&user.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let html = page_html(&app, &slug).await;
    assert!(
        html.contains("<picture><source type=\"image/webp\""),
        "{html}"
    );
    assert!(html.contains("-1000.webp 1000w\""), "{html}");
    let one = get_ok(&app, &format!("/api/post/public/{slug}"), None).await;
    let meta = &one["post"]["thumbnailImage"];
    assert_eq!(meta["width"], 1000);
    assert_eq!(check_variants(&app, meta).await.len(), 5);
}
