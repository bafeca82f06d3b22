//! People: signing up, signing in, administrators, sessions made older or confirmed again, and
//! follows, blocks and account ages written the way the API stores them.

use reqwest::{Response, StatusCode};
use serde_json::{json, Value};

use super::app::{required_env, TestApp};
use super::http::json_of;
use super::mail::code_in;

pub const PASSWORD: &str = "correct horse battery";

/// A signed-up user.
#[derive(Debug, Clone)]
pub struct TestUser {
    pub id: String,
    pub email: String,
    pub token: String,
}

pub fn unique_email() -> String {
    format!("user-{}@example.com", uuid::Uuid::new_v4().simple())
}

impl TestApp {
    pub async fn signup_raw(
        &self,
        name: &str,
        email: &str,
        password: &str,
        send_email: bool,
    ) -> Response {
        self.post_json(
            "/api/auth/signup",
            &json!({ "fullName": name, "email": email, "password": password, "sendEmail": send_email }),
            None,
        )
        .await
    }

    /// Signs up a fresh user with a unique email.
    pub async fn signup(&self) -> TestUser {
        let email = unique_email();
        self.signup_as(&email).await
    }

    pub async fn signup_as(&self, email: &str) -> TestUser {
        let res = self
            .signup_raw("Ada Lovelace", email, PASSWORD, false)
            .await;
        assert_eq!(res.status(), StatusCode::CREATED, "signup of {email}");
        let body: Value = res.json().await.unwrap();
        TestUser {
            id: body["_id"].as_str().unwrap().to_string(),
            email: email.to_lowercase(),
            token: body["token"].as_str().unwrap().to_string(),
        }
    }

    /// Signs up `n` users at once.
    pub async fn signup_many(&self, n: usize) -> Vec<TestUser> {
        futures_util::future::join_all((0..n).map(|_| self.signup())).await
    }

    pub async fn login(&self, email: &str, password: &str) -> Response {
        self.post_json(
            "/api/auth/login",
            &json!({ "email": email, "password": password }),
            None,
        )
        .await
    }

    /// Asks for a code and returns it from the mail.
    pub async fn verification_code(&self, user: &TestUser) -> String {
        let before = self.mail_count(&user.email);
        let res = self
            .post_json(
                "/api/auth/send-verify-otp",
                &json!({ "userId": user.id }),
                Some(&user.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        code_in(&self.wait_for_mail(&user.email, before).await)
    }

    pub async fn reset_code(&self, email: &str) -> String {
        let before = self.mail_count(email);
        let res = self
            .post_json("/api/auth/send-reset-otp", &json!({ "email": email }), None)
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        code_in(&self.wait_for_mail(email, before).await)
    }

    /// Makes a user an administrator the way an operator does.
    pub async fn make_admin(&self, email: &str) {
        use pressroom::cli::{run_admin, AdminAction, Command};
        let mut settings = self.settings.clone();
        settings.database.uri = required_env("PRESSROOM_TEST_MONGODB_URI").into();
        run_admin(
            &settings,
            Command::Admin {
                action: AdminAction::Grant {
                    email: email.into(),
                },
            },
        )
        .await
        .expect("grant admin");
    }

    /// A fresh administrator.
    pub async fn admin(&self) -> TestUser {
        let user = self.signup().await;
        self.make_admin(&user.email).await;
        user
    }

    /// Confirms the password in `user`'s session (step-up): for the next ten minutes it may
    /// change bank details, request payouts and refunds, change the password, grant roles.
    /// Signing in counts as such a confirmation, so a test needs this only for an older session.
    pub async fn reauth(&self, user: &TestUser) {
        let res = self
            .post_json(
                "/api/auth/reauth",
                &json!({ "password": PASSWORD }),
                Some(&user.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK, "reauth of {}", user.email);
    }

    /// Makes `user`'s session look as if it signed in (and last confirmed its password)
    /// `minutes` ago.
    pub async fn age_session(&self, token: &str, minutes: i64) {
        let claims: Value = {
            use base64::Engine;
            let payload = token.split('.').nth(1).unwrap();
            serde_json::from_slice(
                &base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .decode(payload)
                    .unwrap(),
            )
            .unwrap()
        };
        let then = mongodb::bson::DateTime::from_chrono(
            chrono::Utc::now() - chrono::Duration::minutes(minutes),
        );
        self.db
            .database()
            .collection::<mongodb::bson::Document>("sessions")
            .update_one(
                mongodb::bson::doc! { "_id": claims["jti"].as_str().unwrap() },
                mongodb::bson::doc! { "$set": { "createdAt": then }, "$unset": { "reauthAt": "" } },
            )
            .await
            .unwrap();
    }

    /// Makes an account `days` days old.
    pub async fn age_account(&self, user: &TestUser, days: i64) {
        use mongodb::bson::{doc, oid::ObjectId, DateTime};
        let at = DateTime::from_millis(DateTime::now().timestamp_millis() - days * 86_400_000);
        self.db
            .database()
            .collection::<mongodb::bson::Document>("users")
            .update_one(
                doc! { "_id": ObjectId::parse_str(&user.id).unwrap() },
                doc! { "$set": { "createdAt": at } },
            )
            .await
            .expect("age account");
    }

    /// Records that `follower` follows `followee` the way the engagement API stores it.
    pub async fn follow_directly(&self, follower: &TestUser, followee: &TestUser) {
        use mongodb::bson::{doc, oid::ObjectId, DateTime};
        self.db
            .database()
            .collection::<mongodb::bson::Document>("follows")
            .insert_one(doc! {
                "followerId": ObjectId::parse_str(&follower.id).unwrap(),
                "followeeId": ObjectId::parse_str(&followee.id).unwrap(),
                "createdAt": DateTime::now(),
            })
            .await
            .expect("follow");
    }

    /// Records that `blocker` blocked `blocked` the way the engagement API stores it.
    pub async fn block_directly(&self, blocker: &TestUser, blocked: &TestUser) {
        use mongodb::bson::{doc, oid::ObjectId, DateTime};
        self.db
            .database()
            .collection::<mongodb::bson::Document>("blocks")
            .insert_one(doc! {
                "blockerId": ObjectId::parse_str(&blocker.id).unwrap(),
                "blockedId": ObjectId::parse_str(&blocked.id).unwrap(),
                "createdAt": DateTime::now(),
            })
            .await
            .expect("block");
    }

    /// A guest id issued by the server (what a guest's first visit gets).
    pub async fn guest_id(&self) -> String {
        let res = self.post_raw("/api/public/guest/visit", "", None).await;
        assert_eq!(res.status(), StatusCode::OK);
        json_of(res).await["guest"]["guestId"]
            .as_str()
            .unwrap()
            .to_string()
    }
}
