//! Helpers of the money tests: eligible authors, plans, subscribing, running the billing job,
//! an app on the Stripe adapter (pointed at stripe-mock) and signed webhook deliveries.

use mongodb::bson::{doc, Document};
use pressroom::config::{PaymentProviderKind, Settings};
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};

use super::*;

pub use super::engagement::oid;

/// The webhook signing secret of the Stripe test app.
pub const WEBHOOK_SECRET: &str = "whsec_pressroom_test";

pub fn stripe_url() -> String {
    std::env::var("PRESSROOM_TEST_STRIPE_URL")
        .expect("PRESSROOM_TEST_STRIPE_URL is not set: run the tests through scripts/test, which starts stripe-mock")
}

/// An app whose payment provider is the Stripe adapter talking to stripe-mock.
pub async fn spawn_stripe_app() -> TestApp {
    spawn_stripe_app_at(stripe_url()).await
}

/// An app on the Stripe adapter whose API is at `url` (stripe-mock, or a proxy in front of it).
pub async fn spawn_stripe_app_at(url: String) -> TestApp {
    spawn_app_with(AppOptions {
        tweak: Some(Box::new(move |s: &mut Settings| {
            s.payments.provider = PaymentProviderKind::Stripe;
            s.payments.stripe_api_base = url;
            s.payments.stripe_secret_key = "sk_test_pressroom".to_string().into();
            s.payments.stripe_webhook_secret = WEBHOOK_SECRET.to_string().into();
        })),
        ..AppOptions::default()
    })
    .await
}

impl TestApp {
    pub fn collection(&self, name: &str) -> mongodb::Collection<Document> {
        self.db.database().collection(name)
    }

    pub async fn count_in(&self, name: &str, filter: Document) -> u64 {
        self.collection(name).count_documents(filter).await.unwrap()
    }

    /// Waits for the unique indexes the money path relies on and the seeded criteria.
    pub async fn money_ready(&self) {
        self.wait_for_index("payments", "idempotency_key_unique")
            .await;
        self.wait_for_index("ledger", "author_seq_unique").await;
        self.wait_for_index("ledger", "kind_source_unique").await;
        self.wait_for_index("refunds", "payment_unique").await;
        self.wait_for_index("bank_details", "user_unique").await;
        self.wait_for_index("subscription_events", "key_unique")
            .await;
        // The stored eligibility criteria are seeded after the indexes (in the background when
        // the database was slow to answer at startup).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while self.count_in("subscription_criteria", doc! {}).await == 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "the eligibility criteria were never seeded"
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    /// A user an administrator made eligible to sell plans.
    pub async fn eligible_author(&self) -> TestUser {
        let author = self.signup().await;
        self.collection("users")
            .update_one(
                doc! { "_id": oid(&author.id) },
                doc! { "$set": { "isEligibleForSubscription": true, "bypassSubscriptionCriteria": true } },
            )
            .await
            .unwrap();
        author
    }

    /// Creates a plan and returns it.
    pub async fn create_plan(&self, author: &TestUser, price: i64) -> Value {
        let res = self
            .post_json(
                "/api/subscription/plans",
                &json!({ "name": "Gold", "description": "Everything", "price": price,
                         "currency": "usd", "interval": "month", "benefits": ["Early access"] }),
                Some(&author.token),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        json_of(res).await["plan"].clone()
    }

    pub async fn subscribe(&self, reader: &TestUser, plan_id: &str) -> Response {
        self.post_json(
            "/api/subscription/subscribe",
            &json!({ "planId": plan_id }),
            Some(&reader.token),
        )
        .await
    }

    /// Subscribes and returns the subscription id.
    pub async fn subscribed(&self, reader: &TestUser, plan_id: &str) -> String {
        let res = self.subscribe(reader, plan_id).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let body = json_of(res).await;
        body["subscription"]["subscriptionId"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Runs the billing job as if it were `at`.
    pub async fn run_billing_at(
        &self,
        at: mongodb::bson::DateTime,
    ) -> pressroom::services::billing::renewals::RunReport {
        pressroom::services::billing::renewals::run_once(&self.state, at)
            .await
            .expect("billing run")
    }

    /// Moves a subscription's period end into the past.
    pub async fn end_period(&self, subscription: &str) {
        let past = mongodb::bson::DateTime::from_millis(
            mongodb::bson::DateTime::now().timestamp_millis() - 60_000,
        );
        self.collection("subscriptions")
            .update_one(
                doc! { "_id": oid(subscription) },
                doc! { "$set": { "currentPeriodEnd": past } },
            )
            .await
            .unwrap();
    }

    /// A subscription's status as stored.
    pub async fn sub_status(&self, id: &str) -> String {
        self.subscription_doc(id)
            .await
            .get_str("status")
            .unwrap()
            .to_string()
    }

    /// The one document of `name` matching `filter`, which must exist.
    pub async fn find_doc(&self, name: &str, filter: Document) -> Document {
        self.collection(name)
            .find_one(filter)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("no document in {name}"))
    }

    pub async fn subscription_doc(&self, id: &str) -> Document {
        self.collection("subscriptions")
            .find_one(doc! { "_id": oid(id) })
            .await
            .unwrap()
            .expect("subscription")
    }

    /// Delivers a webhook event signed with `secret` at `timestamp`.
    pub async fn send_webhook(&self, event: &Value, secret: &str, timestamp: i64) -> Response {
        let body = serde_json::to_vec(event).unwrap();
        let header = pressroom::payments::signature::sign(secret, timestamp, &body);
        self.client
            .post(self.url("/api/payment/webhook"))
            .header("content-type", "application/json")
            .header("stripe-signature", header)
            .body(body)
            .send()
            .await
            .unwrap()
    }

    /// The author's row of the earnings list for a currency.
    pub async fn earnings_of(&self, admin: &TestUser, author: &TestUser) -> Value {
        let res = self
            .get("/api/earning/admin/earnings", Some(&admin.token))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let body = json_of(res).await;
        body["userEarnings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["userId"] == author.id.as_str())
            .cloned()
            .unwrap_or(Value::Null)
    }
}

/// A call the app made to the payment provider, as it went on the wire.
#[derive(Debug, Clone)]
pub struct ProviderCall {
    pub method: String,
    pub path: String,
    pub idempotency_key: Option<String>,
    /// The form body, decoded (`metadata[tipId]` → value).
    pub form: Vec<(String, String)>,
}

impl ProviderCall {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.form
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// An HTTP proxy in front of stripe-mock that records every call (stripe-mock still validates
/// and answers each one).
pub struct StripeRecorder {
    pub url: String,
    calls: std::sync::Arc<std::sync::Mutex<Vec<ProviderCall>>>,
}

impl StripeRecorder {
    pub async fn start() -> StripeRecorder {
        use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
        let calls: std::sync::Arc<std::sync::Mutex<Vec<ProviderCall>>> = Default::default();
        let upstream = stripe_url();
        let client = reqwest::Client::new();
        let kept = calls.clone();
        let server = HttpServer::new(move || {
            let kept = kept.clone();
            let upstream = upstream.clone();
            let client = client.clone();
            App::new().default_service(web::to(move |req: HttpRequest, body: web::Bytes| {
                let kept = kept.clone();
                let upstream = upstream.clone();
                let client = client.clone();
                async move {
                    let key = req
                        .headers()
                        .get("idempotency-key")
                        .and_then(|v| v.to_str().ok())
                        .map(str::to_string);
                    kept.lock().unwrap().push(ProviderCall {
                        method: req.method().to_string(),
                        path: req.path().to_string(),
                        idempotency_key: key,
                        form: form_urlencoded::parse(&body).into_owned().collect(),
                    });
                    let method =
                        reqwest::Method::from_bytes(req.method().as_str().as_bytes()).unwrap();
                    let mut forward = client.request(method, format!("{upstream}{}", req.uri()));
                    for (name, value) in req.headers() {
                        if name != "host" && name != "content-length" {
                            forward = forward.header(name.as_str(), value.as_bytes());
                        }
                    }
                    let answer = forward.body(body.to_vec()).send().await.unwrap();
                    let status =
                        actix_web::http::StatusCode::from_u16(answer.status().as_u16()).unwrap();
                    let bytes = answer.bytes().await.unwrap();
                    HttpResponse::build(status)
                        .content_type("application/json")
                        .body(bytes.to_vec())
                }
            }))
        })
        .workers(1)
        .bind(("127.0.0.1", 0))
        .unwrap();
        let port = server.addrs()[0].port();
        actix_web::rt::spawn(server.run());
        StripeRecorder {
            url: format!("http://127.0.0.1:{port}"),
            calls,
        }
    }

    /// The calls recorded so far whose path starts with `prefix`.
    pub fn calls_to(&self, prefix: &str) -> Vec<ProviderCall> {
        self.calls
            .lock()
            .unwrap()
            .iter()
            .filter(|c| c.path.starts_with(prefix))
            .cloned()
            .collect()
    }
}

/// A bank details body that passes validation.
pub fn bank_body() -> Value {
    json!({
        "accountHolderName": "Ada Lovelace",
        "accountNumber": "000123456789",
        "bankCode": "110000000",
        "bankName": "First Test Bank",
        "contactData": { "name": "Ada Lovelace", "email": "ada@example.com", "contact": "+1 555 010 0200" },
    })
}
