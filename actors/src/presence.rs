//! The presence actor: counts connected sockets (guests included) and users.
//!
//! - A socket that connects receives `onlineUsersCount` at once.
//! - When the count changes, everyone receives it, at most once per coalescing window: the
//!   first change is sent at once, later ones within the window are folded into one trailing
//!   broadcast of the latest count (skipped if the count came back to the last one sent).
//! - `userStatus` goes to everyone when a user's first socket connects and when their last
//!   one closes, so extra tabs and reconnects do not flap.

use std::{collections::HashMap, time::Duration};

use actix::{Actor, AsyncContext, Context, Handler, Message, MessageResult, Recipient};
use tokio::time::Instant;

use crate::{
    events::{OnlineUsersCount, UserStatus},
    hub::{HubEmit, Target},
    socketio::namespace::SocketId,
};

/// Who is online, for HTTP.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OnlineSnapshot {
    /// Ids of users with at least one connected socket, sorted.
    pub user_ids: Vec<String>,
    /// Connected sockets without a user (guests).
    pub guests: usize,
    /// All connected sockets.
    pub sockets: usize,
}

/// Sent by the main namespace when a socket connected.
#[derive(Message, Debug)]
#[rtype(result = "()")]
pub struct SocketUp {
    /// The socket.
    pub socket: SocketId,
    /// Its user, `None` for a guest.
    pub user: Option<String>,
}

/// Sent by the main namespace when a socket went away.
#[derive(Message, Debug)]
#[rtype(result = "()")]
pub struct SocketDown {
    /// The socket.
    pub socket: SocketId,
    /// Its user, `None` for a guest.
    pub user: Option<String>,
}

/// Sent by the [`crate::Realtime`] handle; the reply is who is online.
#[derive(Message, Debug)]
#[rtype(result = "OnlineSnapshot")]
pub struct GetOnline;

/// Counts and announces who is online. Started once per process.
pub struct Presence {
    hub: Recipient<HubEmit>,
    coalesce: Duration,
    sockets: usize,
    users: HashMap<String, usize>,
    last_broadcast: Option<Instant>,
    last_count_sent: Option<usize>,
    trailing_scheduled: bool,
}

impl Presence {
    /// A presence actor emitting through `hub`, broadcasting counts at most once per `coalesce`.
    pub fn new(hub: Recipient<HubEmit>, coalesce: Duration) -> Self {
        Presence {
            hub,
            coalesce,
            sockets: 0,
            users: HashMap::new(),
            last_broadcast: None,
            last_count_sent: None,
            trailing_scheduled: false,
        }
    }

    fn emit(&self, target: Target, event: impl Into<crate::events::ServerEvent>) {
        self.hub.do_send(HubEmit {
            target,
            except: None,
            event: event.into(),
        });
    }

    fn count_changed(&mut self, ctx: &mut Context<Self>) {
        if self.trailing_scheduled {
            return;
        }
        let now = Instant::now();
        match self.last_broadcast {
            Some(last) if now.duration_since(last) < self.coalesce => {
                self.trailing_scheduled = true;
                let wait = self.coalesce - now.duration_since(last);
                ctx.run_later(wait, |act, _| {
                    act.trailing_scheduled = false;
                    act.broadcast_count();
                });
            }
            _ => self.broadcast_count(),
        }
    }

    fn broadcast_count(&mut self) {
        if self.last_count_sent == Some(self.sockets) {
            return;
        }
        self.last_count_sent = Some(self.sockets);
        self.last_broadcast = Some(Instant::now());
        self.emit(
            Target::All,
            OnlineUsersCount {
                count: self.sockets,
            },
        );
    }
}

impl Actor for Presence {
    type Context = Context<Self>;
}

impl Handler<SocketUp> for Presence {
    type Result = ();

    fn handle(&mut self, msg: SocketUp, ctx: &mut Context<Self>) {
        self.sockets += 1;
        self.emit(
            Target::Socket(msg.socket),
            OnlineUsersCount {
                count: self.sockets,
            },
        );
        if let Some(user) = msg.user {
            let count = self.users.entry(user.clone()).or_insert(0);
            *count += 1;
            if *count == 1 {
                self.emit(
                    Target::All,
                    UserStatus {
                        user_id: user,
                        is_online: true,
                    },
                );
            }
        }
        self.count_changed(ctx);
    }
}

impl Handler<SocketDown> for Presence {
    type Result = ();

    fn handle(&mut self, msg: SocketDown, ctx: &mut Context<Self>) {
        self.sockets = self.sockets.saturating_sub(1);
        if let Some(user) = msg.user {
            if let Some(count) = self.users.get_mut(&user) {
                *count -= 1;
                if *count == 0 {
                    self.users.remove(&user);
                    self.emit(
                        Target::All,
                        UserStatus {
                            user_id: user,
                            is_online: false,
                        },
                    );
                }
            }
        }
        self.count_changed(ctx);
    }
}

impl Handler<GetOnline> for Presence {
    type Result = MessageResult<GetOnline>;

    fn handle(&mut self, _: GetOnline, _: &mut Context<Self>) -> Self::Result {
        let mut user_ids: Vec<String> = self.users.keys().cloned().collect();
        user_ids.sort();
        let user_sockets: usize = self.users.values().sum();
        MessageResult(OnlineSnapshot {
            user_ids,
            guests: self.sockets.saturating_sub(user_sockets),
            sockets: self.sockets,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use actix::{Actor, Addr};
    use serde_json::json;

    use super::*;
    use crate::events::ServerEvent;

    const WINDOW: Duration = Duration::from_millis(200);

    type Log = Arc<Mutex<Vec<(Target, ServerEvent)>>>;

    struct Recorder(Log);

    impl Actor for Recorder {
        type Context = Context<Self>;
    }

    impl Handler<HubEmit> for Recorder {
        type Result = ();

        fn handle(&mut self, msg: HubEmit, _: &mut Context<Self>) {
            self.0.lock().unwrap().push((msg.target, msg.event));
        }
    }

    fn start() -> (Addr<Presence>, Log) {
        let log = Log::default();
        let recorder = Recorder(log.clone()).start();
        let presence = Presence::new(recorder.recipient(), WINDOW).start();
        (presence, log)
    }

    async fn settle() {
        // Lets the presence and recorder mailboxes drain.
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    fn broadcasts_named(log: &Log, name: &str) -> Vec<Vec<serde_json::Value>> {
        log.lock()
            .unwrap()
            .iter()
            .filter(|(target, event)| *target == Target::All && event.name() == name)
            .map(|(_, event)| event.args().to_vec())
            .collect()
    }

    fn up(socket: u64, user: Option<&str>) -> SocketUp {
        SocketUp {
            socket: SocketId::from_raw(socket),
            user: user.map(str::to_owned),
        }
    }

    fn down(socket: u64, user: Option<&str>) -> SocketDown {
        SocketDown {
            socket: SocketId::from_raw(socket),
            user: user.map(str::to_owned),
        }
    }

    #[actix_rt::test]
    async fn a_connecting_socket_is_told_the_count_at_once() {
        let (presence, log) = start();
        presence.send(up(1, None)).await.unwrap();
        presence.send(up(2, Some("u1"))).await.unwrap();
        settle().await;
        let direct: Vec<_> = log
            .lock()
            .unwrap()
            .iter()
            .filter_map(|(target, event)| match target {
                Target::Socket(id) => Some((*id, event.args().to_vec())),
                _ => None,
            })
            .collect();
        assert_eq!(
            direct,
            vec![
                (SocketId::from_raw(1), vec![json!(1)]),
                (SocketId::from_raw(2), vec![json!(2)]),
            ]
        );
    }

    #[actix_rt::test]
    async fn a_burst_of_connections_gives_one_immediate_and_one_trailing_broadcast() {
        let (presence, log) = start();
        for socket in 0..50 {
            presence.send(up(socket, None)).await.unwrap();
        }
        settle().await;
        assert_eq!(
            broadcasts_named(&log, "onlineUsersCount"),
            vec![vec![json!(1)]]
        );

        tokio::time::sleep(WINDOW + Duration::from_millis(50)).await;
        settle().await;
        assert_eq!(
            broadcasts_named(&log, "onlineUsersCount"),
            vec![vec![json!(1)], vec![json!(50)]]
        );
    }

    #[actix_rt::test]
    async fn a_count_back_to_the_last_one_sent_is_not_broadcast_again() {
        let (presence, log) = start();
        presence.send(up(1, None)).await.unwrap();
        presence.send(up(2, None)).await.unwrap();
        presence.send(down(2, None)).await.unwrap();
        tokio::time::sleep(WINDOW + Duration::from_millis(50)).await;
        settle().await;
        assert_eq!(
            broadcasts_named(&log, "onlineUsersCount"),
            vec![vec![json!(1)]]
        );
    }

    #[actix_rt::test]
    async fn user_status_follows_the_first_and_last_socket_of_a_user() {
        let (presence, log) = start();
        presence.send(up(1, Some("u1"))).await.unwrap();
        presence.send(up(2, Some("u1"))).await.unwrap();
        presence.send(down(1, Some("u1"))).await.unwrap();
        settle().await;
        assert_eq!(
            broadcasts_named(&log, "userStatus"),
            vec![vec![json!("u1"), json!(true)]]
        );

        presence.send(down(2, Some("u1"))).await.unwrap();
        settle().await;
        assert_eq!(
            broadcasts_named(&log, "userStatus"),
            vec![
                vec![json!("u1"), json!(true)],
                vec![json!("u1"), json!(false)],
            ]
        );
    }

    #[actix_rt::test]
    async fn who_is_online_lists_users_and_counts_guests() {
        let (presence, _log) = start();
        presence.send(up(1, Some("u2"))).await.unwrap();
        presence.send(up(2, Some("u1"))).await.unwrap();
        presence.send(up(3, Some("u1"))).await.unwrap();
        presence.send(up(4, None)).await.unwrap();
        presence.send(up(5, None)).await.unwrap();
        presence.send(down(5, None)).await.unwrap();
        let online = presence.send(GetOnline).await.unwrap();
        assert_eq!(
            online,
            OnlineSnapshot {
                user_ids: vec!["u1".into(), "u2".into()],
                guests: 1,
                sockets: 4,
            }
        );
    }
}
