//! Imports: the real WordPress export of `../shared/fixtures/import/` previewed, then written
//! once (a second import of the same file writes nothing; another writer gets their own
//! copies), its featured image fetched once from a loopback server and stored; a feed read over
//! loopback, then read again for its new entry only; bad uploads refused with a 400 that names
//! the problem and nothing stored; the production address rule sends zero requests to loopback.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::*;

/// A loopback site: a PNG at every `.png`/`.jpg` address, and the feed set in `feed`.
#[derive(Clone, Default)]
struct Site {
    hits: Arc<AtomicUsize>,
    feed: Arc<Mutex<String>>,
}

fn png() -> Vec<u8> {
    let img = image::RgbaImage::from_fn(48, 32, |x, y| {
        image::Rgba([x as u8 * 5, y as u8 * 7, 90, 255])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgba8(img)
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    out.into_inner()
}

async fn serve(req: HttpRequest, site: web::Data<Site>) -> HttpResponse {
    site.hits.fetch_add(1, Ordering::SeqCst);
    if req.path().starts_with("/feed") {
        return HttpResponse::Ok()
            .content_type("application/atom+xml")
            .body(site.feed.lock().unwrap().clone());
    }
    HttpResponse::Ok().content_type("image/png").body(png())
}

impl Site {
    fn start() -> (Site, String) {
        let site = Site::default();
        let data = web::Data::new(site.clone());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .default_service(web::to(serve))
        })
        .workers(1)
        .bind(("127.0.0.1", 0))
        .unwrap();
        let port = server.addrs()[0].port();
        actix_web::rt::spawn(server.run());
        (site, format!("127.0.0.1:{port}"))
    }
}

fn importing_app(loopback: bool) -> AppOptions {
    AppOptions {
        tweak: Some(Box::new(move |s: &mut pressroom::config::Settings| {
            s.import.allow_loopback = loopback;
            s.import.poll_ms = 100;
        })),
        ..Default::default()
    }
}

fn fixture(relative: &str) -> std::path::PathBuf {
    std::env::var_os("PRESSROOM_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures")
        })
        .join("import")
        .join(relative)
}

/// The real WordPress export with its images served by `host` instead of Unsplash.
fn wordpress_export(host: &str) -> Vec<u8> {
    std::fs::read_to_string(fixture("wordpress/sample.xml"))
        .unwrap()
        .replace("https://images.unsplash.com/", &format!("http://{host}/"))
        .into_bytes()
}

async fn upload(
    app: &TestApp,
    user: &TestUser,
    source: &str,
    name: &str,
    bytes: Vec<u8>,
) -> reqwest::Response {
    let form = reqwest::multipart::Form::new()
        .text("source", source.to_string())
        .part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
        );
    app.client
        .post(app.url("/api/import"))
        .bearer_auth(&user.token)
        .multipart(form)
        .send()
        .await
        .expect("request")
}

async fn start(app: &TestApp, user: &TestUser, source: &str, name: &str, bytes: Vec<u8>) -> String {
    let res = upload(app, user, source, name, bytes).await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(body["status"], "parsing");
    body["id"].as_str().unwrap().to_string()
}

/// Waits until the import reaches `status`.
async fn until(app: &TestApp, user: &TestUser, id: &str, status: &str) -> Value {
    let mut last = Value::Null;
    for _ in 0..300 {
        last = json_of(
            app.get(&format!("/api/import/{id}"), Some(&user.token))
                .await,
        )
        .await;
        if last["status"] == status {
            return last;
        }
        assert!(
            !["failed", "done", "cancelled"].contains(&last["status"].as_str().unwrap_or("")),
            "the import ended as {last}, not {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the import never became {status}: {last}");
}

async fn confirm(app: &TestApp, user: &TestUser, id: &str, body: Value) -> Value {
    let res = app
        .post_json(
            &format!("/api/import/{id}/confirm"),
            &body,
            Some(&user.token),
        )
        .await;
    let status = res.status();
    let answer = json_of(res).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{answer}");
    until(app, user, id, "done").await
}

async fn posts_of(app: &TestApp, user: &TestUser) -> Vec<Value> {
    let body = json_of(
        app.get(
            &format!("/api/post/user/{}/posts?limit=50", user.id),
            Some(&user.token),
        )
        .await,
    )
    .await;
    body["posts"].as_array().cloned().unwrap_or_default()
}

fn titled<'a>(posts: &'a [Value], title: &str) -> &'a Value {
    posts
        .iter()
        .find(|p| p["title"] == title)
        .unwrap_or_else(|| panic!("no post \"{title}\" among {posts:?}"))
}

#[actix_web::test]
async fn a_wordpress_export_is_previewed_then_imported_once_with_its_featured_image_home() {
    let (site, host) = Site::start();
    let app = spawn_app_with(importing_app(true)).await;
    let writer = app.signup().await;
    let export = wordpress_export(&host);

    let id = start(
        &app,
        &writer,
        "wordpress",
        "acme.WordPress.xml",
        export.clone(),
    )
    .await;
    let preview = until(&app, &writer, &id, "preview").await;
    // What the file holds: three posts (one a draft), one page, a custom type skipped; the two
    // featured images.
    assert_eq!(
        preview["counts"],
        json!({ "posts": 3, "drafts": 1, "scheduled": 0, "pages": 1, "skipped": 1, "images": 2, "comments": 0 }),
        "{preview}"
    );
    let warnings = preview["warnings"].to_string();
    assert!(warnings.contains("My CPT Post"), "{warnings}");
    let sample = preview["sample"].as_array().unwrap();
    assert_eq!(sample.len(), 3);
    assert_eq!(sample[0]["title"], "Draft Post");
    assert_eq!(sample[0]["status"], "draft");
    assert_eq!(sample[1]["blocks"][0]["type"], "header");
    // Nothing is written before the writer confirms, and no image was fetched.
    assert!(posts_of(&app, &writer).await.is_empty());
    assert_eq!(site.hits.load(Ordering::SeqCst), 0);

    let done = confirm(&app, &writer, &id, json!({ "keepStatus": true })).await;
    assert_eq!(done["report"]["created"], 4, "{done}");
    assert_eq!(done["report"]["skipped"], 0);
    assert_eq!(done["report"]["imagesFetched"], 2);
    // Both posts use the same picture: fetched once.
    assert_eq!(site.hits.load(Ordering::SeqCst), 1);
    let posts = posts_of(&app, &writer).await;
    assert_eq!(posts.len(), 4);
    let basic = titled(&posts, "Basic Post");
    assert_eq!(basic["status"], "published");
    assert_eq!(basic["publishedAt"], "2013-06-07T03:00:44Z");
    assert_eq!(
        basic["importedFrom"],
        json!({ "source": "wordpress", "sourceId": "4", "url": "/blog/basic-post.html" })
    );
    let thumbnail = basic["thumbnail"].as_str().unwrap();
    assert!(thumbnail.starts_with("/media/"), "{thumbnail}");
    assert_eq!(basic["thumbnailImage"]["width"], 48);
    let picture = app.get(thumbnail, None).await;
    assert_eq!(picture.status(), StatusCode::OK);
    assert_eq!(titled(&posts, "Draft Post")["status"], "draft");
    assert_eq!(titled(&posts, "Services")["visibility"], "Unlisted");
    let tags = titled(&posts, "Another Post")["tags"].to_string();
    assert!(tags.contains("programming"), "{tags}");

    // A worker that stopped halfway (a crash, a restart) leaves the import claimed until its
    // lease runs out; the next worker reads the file again and writes nothing twice.
    let oid = mongodb::bson::oid::ObjectId::parse_str(&id).unwrap();
    app.db
        .database()
        .collection::<mongodb::bson::Document>("imports")
        .update_one(
            mongodb::bson::doc! { "_id": oid },
            mongodb::bson::doc! { "$set": { "status": "importing", "leaseUntil": mongodb::bson::DateTime::from_millis(0) } },
        )
        .await
        .unwrap();
    std::fs::create_dir_all(app.import_dir().join(&id)).unwrap();
    std::fs::write(app.import_dir().join(&id).join("upload"), &export).unwrap();
    let resumed = until(&app, &writer, &id, "done").await;
    assert_eq!(resumed["report"]["created"], 0, "{resumed}");
    assert_eq!(resumed["report"]["skipped"], 4);
    assert_eq!(posts_of(&app, &writer).await.len(), 4);

    // The same file again: the preview says so, and nothing is written twice.
    let again = start(
        &app,
        &writer,
        "wordpress",
        "acme.WordPress.xml",
        export.clone(),
    )
    .await;
    let preview = until(&app, &writer, &again, "preview").await;
    assert!(
        preview["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with("4 of these were imported before"),
        "{preview}"
    );
    let done = confirm(&app, &writer, &again, json!({})).await;
    assert_eq!(done["report"]["created"], 0, "{done}");
    assert_eq!(done["report"]["skipped"], 4);
    assert_eq!(posts_of(&app, &writer).await.len(), 4);

    // Another writer importing the same file gets their own copies, as drafts by default; this
    // time the file has comments (as WordPress writes them: a thread of two and one held for
    // moderation, which is not imported), and the writer imports them.
    let other = app.signup().await;
    let with_comments = String::from_utf8(export).unwrap().replacen(
        "<wp:comment_status>open</wp:comment_status>\n      <wp:postmeta>",
        &format!(
            "<wp:comment_status>open</wp:comment_status>\n{}\n      <wp:postmeta>",
            COMMENTS
        ),
        1,
    );
    let theirs = start(
        &app,
        &other,
        "wordpress",
        "acme.WordPress.xml",
        with_comments.into_bytes(),
    )
    .await;
    let preview = until(&app, &other, &theirs, "preview").await;
    assert_eq!(preview["counts"]["comments"], 2, "{preview}");
    assert_error(
        app.post_json(
            &format!("/api/import/{theirs}/confirm"),
            &json!({ "comments": "some" }),
            Some(&other.token),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    let done = confirm(&app, &other, &theirs, json!({ "comments": "import" })).await;
    assert_eq!(done["report"]["created"], 4, "{done}");
    assert_eq!(done["report"]["comments"], 2, "{done}");
    let copies = posts_of(&app, &other).await;
    let commented = titled(&copies, "Basic Post")["_id"]
        .as_str()
        .unwrap()
        .to_string();
    let thread = json_of(
        app.get(
            &format!("/api/comment/all-comments/{commented}"),
            Some(&other.token),
        )
        .await,
    )
    .await;
    let text = thread.to_string();
    assert!(
        text.contains("Luna Lovegood") && text.contains("Neville"),
        "{thread}"
    );
    assert!(!text.contains("Buy cheap"), "{thread}");
    assert!(copies.iter().all(|p| p["status"] == "draft"), "{copies:?}");
    assert_ne!(titled(&copies, "Basic Post")["slug"], basic["slug"]);

    // The list, and the removal of what an import wrote.
    let list = json_of(app.get("/api/import", Some(&writer.token)).await).await;
    assert_eq!(list["imports"].as_array().unwrap().len(), 2);
    assert!(list["imports"][0].get("sample").is_none());
    let removed = json_of(
        app.delete(&format!("/api/import/{id}/posts"), Some(&writer.token))
            .await,
    )
    .await;
    assert_eq!(removed["removed"], 4);
    assert!(posts_of(&app, &writer).await.is_empty());
    // An address that is no import id is a 400 that says so; someone else's import is not found.
    let msg = assert_error(
        app.get("/api/import/not-an-id", Some(&writer.token)).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(msg.contains("import id"), "{msg}");
    // Someone else's import is not found.
    assert_error(
        app.get(&format!("/api/import/{id}"), Some(&other.token))
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
}

/// Comments as a WordPress export holds them: a thread of two, and one held for moderation.
const COMMENTS: &str = r#"      <wp:comment>
        <wp:comment_id>7</wp:comment_id>
        <wp:comment_author><![CDATA[Luna Lovegood]]></wp:comment_author>
        <wp:comment_author_url>https://quibbler.example</wp:comment_author_url>
        <wp:comment_date_gmt>2013-06-08 10:00:00</wp:comment_date_gmt>
        <wp:comment_content><![CDATA[What a <em>lovely</em> post.]]></wp:comment_content>
        <wp:comment_approved>1</wp:comment_approved>
        <wp:comment_parent>0</wp:comment_parent>
      </wp:comment>
      <wp:comment>
        <wp:comment_id>8</wp:comment_id>
        <wp:comment_author><![CDATA[Neville Longbottom]]></wp:comment_author>
        <wp:comment_date_gmt>2013-06-08 11:00:00</wp:comment_date_gmt>
        <wp:comment_content><![CDATA[Agreed!]]></wp:comment_content>
        <wp:comment_approved>1</wp:comment_approved>
        <wp:comment_parent>7</wp:comment_parent>
      </wp:comment>
      <wp:comment>
        <wp:comment_id>9</wp:comment_id>
        <wp:comment_author><![CDATA[Spammer]]></wp:comment_author>
        <wp:comment_content><![CDATA[Buy cheap things]]></wp:comment_content>
        <wp:comment_approved>0</wp:comment_approved>
        <wp:comment_parent>0</wp:comment_parent>
      </wp:comment>"#;

#[actix_web::test]
async fn bad_uploads_are_refused_with_what_is_wrong_and_nothing_is_kept() {
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.import.allow_loopback = true;
            s.import.poll_ms = 100;
            s.import.max_upload_bytes = 2 * 1024 * 1024;
        })),
        ..Default::default()
    })
    .await;
    let writer = app.signup().await;
    let msg = assert_error(
        upload(&app, &writer, "blogger", "x.xml", b"<rss/>".to_vec()).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(
        msg,
        "Choose what to import from: wordpress, medium, substack, ghost, pressroom or feed."
    );
    let msg = assert_error(
        upload(&app, &writer, "wordpress", "x.xml", Vec::new()).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(msg, "The file is empty.");
    // Malformed XML: the line is named.
    let broken = "<?xml version=\"1.0\"?>\n<rss xmlns:wp=\"http://wordpress.org/export/1.2/\">\n<channel>\n<item><title>A</title></wrong>\n</channel></rss>\n";
    let msg = assert_error(
        upload(&app, &writer, "wordpress", "x.xml", broken.into()).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(msg.contains("line 4"), "{msg}");
    let msg = assert_error(
        upload(&app, &writer, "ghost", "g.json", b"{\"db\": [".to_vec()).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(msg.contains("line 1"), "{msg}");
    // An archive reaching out of its folder, and something that is no archive.
    let mut zip_bytes = std::io::Cursor::new(Vec::new());
    {
        use std::io::Write;
        let mut zip = zip::ZipWriter::new(&mut zip_bytes);
        zip.start_file(
            "../../etc/evil.html",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        zip.write_all(b"<p>x</p>").unwrap();
        zip.finish().unwrap();
    }
    let msg = assert_error(
        upload(&app, &writer, "medium", "m.zip", zip_bytes.into_inner()).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(msg.contains("outside its folder"), "{msg}");
    let msg = assert_error(
        upload(
            &app,
            &writer,
            "substack",
            "s.zip",
            b"PK not really".to_vec(),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(msg, "This is not a zip archive.");
    // Larger than the limit (2 MB here, 200 MB by default): a 413, nothing kept.
    let big = vec![b'x'; 3 * 1024 * 1024];
    let msg = assert_error(
        upload(&app, &writer, "wordpress", "big.xml", big).await,
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    assert_eq!(msg, "The file is larger than the 2 MB an import can be.");
    assert_eq!(
        std::fs::read_dir(app.import_dir())
            .map(|d| d.count())
            .unwrap_or(0),
        0
    );
    // A feed needs an address.
    let msg = assert_error(
        app.post_json(
            "/api/import",
            &json!({ "source": "feed", "url": "ftp://x" }),
            Some(&writer.token),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(msg, "Give the feed's address (http or https).");
    // None of it was kept.
    let list = json_of(app.get("/api/import", Some(&writer.token)).await).await;
    assert_eq!(list["imports"], json!([]));
    // A confirmation is for a preview only; a cancelled import cannot be confirmed.
    let id = start(
        &app,
        &writer,
        "wordpress",
        "a.xml",
        std::fs::read(fixture("wordpress/posts-only.xml")).unwrap(),
    )
    .await;
    until(&app, &writer, &id, "preview").await;
    let res = app
        .post_empty(&format!("/api/import/{id}/cancel"), Some(&writer.token))
        .await;
    assert_eq!(json_of(res).await["status"], "cancelled");
    assert_error(
        app.post_empty(&format!("/api/import/{id}/confirm"), Some(&writer.token))
            .await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_error(
        app.post_empty(&format!("/api/import/{id}/cancel"), Some(&writer.token))
            .await,
        StatusCode::CONFLICT,
    )
    .await;
    assert!(posts_of(&app, &writer).await.is_empty());
}

async fn begin_feed(app: &TestApp, user: &TestUser, url: &str) -> String {
    let res = app
        .post_json(
            "/api/import",
            &json!({ "source": "feed", "url": url }),
            Some(&user.token),
        )
        .await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    body["id"].as_str().unwrap().to_string()
}

fn atom(host: &str, entries: &[(&str, &str)]) -> String {
    let items: String = entries
        .iter()
        .map(|(id, title)| {
            format!(
                "<entry><id>urn:e:{id}</id><title>{title}</title><updated>2026-01-0{id}T10:00:00Z</updated><link rel=\"alternate\" href=\"http://{host}/posts/{id}\"/><content type=\"html\">&lt;p&gt;Body of {title}&lt;/p&gt;&lt;img src=\"/pictures/{id}.png\" alt=\"A picture\"&gt;</content></entry>"
            )
        })
        .collect();
    format!("<?xml version=\"1.0\" encoding=\"utf-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Elsewhere</title><id>urn:feed</id><updated>2026-01-03T10:00:00Z</updated>{items}</feed>")
}

#[actix_web::test]
async fn a_feed_is_imported_as_drafts_and_read_again_adds_only_new_entries() {
    let (site, host) = Site::start();
    *site.feed.lock().unwrap() = atom(&host, &[("1", "First"), ("2", "Second")]);
    let app = spawn_app_with(importing_app(true)).await;
    let writer = app.signup().await;
    let url = format!("http://{host}/feed.xml");
    let id = begin_feed(&app, &writer, &url).await;
    let preview = until(&app, &writer, &id, "preview").await;
    assert_eq!(preview["counts"]["posts"], 2, "{preview}");
    assert_eq!(preview["counts"]["images"], 2);
    let done = confirm(&app, &writer, &id, json!({})).await;
    assert_eq!(done["report"]["created"], 2, "{done}");
    assert_eq!(done["report"]["imagesFetched"], 2);
    let posts = posts_of(&app, &writer).await;
    let first = titled(&posts, "First");
    assert_eq!(first["status"], "draft");
    assert_eq!(
        first["importedFrom"]["url"],
        format!("http://{host}/posts/1")
    );
    let image = first["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "image")
        .unwrap();
    assert!(
        image["data"]["file"]["url"]
            .as_str()
            .unwrap()
            .starts_with("/media/"),
        "{image}"
    );
    // Stored as an upload is: its size beside it, and its text alternative kept.
    assert_eq!(image["data"]["file"]["width"], 48, "{image}");
    assert_eq!(image["data"]["alt"], "A picture");

    // Posts imported before their key existed are given it by the migration, and count as
    // imported as before.
    app.db
        .database()
        .collection::<mongodb::bson::Document>("posts")
        .update_many(
            mongodb::bson::doc! {},
            mongodb::bson::doc! { "$unset": { "importKey": "" } },
        )
        .await
        .unwrap();
    pressroom::persistence::posts::backfill_import_keys(&app.db)
        .await
        .unwrap();
    *site.feed.lock().unwrap() = atom(&host, &[("1", "First"), ("2", "Second"), ("3", "Third")]);
    let again = begin_feed(&app, &writer, &url).await;
    until(&app, &writer, &again, "preview").await;
    let done = confirm(&app, &writer, &again, json!({})).await;
    assert_eq!(done["report"]["created"], 1, "{done}");
    assert_eq!(done["report"]["skipped"], 2);
    assert_eq!(posts_of(&app, &writer).await.len(), 3);
}

#[actix_web::test]
async fn the_production_rule_fetches_nothing_from_this_machine() {
    let (site, host) = Site::start();
    let port = host.rsplit(':').next().unwrap().to_string();
    let app = spawn_app_with(importing_app(false)).await;
    let writer = app.signup().await;
    // A feed on a loopback address is refused at once.
    let msg = assert_error(
        app.post_json(
            "/api/import",
            &json!({ "source": "feed", "url": format!("http://{host}/feed.xml") }),
            Some(&writer.token),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(msg.contains("private, local or reserved"), "{msg}");
    // Images named by a name that resolves to loopback are not fetched: the import ends with
    // the old addresses kept and a warning.
    let export = std::fs::read_to_string(fixture("wordpress/sample.xml"))
        .unwrap()
        .replace(
            "https://images.unsplash.com/",
            &format!("http://localhost:{port}/"),
        );
    let id = start(&app, &writer, "wordpress", "acme.xml", export.into_bytes()).await;
    until(&app, &writer, &id, "preview").await;
    let done = confirm(&app, &writer, &id, json!({})).await;
    assert_eq!(done["report"]["created"], 4, "{done}");
    assert_eq!(done["report"]["imagesFailed"], 2);
    assert!(
        done["warnings"]
            .to_string()
            .contains("private, local or reserved"),
        "{done}"
    );
    let posts = posts_of(&app, &writer).await;
    assert!(titled(&posts, "Basic Post")["thumbnail"]
        .as_str()
        .unwrap()
        .starts_with("http://localhost:"));
    assert_eq!(site.hits.load(Ordering::SeqCst), 0);
}

/// The files of `dir` (a fixture folder) zipped under `prefix/`, as the platform sends them.
fn zip_folder(dir: &std::path::Path, prefix: &str) -> Vec<u8> {
    use std::io::Write;
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut out);
        let options = zip::write::SimpleFileOptions::default();
        let mut stack = vec![(dir.to_path_buf(), prefix.to_string())];
        while let Some((folder, inside)) = stack.pop() {
            let mut entries: Vec<_> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            entries.sort();
            for path in entries {
                let name = format!("{inside}/{}", path.file_name().unwrap().to_string_lossy());
                if path.is_dir() {
                    stack.push((path, name));
                } else {
                    zip.start_file(name, options).unwrap();
                    zip.write_all(&std::fs::read(&path).unwrap()).unwrap();
                }
            }
        }
        zip.finish().unwrap();
    }
    out.into_inner()
}

#[actix_web::test]
async fn medium_and_substack_exports_are_imported_from_their_zips() {
    let app = spawn_app_with(importing_app(true)).await;
    let writer = app.signup().await;

    let medium = zip_folder(&fixture("medium"), "medium-export");
    let id = start(&app, &writer, "medium", "medium-export.zip", medium).await;
    let preview = until(&app, &writer, &id, "preview").await;
    let posts_in_file = std::fs::read_dir(fixture("medium/posts")).unwrap().count() as u64;
    let counts = &preview["counts"];
    assert_eq!(
        counts["posts"].as_u64().unwrap() + counts["skipped"].as_u64().unwrap(),
        posts_in_file,
        "{preview}"
    );
    assert!(
        counts["skipped"].as_u64().unwrap() >= 1,
        "responses are skipped: {preview}"
    );
    assert!(
        preview["warnings"].to_string().contains("response"),
        "{preview}"
    );
    // Two files of the fixture are the same Medium post (the same address and id): it is
    // written once, and the preview says so.
    assert!(
        preview["warnings"]
            .to_string()
            .contains("the same id as an earlier entry"),
        "{preview}"
    );
    let done = confirm(&app, &writer, &id, json!({ "keepStatus": true })).await;
    assert_eq!(
        done["report"]["created"].as_u64().unwrap(),
        counts["posts"].as_u64().unwrap() - 1,
        "{done}"
    );
    assert_eq!(done["report"]["failed"], 0);
    let posts = posts_of(&app, &writer).await;
    assert!(posts
        .iter()
        .all(|p| p["importedFrom"]["source"] == "medium"));
    assert!(
        posts.iter().any(|p| p["status"] == "published"
            && p["importedFrom"]["url"]
                .as_str()
                .is_some_and(|u| u.starts_with("https://medium.com/"))),
        "{posts:?}"
    );

    let substack = zip_folder(&fixture("substack"), "substack-export");
    let id = start(&app, &writer, "substack", "substack-export.zip", substack).await;
    let preview = until(&app, &writer, &id, "preview").await;
    let rows = std::fs::read_to_string(fixture("substack/posts.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(rows.as_bytes());
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let counts = &preview["counts"];
    assert_eq!(
        counts["posts"].as_u64().unwrap() + counts["pages"].as_u64().unwrap(),
        records.len() as u64,
        "{preview}"
    );
    let done = confirm(&app, &writer, &id, json!({ "keepStatus": true })).await;
    assert_eq!(
        done["report"]["created"].as_u64().unwrap(),
        records.len() as u64,
        "{done}"
    );
    let posts = posts_of(&app, &writer).await;
    let from_substack: Vec<&Value> = posts
        .iter()
        .filter(|p| p["importedFrom"]["source"] == "substack")
        .collect();
    assert_eq!(from_substack.len(), records.len());
    // Paid posts stay for subscribers.
    let headers = reader.headers().unwrap().clone();
    let audience = headers.iter().position(|h| h == "audience").unwrap();
    let paid = records
        .iter()
        .filter(|r| !matches!(&r[audience], "" | "everyone"))
        .count();
    assert_eq!(
        from_substack
            .iter()
            .filter(|p| p["audience"] == "subscribers")
            .count(),
        paid
    );
}

#[actix_web::test]
async fn a_pressroom_export_imports_back_into_a_fresh_account() {
    let app = spawn_app_with(importing_app(true)).await;
    let writer = app.signup().await;
    let body = json!({
        "title": "Round trip",
        "tags": ["travel", "notes"],
        "blocks": [
            { "id": "h1", "type": "header", "data": { "text": "Going", "level": 2 } },
            { "id": "p1", "type": "paragraph", "data": { "text": "There and <b>back</b>." } },
            { "id": "i1", "type": "image", "data": { "file": { "url": crate::support::content::png_data_url() }, "caption": "A dot" } },
        ],
    });
    let made = crate::support::content::create_post(&app, &writer.token, body).await;
    crate::support::content::create_post(&app, &writer.token, json!({ "title": "Still a draft", "status": "draft", "blocks": [{ "id": "p1", "type": "paragraph", "data": { "text": "Unfinished." } }] })).await;
    let res = app
        .post_json("/api/user/export", &json!({}), Some(&writer.token))
        .await;
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let url = loop {
        let list = json_of(app.get("/api/user/export", Some(&writer.token)).await).await;
        if list["exports"][0]["state"] == "ready" {
            break list["exports"][0]["downloadUrl"]
                .as_str()
                .unwrap()
                .to_string();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the export was not built: {list}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    let zip = app
        .get(&url, Some(&writer.token))
        .await
        .bytes()
        .await
        .unwrap()
        .to_vec();

    let fresh = app.signup().await;
    let id = start(&app, &fresh, "pressroom", "pressroom-export.zip", zip).await;
    let preview = until(&app, &fresh, &id, "preview").await;
    assert_eq!(preview["counts"]["posts"], 2, "{preview}");
    assert_eq!(preview["counts"]["drafts"], 1);
    let done = confirm(&app, &fresh, &id, json!({ "keepStatus": true })).await;
    assert_eq!(done["report"]["created"], 2, "{done}");
    let posts = posts_of(&app, &fresh).await;
    let copy = titled(&posts, "Round trip");
    let original = made.clone();
    assert_eq!(copy["status"], "published");
    assert_eq!(copy["tags"], original["tags"]);
    assert_eq!(copy["publishedAt"], original["publishedAt"]);
    let kinds = |p: &Value| {
        p["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(kinds(copy), kinds(&original));
    assert_eq!(copy["blocks"][1]["data"]["text"], "There and <b>back</b>.");
    let image = copy["blocks"][2]["data"]["file"]["url"].as_str().unwrap();
    assert!(image.starts_with("/media/"), "{image}");
    assert_eq!(app.get(image, None).await.status(), StatusCode::OK);
    assert_eq!(titled(&posts, "Still a draft")["status"], "draft");
    assert_eq!(copy["importedFrom"]["sourceId"], original["_id"]);
}

#[actix_web::test]
async fn a_ghost_export_is_imported_with_its_tags_pages_and_statuses() {
    let app = spawn_app_with(importing_app(true)).await;
    let writer = app.signup().await;
    let export = json!({ "db": [{ "meta": { "version": "5.80.0" }, "data": {
        "posts": [
            { "id": "g1", "title": "Hello from Ghost", "slug": "hello-ghost", "html": "<p>First <strong>words</strong>.</p><h2>More</h2>", "status": "published", "type": "post", "visibility": "public", "published_at": "2023-05-01T09:00:00.000Z" },
            { "id": "g2", "title": "Members only", "slug": "members", "html": "<p>For members.</p>", "status": "published", "type": "post", "visibility": "paid", "published_at": "2023-05-02T09:00:00.000Z" },
            { "id": "g3", "title": "About", "slug": "about", "html": "<p>Who we are.</p>", "status": "published", "type": "page", "visibility": "public", "published_at": "2023-01-01T09:00:00.000Z" },
            { "id": "g4", "title": "Someday", "slug": "someday", "html": "<p>Later.</p>", "status": "draft", "type": "post", "visibility": "public", "published_at": null },
        ],
        "tags": [{ "id": "t1", "name": "Letters", "slug": "letters" }],
        "posts_tags": [{ "post_id": "g1", "tag_id": "t1", "sort_order": 0 }],
    } }] });
    let id = start(
        &app,
        &writer,
        "ghost",
        "site.ghost.json",
        export.to_string().into_bytes(),
    )
    .await;
    let preview = until(&app, &writer, &id, "preview").await;
    assert_eq!(preview["counts"]["posts"], 3, "{preview}");
    assert_eq!(preview["counts"]["pages"], 1);
    assert_eq!(preview["counts"]["drafts"], 1);
    let done = confirm(&app, &writer, &id, json!({ "keepStatus": true })).await;
    assert_eq!(done["report"]["created"], 4, "{done}");
    let posts = posts_of(&app, &writer).await;
    let hello = titled(&posts, "Hello from Ghost");
    assert_eq!(hello["status"], "published");
    assert_eq!(hello["slug"], "hello-ghost");
    assert_eq!(hello["tags"], json!(["letters"]));
    assert_eq!(hello["blocks"][1]["type"], "header");
    assert_eq!(titled(&posts, "Members only")["audience"], "subscribers");
    assert_eq!(titled(&posts, "About")["visibility"], "Unlisted");
    assert_eq!(titled(&posts, "Someday")["status"], "draft");
}

/// A blog moved here from this very address: an imported post's old address leads to its page
/// (permanently) once anyone may read it; another address of the site is not found as before.
#[actix_web::test]
async fn old_addresses_of_this_site_lead_to_the_imported_posts() {
    let (site, host) = Site::start();
    *site.feed.lock().unwrap() = atom(&host, &[("1", "First"), ("2", "Second")]);
    let public = format!("http://{host}");
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s: &mut pressroom::config::Settings| {
            s.import.allow_loopback = true;
            s.import.poll_ms = 100;
            s.server.public_url = public.clone();
        })),
        ..Default::default()
    })
    .await;
    let writer = app.signup().await;
    let id = begin_feed(&app, &writer, &format!("http://{host}/feed.xml")).await;
    until(&app, &writer, &id, "preview").await;
    let done = confirm(&app, &writer, &id, json!({})).await;
    assert_eq!(done["report"]["created"], 2, "{done}");
    let stay = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let visit = |path: &'static str| {
        let request = stay.get(app.url(path));
        async move { request.send().await.unwrap() }
    };
    // Imported as a draft: nobody is sent to it yet.
    assert_eq!(visit("/posts/1").await.status(), StatusCode::NOT_FOUND);
    let first = titled(&posts_of(&app, &writer).await, "First").clone();
    let slug = first["slug"].as_str().unwrap().to_string();
    let res = app
        .patch_json(
            &format!("/api/post/update/{slug}"),
            &json!({ "status": "published" }),
            Some(&writer.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    for path in ["/posts/1", "/posts/1/"] {
        let res = stay.get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::MOVED_PERMANENTLY, "{path}");
        assert_eq!(
            res.headers()["location"].to_str().unwrap(),
            format!("/post/{slug}")
        );
    }
    assert_eq!(visit("/posts/3").await.status(), StatusCode::NOT_FOUND);
    // The same feed imported by another writer keeps the first post's address.
    let other = app.signup().await;
    let again = begin_feed(&app, &other, &format!("http://{host}/feed.xml")).await;
    until(&app, &other, &again, "preview").await;
    confirm(&app, &other, &again, json!({})).await;
    let res = visit("/posts/1").await;
    assert_eq!(
        res.headers()["location"].to_str().unwrap(),
        format!("/post/{slug}")
    );
}

/// Entries written together that want one address get the next free ones, after a post of
/// another writer that holds it already.
#[actix_web::test]
async fn entries_of_one_batch_wanting_one_address_get_the_next_free_ones() {
    let (site, host) = Site::start();
    *site.feed.lock().unwrap() = atom(
        &host,
        &[("1", "Same Name"), ("2", "Same Name"), ("3", "Other")],
    );
    // Every import counts as a long one here: it ends with an email.
    let app = spawn_app_with(AppOptions {
        tweak: Some(Box::new(|s: &mut pressroom::config::Settings| {
            s.import.allow_loopback = true;
            s.import.poll_ms = 100;
            s.import.email_after_seconds = 0;
        })),
        ..Default::default()
    })
    .await;
    let someone = app.signup().await;
    let theirs = crate::support::content::publish(&app, &someone, "Same Name", "First here").await;
    assert_eq!(theirs["slug"], "same-name");
    let writer = app.signup().await;
    let id = begin_feed(&app, &writer, &format!("http://{host}/feed.xml")).await;
    until(&app, &writer, &id, "preview").await;
    let mails = app.mail_count(&writer.email);
    let done = confirm(&app, &writer, &id, json!({})).await;
    assert_eq!(done["report"]["created"], 3, "{done}");
    let mut slugs: Vec<String> = posts_of(&app, &writer)
        .await
        .iter()
        .map(|p| p["slug"].as_str().unwrap().to_string())
        .collect();
    slugs.sort();
    assert_eq!(slugs, ["other", "same-name-2", "same-name-3"]);
    let mail = app.wait_for_mail(&writer.email, mails).await;
    assert!(mail.contains("Your import has finished"), "{mail}");
    assert!(mail.contains("3 posts written"), "{mail}");
}
