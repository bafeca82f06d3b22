//! Backups and restores against the real FerretDB: a backup taken while posts are being written
//! restores to the same documents, indexes and answers in another database; bad input fails
//! with a clear message and leaves the target as it was; the command line does the same.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use futures_util::TryStreamExt;
use mongodb::bson::{doc, Document};
use pressroom::config::Settings;
use pressroom::persistence::Db;
use reqwest::StatusCode;
use serde_json::Value;

use crate::support::content::{post_body, publish};
use crate::support::*;

fn scratch(app: &TestApp) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("backup-{}", app.db_name));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A handle on another database of the test FerretDB.
async fn other_db(app: &TestApp, suffix: &str) -> Db {
    let mut settings = app.settings.database.clone();
    settings.uri = required_env("PRESSROOM_TEST_MONGODB_URI").into();
    settings.name = format!("{}_{suffix}", app.db_name);
    Db::connect(&settings).await.unwrap()
}

/// Every collection's documents (sorted by `_id`), and its index names.
async fn contents(db: &Db) -> BTreeMap<String, (Vec<Document>, Vec<String>)> {
    let database = db.database();
    let mut out = BTreeMap::new();
    for name in database.list_collection_names().await.unwrap() {
        let mut docs: Vec<Document> = database
            .collection::<Document>(&name)
            .find(doc! {})
            .await
            .unwrap()
            .try_collect()
            .await
            .unwrap();
        docs.sort_by_key(|d| d.get("_id").map(|v| v.to_string()).unwrap_or_default());
        let mut indexes = database
            .collection::<Document>(&name)
            .list_index_names()
            .await
            .unwrap();
        indexes.sort();
        out.insert(name, (docs, indexes));
    }
    out
}

async fn collection_names(db: &Db) -> Vec<String> {
    db.database().list_collection_names().await.unwrap()
}

async fn drop_db(db: &Db) {
    let _ = db.database().drop().await;
}

#[actix_web::test]
async fn a_backup_taken_under_write_load_restores_to_the_same_documents_and_answers() {
    // Arrange: a site with an author and a few posts, and a writer that keeps publishing.
    let app = spawn_app().await;
    let author = app.signup().await;
    let mut slugs = Vec::new();
    for i in 0..4 {
        let post = publish(&app, &author, &format!("Kept safe {i}"), "Backed up text").await;
        slugs.push(post["slug"].as_str().unwrap().to_string());
    }
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let (client, url, token) = (
            app.client.clone(),
            app.url("/api/post/post-create"),
            author.token.clone(),
        );
        let (stop, written) = (stop.clone(), written.clone());
        tokio::spawn(async move {
            let mut i = 0;
            while !stop.load(Ordering::SeqCst) || i < 2 {
                let res = client
                    .post(&url)
                    .bearer_auth(&token)
                    .json(&post_body(
                        &format!("Written during the backup {i}"),
                        "Load",
                    ))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(res.status(), StatusCode::CREATED);
                written.fetch_add(1, Ordering::SeqCst);
                i += 1;
            }
        })
    };
    while written.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let file = scratch(&app).join("site.tar");

    // Act: back up while the writer goes on, stop it, restore into another database.
    let manifest = pressroom::backup::backup(&app.db, &file, None)
        .await
        .unwrap();
    stop.store(true, Ordering::SeqCst);
    writer.await.unwrap();
    let target = other_db(&app, "restored").await;
    let media = scratch(&app).join("media");
    let restored = pressroom::backup::restore(&target, &file, &media, false)
        .await
        .unwrap();

    // Assert: the restore holds exactly what the archive holds, with the same indexes.
    let archived = pressroom::backup::read_archive(&file).unwrap();
    let got = contents(&target).await;
    let source = contents(&app.db).await;
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        archived.keys().collect::<Vec<_>>()
    );
    let mut total = 0;
    for entry in &manifest.collections {
        let mut want = archived[&entry.name].clone();
        want.sort_by_key(|d| d.get("_id").map(|v| v.to_string()).unwrap_or_default());
        let (docs, indexes) = &got[&entry.name];
        assert_eq!(docs.len() as u64, entry.documents, "{}", entry.name);
        assert_eq!(docs, &want, "documents of {}", entry.name);
        assert_eq!(indexes, &source[&entry.name].1, "indexes of {}", entry.name);
        total += entry.documents;
    }
    assert_eq!(restored.documents, total);
    // Everything written before the backup began is in it.
    let posts = &got["posts"].0;
    for slug in &slugs {
        assert!(
            posts.iter().any(|p| p.get_str("slug") == Ok(slug.as_str())),
            "{slug} is missing"
        );
    }

    // The restored site answers as the original did.
    let target_name = target.database().name().to_string();
    let copy = spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s: &mut Settings| {
            s.database.name = target_name;
        })),
        ..AppOptions::default()
    })
    .await;
    for slug in &slugs {
        let path = format!("/api/public/post/{slug}");
        let original = json_of(app.get(&path, None).await).await;
        let answer = json_of(copy.get(&path, None).await).await;
        assert_eq!(comparable(answer), comparable(original), "{path}");
    }
    assert_eq!(
        copy.login(&author.email, PASSWORD).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.login(&author.email, PASSWORD).await.status(),
        StatusCode::OK
    );
    drop(copy);
    drop_db(&target).await;
}

/// An answer without what reading it changes (view counters).
fn comparable(mut answer: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.retain(|k, _| !k.to_lowercase().contains("view"));
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut answer);
    answer
}

#[actix_web::test]
async fn bad_input_fails_clearly_and_leaves_the_target_unchanged() {
    let app = spawn_app().await;
    let author = app.signup().await;
    publish(&app, &author, "Only post", "Text").await;
    let dir = scratch(&app);
    let media = dir.join("media");

    // A backup to a place that cannot be written.
    let err = pressroom::backup::backup(&app.db, Path::new("/nonexistent-dir/site.tar"), None)
        .await
        .unwrap_err();
    assert!(format!("{err:#}").contains("cannot be written"), "{err:#}");

    let file = dir.join("site.tar");
    pressroom::backup::backup(&app.db, &file, None)
        .await
        .unwrap();
    let whole = std::fs::read(&file).unwrap();
    let empty = other_db(&app, "empty").await;

    // Truncated archives and foreign files: refused, nothing written.
    let foreign_tar = {
        let mut builder = tar::Builder::new(Vec::new());
        let mut header = tar::Header::new_gnu();
        header.set_size(5);
        builder
            .append_data(&mut header, "notes.txt", &b"hello"[..])
            .unwrap();
        builder.into_inner().unwrap()
    };
    for (case, bytes) in [
        ("cut in half", whole[..whole.len() / 2].to_vec()),
        (
            "cut inside the manifest",
            whole[..whole.len() - 1500].to_vec(),
        ),
        ("cut after the first header", whole[..700].to_vec()),
        ("a text file", b"not a backup at all\n".repeat(40)),
        ("another tar archive", foreign_tar),
        ("empty", Vec::new()),
    ] {
        let bad = dir.join("bad.tar");
        std::fs::write(&bad, &bytes).unwrap();
        let err = pressroom::backup::restore(&empty, &bad, &media, false)
            .await
            .unwrap_err();
        assert!(
            format!("{err:#}").contains("is not a complete Pressroom backup"),
            "{case}: {err:#}"
        );
        assert!(
            collection_names(&empty).await.is_empty(),
            "{case}: the target was written"
        );
    }
    assert!(
        pressroom::backup::restore(&empty, &dir.join("missing.tar"), &media, false)
            .await
            .is_err()
    );

    // A database that holds documents: refused without --force, unchanged.
    let before = contents(&app.db).await;
    let err = pressroom::backup::restore(&app.db, &file, &media, false)
        .await
        .unwrap_err();
    assert!(format!("{err:#}").contains("is not empty"), "{err:#}");
    assert_eq!(contents(&app.db).await, before);

    // With --force it is replaced by the backup's contents.
    let other = other_db(&app, "forced").await;
    other
        .database()
        .collection::<Document>("stray")
        .insert_one(doc! { "left": "over" })
        .await
        .unwrap();
    pressroom::backup::restore(&other, &file, &media, true)
        .await
        .unwrap();
    let forced = contents(&other).await;
    assert!(!forced.contains_key("stray"));
    assert_eq!(forced["users"].0, before["users"].0);
    drop_db(&other).await;
    drop_db(&empty).await;
}

#[actix_web::test]
async fn the_command_line_backs_up_and_restores_and_refuses_a_database_with_documents() {
    let app = spawn_app().await;
    let author = app.signup().await;
    publish(&app, &author, "From the command line", "Text").await;
    let dir = scratch(&app);
    let file = dir.join("cli.tar");
    let target = format!("{}_cli", app.db_name);
    let cli = |database: &str, args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pressroom"))
            .args(args)
            .env("PRESSROOM_ENV", "test")
            .env(
                "PRESSROOM_CONFIG_DIR",
                Path::new(
                    &std::env::var("CARGO_MANIFEST_DIR")
                        .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
                )
                .join("config"),
            )
            .env("MONGODB_URI", required_env("PRESSROOM_TEST_MONGODB_URI"))
            .env("REDIS_URL", required_env("PRESSROOM_TEST_REDIS_URL"))
            .env("PRESSROOM__DATABASE__NAME", database)
            .env("PRESSROOM__SERVER__MEDIA_DIR", dir.join("media"))
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    };
    let out = cli(&app.db_name, &["backup", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("written to"));

    let out = cli(&target, &["restore", file.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("read index rebuilt"), "{stdout}");

    let out = cli(&target, &["restore", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not empty"), "{stderr}");

    let out = cli(&target, &["backup", "/nonexistent-dir/x.tar"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be written"));

    let restored = other_db(&app, "cli").await;
    assert_eq!(
        contents(&restored).await["posts"].0,
        contents(&app.db).await["posts"].0
    );
    drop_db(&restored).await;
    drop_redis_keys(
        &required_env("PRESSROOM_TEST_REDIS_URL"),
        &format!("{target}:"),
    )
    .await;
}
