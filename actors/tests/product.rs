//! The product's main namespace over the long-polling transport, in process: token
//! authentication, join rules, per-user and per-room emits, revocation and presence.

// Test helpers fail the test loudly on unexpected input.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{sync::Arc, time::Duration};

use actix_web::{
    body::MessageBody,
    dev::{Service, ServiceResponse},
    test, App,
};
use futures_util::future::BoxFuture;
use pressroom_actors::{
    events::{NewAppeal, UpdateUnreadCount},
    Identity, Realtime, RealtimeConfig, SocketAuth,
};
use serde_json::{json, Value};

const PING_INTERVAL: Duration = Duration::from_millis(400);
const PRESENCE_WINDOW: Duration = Duration::from_millis(50);

/// Tokens are user names; `admin` is an administrator, `revoked` is refused.
struct FakeAuth;

impl SocketAuth for FakeAuth {
    fn authenticate(
        &self,
        token: Option<String>,
    ) -> BoxFuture<'static, Result<Option<Identity>, String>> {
        Box::pin(async move {
            match token.as_deref() {
                None => Ok(None),
                Some("revoked") => Err("Token revoked".to_owned()),
                Some(user) => Ok(Some(Identity {
                    user_id: user.to_owned(),
                    is_admin: user == "admin",
                    session: None,
                })),
            }
        })
    }
}

fn realtime() -> Realtime {
    Realtime::start(
        RealtimeConfig {
            ping_interval: PING_INTERVAL,
            presence_coalesce: PRESENCE_WINDOW,
            ..RealtimeConfig::default()
        },
        Arc::new(FakeAuth),
    )
}

async fn body_text<B: MessageBody>(response: ServiceResponse<B>) -> String
where
    B::Error: std::fmt::Debug,
{
    String::from_utf8(test::read_body(response).await.to_vec()).unwrap()
}

/// Longest wait for an expected packet.
const PATIENCE: Duration = Duration::from_secs(5);

/// One polling client; packets received but not yet looked at wait in `inbox`.
struct Client {
    sid: String,
    inbox: std::cell::RefCell<std::collections::VecDeque<String>>,
}

impl Client {
    async fn open<S, B>(app: &S) -> Client
    where
        S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
        B: MessageBody,
        B::Error: std::fmt::Debug,
    {
        let req = test::TestRequest::get()
            .uri("/socket.io/?EIO=4&transport=polling")
            .to_request();
        let body = body_text(test::call_service(app, req).await).await;
        let open: Value = serde_json::from_str(&body[1..]).unwrap();
        Client {
            sid: open["sid"].as_str().unwrap().to_owned(),
            inbox: Default::default(),
        }
    }

    fn uri(&self) -> String {
        format!("/socket.io/?EIO=4&transport=polling&sid={}", self.sid)
    }

    async fn send<S, B>(&self, app: &S, payload: &str)
    where
        S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
        B: MessageBody,
        B::Error: std::fmt::Debug,
    {
        let req = test::TestRequest::post()
            .uri(&self.uri())
            .set_payload(payload.to_owned())
            .to_request();
        assert_eq!(body_text(test::call_service(app, req).await).await, "ok");
    }

    /// Packets of the next poll (pings answered and left out); may be empty.
    async fn poll<S, B>(&self, app: &S) -> Vec<String>
    where
        S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
        B: MessageBody,
        B::Error: std::fmt::Debug,
    {
        let req = test::TestRequest::get().uri(&self.uri()).to_request();
        let response = test::call_service(app, req).await;
        let status = response.status();
        let body = body_text(response).await;
        if !status.is_success() {
            return vec![format!("HTTP {status}")];
        }
        if body.split('\x1e').any(|p| p == "2") {
            self.send(app, "3").await;
        }
        body.split('\x1e')
            .filter(|p| *p != "2")
            .map(str::to_owned)
            .collect()
    }

    /// The first packet starting with `prefix`, earlier ones dropped; polls as needed.
    async fn wait_for<S, B>(&self, app: &S, prefix: &str) -> String
    where
        S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
        B: MessageBody,
        B::Error: std::fmt::Debug,
    {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            loop {
                let next = self.inbox.borrow_mut().pop_front();
                match next {
                    Some(packet) if packet.starts_with(prefix) => return packet,
                    Some(_) => {}
                    None => break,
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "no packet starting with {prefix}"
            );
            let packets = self.poll(app).await;
            self.inbox.borrow_mut().extend(packets);
        }
    }
}

fn event(packet: &str) -> Value {
    serde_json::from_str(packet.strip_prefix("42").unwrap()).unwrap()
}

#[actix_web::test]
async fn a_guest_connects_and_is_told_the_online_count() {
    let rt = realtime();
    let app = test::init_service(App::new().configure(|c| rt.configure(c))).await;
    let guest = Client::open(&app).await;
    guest.send(&app, "40").await;
    let connected = guest.wait_for(&app, "40").await;
    assert!(connected.starts_with("40{\"sid\":"), "{connected}");
    let count = guest.wait_for(&app, "42[\"onlineUsersCount\"").await;
    assert_eq!(event(&count), json!(["onlineUsersCount", 1]));
    assert_eq!(rt.online().await.guests, 1);
}

#[actix_web::test]
async fn a_refused_token_gets_connect_error_with_its_message() {
    let rt = realtime();
    let app = test::init_service(App::new().configure(|c| rt.configure(c))).await;
    let client = Client::open(&app).await;
    client.send(&app, "40{\"token\":\"revoked\"}").await;
    assert_eq!(
        client.wait_for(&app, "44").await,
        "44{\"message\":\"Token revoked\"}"
    );
    assert_eq!(rt.online().await.sockets, 0);
}

#[actix_web::test]
async fn join_is_accepted_only_for_the_own_id_and_admin_room_only_for_admins() {
    let rt = realtime();
    let app = test::init_service(App::new().configure(|c| rt.configure(c))).await;
    let alice = Client::open(&app).await;
    alice.send(&app, "40{\"token\":\"alice\"}").await;
    alice.wait_for(&app, "40").await;
    let admin = Client::open(&app).await;
    admin.send(&app, "40{\"token\":\"admin\"}").await;
    admin.wait_for(&app, "40").await;

    let cases = [
        (&alice, "421[\"join\",\"alice\"]", "431[true]"),
        (&alice, "422[\"join\",\"bob\"]", "432[false]"),
        (&alice, "423[\"join\",\"adminRoom\"]", "433[false]"),
        (&admin, "424[\"join\",\"adminRoom\"]", "434[true]"),
    ];
    for (client, join, answer) in cases {
        client.send(&app, join).await;
        assert_eq!(client.wait_for(&app, "43").await, answer, "case {join}");
    }
    assert_eq!(rt.count_sockets(Some("user:alice")).await, 1);
    assert_eq!(rt.count_sockets(Some("user:bob")).await, 0);
    assert_eq!(rt.count_sockets(Some("adminRoom")).await, 1);

    rt.emit_room(
        "adminRoom",
        NewAppeal {
            post_id: "p1".into(),
            post_title: "Title".into(),
        },
    );
    let appeal = admin.wait_for(&app, "42[\"newAppeal\"").await;
    assert_eq!(event(&appeal), json!(["newAppeal", "p1", "Title"]));
}

#[actix_web::test]
async fn an_emit_to_a_user_reaches_every_tab_and_a_revocation_closes_them() {
    let rt = realtime();
    let app = test::init_service(App::new().configure(|c| rt.configure(c))).await;
    let tab1 = Client::open(&app).await;
    let tab2 = Client::open(&app).await;
    let other = Client::open(&app).await;
    for (client, token) in [(&tab1, "alice"), (&tab2, "alice"), (&other, "carol")] {
        client
            .send(&app, &format!("40{{\"token\":\"{token}\"}}"))
            .await;
        client.wait_for(&app, "40").await;
    }
    let online = rt.online().await;
    assert_eq!(
        online.user_ids,
        vec!["alice".to_owned(), "carol".to_owned()]
    );
    assert_eq!(online.sockets, 3);

    rt.emit_user("alice", UpdateUnreadCount { count: 5 });
    for tab in [&tab1, &tab2] {
        let update = tab.wait_for(&app, "42[\"updateUnreadCount\"").await;
        assert_eq!(event(&update), json!(["updateUnreadCount", 5]));
    }

    rt.disconnect_user("alice");
    for tab in [&tab1, &tab2] {
        assert_eq!(tab.wait_for(&app, "41").await, "41");
    }
    assert_eq!(tab1.wait_for(&app, "HTTP").await, "HTTP 400 Bad Request");
    tokio::time::sleep(PRESENCE_WINDOW).await;
    assert_eq!(rt.online().await.user_ids, vec!["carol".to_owned()]);
}

#[actix_web::test]
async fn user_status_is_sent_for_the_first_tab_only() {
    let rt = realtime();
    let app = test::init_service(App::new().configure(|c| rt.configure(c))).await;
    let watcher = Client::open(&app).await;
    watcher.send(&app, "40").await;
    watcher.wait_for(&app, "40").await;

    let tab1 = Client::open(&app).await;
    tab1.send(&app, "40{\"token\":\"dave\"}").await;
    let status = watcher.wait_for(&app, "42[\"userStatus\"").await;
    assert_eq!(event(&status), json!(["userStatus", "dave", true]));

    let tab2 = Client::open(&app).await;
    tab2.send(&app, "40{\"token\":\"dave\"}").await;
    tab2.wait_for(&app, "40").await;
    tab1.send(&app, "1").await;
    tab2.send(&app, "1").await;
    let status = watcher.wait_for(&app, "42[\"userStatus\"").await;
    assert_eq!(event(&status), json!(["userStatus", "dave", false]));
}

#[actix_web::test]
async fn a_revoked_polling_socket_gets_its_disconnect_in_a_poll_before_the_close() {
    let rt = realtime();
    let app = test::init_service(App::new().configure(|c| rt.configure(c))).await;
    let tab = Client::open(&app).await;
    tab.send(&app, "40{\"token\":\"erin\"}").await;
    tab.wait_for(&app, "40").await;
    // Drain what connecting queued (the online count), so the next poll holds only what follows.
    tokio::time::sleep(PRESENCE_WINDOW).await;
    while !tab.poll(&app).await.is_empty() {}

    rt.disconnect_user("erin");
    tokio::time::sleep(Duration::from_millis(50)).await;
    // socket.io-client handles the packets of a payload a tick after a close packet in the same
    // payload, so the DISCONNECT must not share its payload with the close.
    let first = tab.poll(&app).await;
    assert!(first.iter().any(|p| p == "41"), "{first:?}");
    assert!(!first.iter().any(|p| p == "1"), "{first:?}");
    assert_eq!(tab.poll(&app).await, vec!["6".to_owned(), "1".to_owned()]);
}
