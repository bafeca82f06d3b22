//! Administrators' background jobs: waiting for one to end, and the email retry that queues one.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::app::TestApp;
use super::http::json_of;
use super::users::TestUser;

/// Waits (up to 90 s) for an administrator's background job to end; returns the job.
pub async fn wait_for_job(app: &TestApp, admin: &TestUser, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let res = app
            .get(&format!("/api/admin/jobs/{id}"), Some(&admin.token))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let job = json_of(res).await["job"].clone();
        if job["status"] == "done" || job["status"] == "failed" {
            return job;
        }
        assert!(Instant::now() < deadline, "the job did not end: {job}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Queues a retry (answered 202 at once) and waits for its job: `{message, results}` of the job.
pub async fn retry_failed_emails(app: &TestApp, admin: &TestUser, kind: &str) -> Value {
    let res = app
        .post_json(
            "/api/admin/retry-failed-emails",
            &json!({ "type": kind }),
            Some(&admin.token),
        )
        .await;
    let status = res.status();
    let body = json_of(res).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(body["results"], json!([]), "{body}");
    let job = wait_for_job(app, admin, body["jobId"].as_str().unwrap()).await;
    json!({ "message": job["message"], "results": job["results"] })
}
