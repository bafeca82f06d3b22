//! Revisions of posts: saved on create, publish, unpublish, save, autosave (at most one per
//! period), an administrator's edit, a block and a restore; listed, compared (block by block,
//! word by word, checked against Python's difflib), restored; pinned by reports, appeals and
//! blocks, and kept beyond the limit while pinned.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::content::*;
use crate::support::*;

fn revisions_path(post: &Value) -> String {
    format!("/api/post/{}/revisions", post["_id"].as_str().unwrap())
}

async fn revisions(app: &TestApp, token: &str, post: &Value) -> Vec<Value> {
    get_ok(app, &revisions_path(post), Some(token)).await["revisions"]
        .as_array()
        .unwrap()
        .clone()
}

fn reasons(list: &[Value]) -> Vec<&str> {
    list.iter().map(|r| r["reason"].as_str().unwrap()).collect()
}

async fn save(app: &TestApp, token: &str, post: &Value, body: Value) -> Value {
    let path = format!("/api/post/update/{}", post["slug"].as_str().unwrap());
    let res = app.patch_json(&path, &body, Some(token)).await;
    let status = res.status();
    let answer = json_of(res).await;
    assert_eq!(status, StatusCode::OK, "update: {answer}");
    answer["post"].clone()
}

fn two_paragraphs(title: &str, first: &str, second: &str) -> Value {
    json!({ "title": title, "blocks": [paragraph("a", first), paragraph("b", second)] })
}

#[actix_web::test]
async fn revisions_are_saved_on_create_save_autosave_publish_and_unpublish() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let draft = create_post(
        &app,
        &author.token,
        with(
            post_body("Draft title", "first words"),
            json!({ "status": "draft" }),
        ),
    )
    .await;
    let list = revisions(&app, &author.token, &draft).await;
    assert_eq!(reasons(&list), ["created"]);
    assert_eq!(list[0]["by"]["_id"], author.id);
    assert_eq!(list[0]["by"]["name"], "Ada Lovelace");
    assert_eq!(list[0]["current"], true);
    assert_eq!(list[0]["pinned"], false);
    assert_eq!(list[0]["change"]["wordsAdded"], 2);

    save(
        &app,
        &author.token,
        &draft,
        post_body("Draft title", "first words and more"),
    )
    .await;
    // The same content again is not a new revision.
    save(
        &app,
        &author.token,
        &draft,
        post_body("Draft title", "first words and more"),
    )
    .await;
    let autosave = |text: &str| with(post_body("Draft title", text), json!({ "autosave": true }));
    save(&app, &author.token, &draft, autosave("typing a")).await;
    // A second autosave inside the period is not kept; the post itself changes.
    let after = save(&app, &author.token, &draft, autosave("typing ab")).await;
    assert_eq!(after["blocks"][0]["data"]["text"], "typing ab");
    let list = revisions(&app, &author.token, &draft).await;
    assert_eq!(reasons(&list), ["autosave", "saved", "created"]);
    assert_eq!(list[1]["change"]["wordsAdded"], 2, "{}", list[1]);
    // The newest revision no longer holds the post as it is.
    assert!(list.iter().all(|r| r["current"] == false));

    save(
        &app,
        &author.token,
        &draft,
        json!({ "status": "published" }),
    )
    .await;
    save(&app, &author.token, &draft, json!({ "status": "draft" })).await;
    let list = revisions(&app, &author.token, &draft).await;
    assert_eq!(
        reasons(&list),
        ["unpublished", "published", "autosave", "saved", "created"]
    );
    assert_eq!(list[1]["published"], true);
    assert_eq!(list[0]["published"], false);
    assert_eq!(list[0]["current"], true);

    // An administrator's edit says so.
    let admin = app.admin().await;
    save(
        &app,
        &admin.token,
        &draft,
        post_body("Draft title", "edited by staff"),
    )
    .await;
    let list = revisions(&app, &admin.token, &draft).await;
    assert_eq!(list[0]["reason"], "admin_edit");
    assert_eq!(list[0]["by"]["_id"], admin.id);
}

/// (deleted words, inserted words) of Python's difflib over the two texts' words.
fn difflib_changes(before: &str, after: &str) -> (Vec<String>, Vec<String>) {
    let python = std::env::var("PRESSROOM_TEST_PYTHON").unwrap_or_else(|_| {
        format!(
            "{}/.cache/pressroom/venv/bin/python",
            std::env::var("HOME").unwrap()
        )
    });
    let script = r#"
import difflib, json, sys
a, b = json.load(sys.stdin)
a, b = a.split(), b.split()
deleted, inserted = [], []
for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
    if tag in ("delete", "replace"): deleted += a[i1:i2]
    if tag in ("insert", "replace"): inserted += b[j1:j2]
print(json.dumps([deleted, inserted]))
"#;
    let mut child = std::process::Command::new(python)
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(json!([before, after]).to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

fn words_of(ops: &Value, op: &str) -> Vec<String> {
    ops.as_array()
        .unwrap()
        .iter()
        .filter(|o| o["op"] == op)
        .flat_map(|o| {
            o["text"]
                .as_str()
                .unwrap()
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn rebuilt(ops: &Value, skip: &str) -> String {
    ops.as_array()
        .unwrap()
        .iter()
        .filter(|o| o["op"] != skip)
        .map(|o| o["text"].as_str().unwrap())
        .collect()
}

#[actix_web::test]
async fn two_revisions_compare_block_by_block_and_word_by_word_as_difflib_does() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let texts = [
        (
            "The quick brown fox jumps over the lazy dog near the river bank",
            "The quick red fox leaps over the lazy dog near the old river bank today",
        ),
        (
            "Revisions keep every saved state of a post so nothing is lost",
            "Revisions keep each saved state of the post, so that nothing typed is ever lost",
        ),
    ];
    for (before, after) in texts {
        let post = create_post(&app, &author.token, two_paragraphs("Fox", before, "stays")).await;
        save(
            &app,
            &author.token,
            &post,
            json!({ "title": "Fox story", "blocks": [paragraph("a", after), paragraph("c", "a new block")], "tags": ["animals"] }),
        )
        .await;
        let list = revisions(&app, &author.token, &post).await;
        let (newer, older) = (
            list[0]["id"].as_str().unwrap(),
            list[1]["id"].as_str().unwrap(),
        );
        let path = format!("{}/compare?from={older}&to={newer}", revisions_path(&post));
        let diff = get_ok(&app, &path, Some(&author.token)).await;
        assert_eq!(diff["from"]["id"], older);
        assert_eq!(diff["to"]["reason"], "saved");
        let kinds: Vec<(&str, &str)> = diff["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b["id"].as_str().unwrap(), b["change"].as_str().unwrap()))
            .collect();
        assert_eq!(kinds, [("a", "changed"), ("b", "removed"), ("c", "added")]);
        let words = &diff["blocks"][0]["words"];
        assert_eq!(
            rebuilt(words, "insert"),
            before,
            "equal + delete is the old text"
        );
        assert_eq!(
            rebuilt(words, "delete"),
            after,
            "equal + insert is the new text"
        );
        let (deleted, inserted) = difflib_changes(before, after);
        assert_eq!(
            words_of(words, "delete"),
            deleted,
            "deleted words as difflib finds them"
        );
        assert_eq!(
            words_of(words, "insert"),
            inserted,
            "inserted words as difflib finds them"
        );
        assert_eq!(diff["title"]["changed"], true);
        assert_eq!(words_of(&diff["title"]["words"], "insert"), ["story"]);
        assert_eq!(diff["fields"][0]["field"], "tags");
        assert_eq!(diff["fields"][0]["after"], json!(["animals"]));
        assert_eq!(diff["summary"]["blocksAdded"], 1);
        assert_eq!(diff["summary"]["blocksRemoved"], 1);
        assert_eq!(diff["summary"]["blocksChanged"], 1);
        // The list carries the same size of change.
        assert_eq!(list[0]["change"], diff["summary"]);

        // `current` is the post as it is now; a revision equal to it has no change.
        let path = format!("{}/compare?from={newer}&to=current", revisions_path(&post));
        let same = get_ok(&app, &path, Some(&author.token)).await;
        assert_eq!(same["to"]["id"], "current");
        assert!(same["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["change"] == "unchanged"));
        assert_eq!(same["fields"], json!([]));
    }
}

#[actix_web::test]
async fn restoring_a_revision_updates_the_post_everywhere_and_is_itself_a_revision() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let post = create_post(
        &app,
        &author.token,
        with(
            two_paragraphs("Original title", "original marigold text", "second"),
            json!({ "tags": ["first"] }),
        ),
    )
    .await;
    save(
        &app,
        &author.token,
        &post,
        json!({ "title": "Overwritten", "blocks": [paragraph("a", "a bad paste")], "tags": ["second"] }),
    )
    .await;
    let list = revisions(&app, &author.token, &post).await;
    let original = list[1]["id"].as_str().unwrap().to_string();
    let shown = get_ok(
        &app,
        &format!("{}/{original}", revisions_path(&post)),
        Some(&author.token),
    )
    .await;
    assert_eq!(shown["revision"]["title"], "Original title");
    assert_eq!(
        shown["revision"]["blocks"][0]["data"]["text"],
        "original marigold text"
    );
    assert_eq!(shown["revision"]["tags"], json!(["first"]));

    let res = app
        .post_empty(
            &format!("{}/{original}/restore", revisions_path(&post)),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let answer = json_of(res).await;
    assert_eq!(answer["message"], "Revision restored");
    assert_eq!(answer["post"]["title"], "Original title");
    assert_eq!(answer["post"]["tags"], json!(["first"]));
    assert_eq!(answer["revision"]["reason"], "restored");
    assert_eq!(answer["revision"]["current"], true);
    // Readers see it: the post's page answer and search.
    let public = get_ok(
        &app,
        &format!("/api/post/{}", post["slug"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(public["post"]["title"], "Original title");
    assert_eq!(public["post"]["blocks"][1]["data"]["text"], "second");
    let found = get_ok(&app, "/api/post/search-post/search?query=marigold", None).await;
    assert!(
        ids_of(&found).contains(&post["_id"].as_str().unwrap().to_string()),
        "search finds the restored text: {found}"
    );
    let list = revisions(&app, &author.token, &post).await;
    assert_eq!(reasons(&list), ["restored", "saved", "published"]);
    // The overwritten state is still there to go back to.
    assert_eq!(list[1]["title"], "Overwritten");
}

#[actix_web::test]
async fn the_oldest_revisions_go_beyond_the_limit_but_never_published_or_pinned_ones() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let post = publish(&app, &author, "Kept", "version zero").await;
    let report = app
        .post_json(
            "/api/admin/reports",
            &json!({ "postId": post["_id"], "reason": "spam", "details": "look" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(report.status(), StatusCode::CREATED);
    for i in 1..=27 {
        save(
            &app,
            &author.token,
            &post,
            post_body("Kept", &format!("version {i}")),
        )
        .await;
    }
    let list = revisions(&app, &author.token, &post).await;
    let limit = get_ok(&app, &revisions_path(&post), Some(&author.token)).await["limit"].clone();
    assert_eq!(limit, 25);
    let unprotected = list
        .iter()
        .filter(|r| r["published"] == false && r["pinned"] == false)
        .count();
    assert_eq!(unprotected, 25);
    // The first state was published and reported: kept, at the end.
    let oldest = list.last().unwrap();
    assert_eq!(oldest["reason"], "published");
    assert_eq!(oldest["pinned"], true);
    assert_eq!(list[0]["title"], "Kept");
    assert_eq!(list.len(), 26);
    assert_eq!(list[24]["reason"], "saved");
}

#[actix_web::test]
async fn reports_appeals_and_blocks_pin_the_revision_they_are_about() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Reported", "what the reader saw").await;
    let res = app
        .post_json(
            "/api/admin/reports",
            &json!({ "postId": post["_id"], "reason": "spam", "details": "spam" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let listed = get_ok(&app, "/api/admin/reports", Some(&admin.token)).await;
    let report = &listed["reports"][0];
    let seen = report["revisionId"]
        .as_str()
        .expect("the pinned revision")
        .to_string();
    assert_eq!(report["editedSince"], false);

    // The author edits it away; the report still has what was seen.
    save(
        &app,
        &author.token,
        &post,
        post_body("Reported", "something harmless"),
    )
    .await;
    let listed = get_ok(&app, "/api/admin/reports", Some(&admin.token)).await;
    assert_eq!(listed["reports"][0]["revisionId"], seen);
    assert_eq!(listed["reports"][0]["editedSince"], true);
    let report_id = listed["reports"][0]["_id"].as_str().unwrap();
    let one = get_ok(
        &app,
        &format!("/api/admin/reports/{report_id}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(one["report"]["editedSince"], true);
    let diff = get_ok(
        &app,
        &format!("{}/compare?from={seen}&to=current", revisions_path(&post)),
        Some(&admin.token),
    )
    .await;
    assert_eq!(
        words_of(&diff["blocks"][0]["words"], "delete"),
        ["what", "the", "reader", "saw"]
    );
    let evidence = get_ok(
        &app,
        &format!("{}/{seen}", revisions_path(&post)),
        Some(&admin.token),
    )
    .await;
    assert_eq!(
        evidence["revision"]["blocks"][0]["data"]["text"],
        "what the reader saw"
    );
    assert_eq!(evidence["revision"]["pinned"], true);

    // The report's own answer holds the post as the reporter saw it.
    assert_eq!(one["evidence"]["revisionId"], seen.as_str());
    assert_eq!(
        one["evidence"]["blocks"][0]["data"]["text"],
        "what the reader saw"
    );

    // A block saves and pins the state blocked; the appeal pins the state appealed.
    let res = app
        .patch_empty(
            &format!("/api/admin/posts/block/{}", post["_id"].as_str().unwrap()),
            Some(&admin.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    let blocked = json_of(res).await;
    let blocked_revision = blocked["revisionId"]
        .as_str()
        .expect("the blocked revision")
        .to_string();
    let res = app
        .post_json(
            &format!("/api/post/appeal/{}", post["_id"].as_str().unwrap()),
            &json!({ "message": "I changed it" }),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let appeal = json_of(res).await;
    assert_eq!(
        appeal["appeal"]["revisionId"], blocked_revision,
        "nothing changed since the block"
    );
    let list = revisions(&app, &author.token, &post).await;
    assert_eq!(list[0]["reason"], "blocked");
    assert_eq!(list[0]["by"]["_id"], admin.id);
    assert_eq!(list[0]["pinned"], true);
    // Unblocking lifts the block's pin; the appeal's stays.
    app.patch_empty(
        &format!("/api/admin/posts/block/{}", post["_id"].as_str().unwrap()),
        Some(&admin.token),
    )
    .await;
    let list = revisions(&app, &author.token, &post).await;
    assert_eq!(list[0]["pinned"], true, "still the appeal's evidence");
}

#[actix_web::test]
async fn bad_revision_requests_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let other = app.signup().await;
    let post = publish(&app, &author, "Mine", "my words").await;
    save(
        &app,
        &author.token,
        &post,
        post_body("Mine", "my new words"),
    )
    .await;
    let theirs = publish(&app, &other, "Theirs", "their words").await;
    let their_revision = revisions(&app, &other.token, &theirs).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mine = revisions(&app, &author.token, &post).await;
    let my_revision = mine[1]["id"].as_str().unwrap().to_string();
    let base = revisions_path(&post);

    // Someone else's post.
    let res = app.get(&base, Some(&other.token)).await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    let res = app
        .post_empty(&format!("{base}/{my_revision}/restore"), Some(&other.token))
        .await;
    assert_error(res, StatusCode::FORBIDDEN).await;
    // Signed out.
    assert_eq!(
        app.get(&base, None).await.status(),
        StatusCode::UNAUTHORIZED
    );
    // A revision of another post, through this one.
    for path in [
        format!("{base}/{their_revision}"),
        format!("{base}/compare?from={their_revision}&to=current"),
        format!("{base}/compare?from={my_revision}&to=nonsense"),
    ] {
        let message = assert_error(
            app.get(&path, Some(&author.token)).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(message, "Revision not found", "{path}");
    }
    let res = app
        .post_empty(
            &format!("{base}/{their_revision}/restore"),
            Some(&author.token),
        )
        .await;
    assert_eq!(
        assert_error(res, StatusCode::NOT_FOUND).await,
        "Revision not found"
    );
    // Both sides are needed.
    let message = assert_error(
        app.get(
            &format!("{base}/compare?from={my_revision}"),
            Some(&author.token),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(message.contains("from and to"), "{message}");
    // Unknown and malformed posts.
    let unknown = format!(
        "/api/post/{}/revisions",
        mongodb::bson::oid::ObjectId::new().to_hex()
    );
    assert_error(
        app.get(&unknown, Some(&author.token)).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_error(
        app.get("/api/post/not-an-id/revisions", Some(&author.token))
            .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    // Nothing changed: the post and the list are as they were.
    assert_eq!(revisions(&app, &author.token, &post).await, mine);
    let now = get_ok(
        &app,
        &format!("/api/post/{}", post["slug"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(now["post"]["blocks"][0]["data"]["text"], "my new words");
    let theirs_now = revisions(&app, &other.token, &theirs).await;
    assert_eq!(theirs_now.len(), 1);
}

#[actix_web::test]
async fn readers_see_edited_only_for_content_changed_after_the_grace_period() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let post = publish(&app, &author, "Edited story", "first version").await;
    // Inside the grace period after publication: a typo fixed is not an edit readers see.
    let saved = save(
        &app,
        &author.token,
        &post,
        post_body("Edited story", "first version!"),
    )
    .await;
    assert_eq!(saved["editedAt"], Value::Null);
    let hour_ago = mongodb::bson::DateTime::from_millis(
        mongodb::bson::DateTime::now().timestamp_millis() - 3_600_000,
    );
    set_fields(
        &app,
        post["_id"].as_str().unwrap(),
        mongodb::bson::doc! { "publishedAt": hour_ago },
    )
    .await;
    // A save that changes nothing is not an edit either.
    let saved = save(
        &app,
        &author.token,
        &post,
        post_body("Edited story", "first version!"),
    )
    .await;
    assert_eq!(saved["editedAt"], Value::Null);
    let saved = save(
        &app,
        &author.token,
        &post,
        post_body("Edited story", "second version"),
    )
    .await;
    let edited = saved["editedAt"].as_str().expect("editedAt").to_string();
    // The publication time does not move with an edit.
    let published = saved["publishedAt"].as_str().unwrap();
    assert_eq!(
        mongodb::bson::DateTime::parse_rfc3339_str(published)
            .unwrap()
            .timestamp_millis()
            / 1000,
        hour_ago.timestamp_millis() / 1000
    );

    // The feeds are read from the index, which follows the edit a moment later.
    // Compared as instants: the API writes "…52.62Z" where the feed writes "…52.620+00:00".
    let millis = |text: &str| {
        mongodb::bson::DateTime::parse_rfc3339_str(text)
            .ok()
            .map(|at| at.timestamp_millis())
    };
    let wanted = millis(&edited);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let feed = app.get("/feed.xml", None).await.text().await.unwrap();
        let updated = feed
            .split("<updated>")
            .skip(1)
            .filter_map(|rest| rest.split("</updated>").next())
            .any(|at| millis(at) == wanted);
        if updated {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{feed}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let slug = post["slug"].as_str().unwrap();
    let html = app
        .get(&format!("/post/{slug}"), None)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains(&format!("Edited <time datetime=\"{edited}\">")),
        "{html}"
    );
    let ld = json_ld(&html).remove(0);
    assert_eq!(ld["dateModified"], edited.as_str());
    assert_ne!(ld["datePublished"], edited.as_str());
}

#[actix_web::test]
async fn a_reported_post_deleted_by_its_author_leaves_the_report_and_what_the_reader_saw() {
    let app = spawn_app().await;
    let author = app.signup().await;
    let reader = app.signup().await;
    let admin = app.admin().await;
    let post = publish(&app, &author, "Gone soon", "the offending words").await;
    save(
        &app,
        &author.token,
        &post,
        post_body("Gone soon", "still offending"),
    )
    .await;
    let res = app
        .post_json(
            "/api/admin/reports",
            &json!({ "postId": post["_id"], "reason": "harassment", "details": "see" }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    save(
        &app,
        &author.token,
        &post,
        post_body("Gone soon", "cleaned up"),
    )
    .await;
    let res = app
        .delete(
            &format!("/api/post/delete/{}", post["_id"].as_str().unwrap()),
            Some(&author.token),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);

    let listed = get_ok(&app, "/api/admin/reports", Some(&admin.token)).await;
    let report = &listed["reports"][0];
    assert_eq!(report["postDeleted"], true);
    assert_eq!(report["editedSince"], false);
    let id = report["_id"].as_str().unwrap();
    let one = get_ok(
        &app,
        &format!("/api/admin/reports/{id}"),
        Some(&admin.token),
    )
    .await;
    assert_eq!(one["evidence"]["title"], "Gone soon");
    assert_eq!(
        one["evidence"]["blocks"][0]["data"]["text"],
        "still offending"
    );
    // Only the pinned revision outlives the post.
    let post_id = mongodb::bson::oid::ObjectId::parse_str(post["_id"].as_str().unwrap()).unwrap();
    let left = app
        .db
        .database()
        .collection::<mongodb::bson::Document>("post_revisions")
        .count_documents(mongodb::bson::doc! { "postId": post_id })
        .await
        .unwrap();
    assert_eq!(left, 1);
    // Administrators read that revision through the revisions route too; nobody else does.
    let path = format!(
        "/api/post/{}/revisions/{}",
        post["_id"].as_str().unwrap(),
        report["revisionId"].as_str().unwrap()
    );
    let kept = get_ok(&app, &path, Some(&admin.token)).await;
    assert_eq!(
        kept["revision"]["blocks"][0]["data"]["text"],
        "still offending"
    );
    assert_eq!(kept["revision"]["current"], false);
    assert_error(
        app.get(&path, Some(&author.token)).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    // The author reads their own report without the evidence.
    let theirs = get_ok(
        &app,
        &format!("/api/admin/reports/{id}"),
        Some(&author.token),
    )
    .await;
    assert_eq!(theirs["evidence"], Value::Null);
}
