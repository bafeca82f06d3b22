//! The rooms adapter (the hub actor): which sockets are connected, which rooms they joined and which user they
//! belong to; fans server events out to them. An event for a websocket connection is written
//! to its socket here (through the connection's `Link`); a connection that may still
//! upgrade from long-polling gets it through its session's bounded mailbox. Either way a
//! client that does not keep up (a full backlog or mailbox) is closed rather than waited for.

use std::{
    collections::{HashMap, HashSet},
    num::NonZeroUsize,
    sync::{Arc, OnceLock},
};

use actix::{Actor, Context, Handler, Message};
use bytes::Bytes;

use super::{
    eio::{Frame, Outbound},
    ids::SocketId,
    mailbox::{Command, SessionRef},
    sio::{encode_event, ROOT_NAMESPACE},
    websocket::{self, Link, Pushed},
};
use crate::{events::ServerEvent, shrink};

/// Room of the administrators.
pub const ADMIN_ROOM: &str = "adminRoom";

/// Room of one user's sockets (`user:{id}`).
pub fn user_room(user_id: &str) -> String {
    format!("user:{user_id}")
}

/// Who receives an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Every socket of the main namespace.
    All,
    /// Sockets that joined the room.
    Room(String),
    /// Every socket authenticated as the user (all tabs).
    User(String),
    /// One socket.
    Socket(SocketId),
}

/// Sent by the [`crate::realtime::Realtime`] handle and the presence actor: emit `event` on the main
/// namespace to `target`, skipping `except`.
#[derive(Message, Debug, Clone)]
#[rtype(result = "()")]
pub struct HubEmit {
    /// Receivers.
    pub target: Target,
    /// A socket left out (typically the sender).
    pub except: Option<SocketId>,
    /// The event.
    pub event: ServerEvent,
    /// When it was emitted (on this node; when it arrived, for another node's): the fan-out
    /// time is measured from here.
    pub emitted: std::time::Instant,
}

/// Sent by a session when a socket connected to a namespace.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Register {
    pub(crate) socket: SocketId,
    pub(crate) nsp: Arc<str>,
    pub(crate) user: Option<Arc<str>>,
    /// The sign-in session (token id) of the socket's user.
    pub(crate) login: Option<Arc<str>>,
    pub(crate) session: SessionRef,
    /// The connection's websocket, when the hub may write to it directly.
    pub(crate) link: Option<Arc<Link>>,
}

/// Sent by a session when a socket left its namespace or the connection closed.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Unregister {
    pub(crate) socket: SocketId,
}

/// Sent by a socket handle: add the socket to a room.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct JoinRoom {
    pub(crate) socket: SocketId,
    pub(crate) room: Arc<str>,
}

/// Sent by a socket handle: remove the socket from a room.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct LeaveRoom {
    pub(crate) socket: SocketId,
    pub(crate) room: Arc<str>,
}

/// Sent by the [`crate::realtime::Realtime`] handle when a user's token was revoked: every socket of
/// the user gets a DISCONNECT and its connection is closed.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct DisconnectUser {
    pub(crate) user_id: String,
    /// Only the sockets of this sign-in session, when given.
    pub(crate) login: Option<String>,
}

/// Sent by tests and diagnostics: how many sockets are in `room` (all sockets if `None`).
#[derive(Message)]
#[rtype(result = "usize")]
pub(crate) struct CountMembers {
    pub(crate) room: Option<String>,
}

struct Member {
    session: SessionRef,
    link: Option<Arc<Link>>,
    nsp: Arc<str>,
    user: Option<Arc<str>>,
    login: Option<Arc<str>>,
    rooms: Vec<Arc<str>>,
    overflowed: bool,
}

/// Rooms, users and fan-out. Started once per process.
#[derive(Default)]
pub(crate) struct Hub {
    sockets: HashMap<SocketId, Member>,
    rooms: HashMap<Arc<str>, HashSet<SocketId>>,
    users: HashMap<Arc<str>, Vec<SocketId>>,
}

impl Actor for Hub {
    type Context = Context<Self>;
}

/// Hands frames to a session through its mailbox (a connection that may still upgrade).
fn deliver(member: &mut Member, out: &Outbound) {
    match member.session.try_send(Command::Deliver(out.clone())) {
        Ok(()) => {}
        Err(actix::dev::SendError::Full(_)) => {
            member.overflowed = true;
            member.session.do_send(Command::Overflowed);
        }
        Err(actix::dev::SendError::Closed(_)) => {}
    }
}

impl Handler<Register> for Hub {
    type Result = ();

    fn handle(&mut self, msg: Register, _: &mut Context<Self>) {
        if let Some(user) = &msg.user {
            self.users.entry(user.clone()).or_default().push(msg.socket);
        }
        self.sockets.insert(
            msg.socket,
            Member {
                session: msg.session,
                link: msg.link,
                nsp: msg.nsp,
                user: msg.user,
                login: msg.login,
                rooms: Vec::new(),
                overflowed: false,
            },
        );
    }
}

impl Handler<Unregister> for Hub {
    type Result = ();

    fn handle(&mut self, msg: Unregister, _: &mut Context<Self>) {
        let Some(member) = self.sockets.remove(&msg.socket) else {
            return;
        };
        shrink::when_sparse(&mut self.sockets);
        for room in member.rooms {
            self.leave_room(&room, msg.socket);
        }
        if let Some(user) = member.user {
            if let Some(list) = self.users.get_mut(&user) {
                list.retain(|s| *s != msg.socket);
                if list.is_empty() {
                    self.users.remove(&user);
                    shrink::when_sparse(&mut self.users);
                }
            }
        }
    }
}

impl Handler<JoinRoom> for Hub {
    type Result = ();

    fn handle(&mut self, msg: JoinRoom, _: &mut Context<Self>) {
        let Some(member) = self.sockets.get_mut(&msg.socket) else {
            return;
        };
        if member.rooms.contains(&msg.room) {
            return;
        }
        member.rooms.push(msg.room.clone());
        self.rooms.entry(msg.room).or_default().insert(msg.socket);
    }
}

impl Handler<LeaveRoom> for Hub {
    type Result = ();

    fn handle(&mut self, msg: LeaveRoom, _: &mut Context<Self>) {
        if let Some(member) = self.sockets.get_mut(&msg.socket) {
            member.rooms.retain(|r| *r != msg.room);
        }
        self.leave_room(&msg.room, msg.socket);
    }
}

impl Hub {
    /// Takes `socket` out of `room`, dropping the room once empty (and giving back the room
    /// the tables no longer need).
    fn leave_room(&mut self, room: &str, socket: SocketId) {
        let Some(set) = self.rooms.get_mut(room) else {
            return;
        };
        set.remove(&socket);
        if set.is_empty() {
            self.rooms.remove(room);
            shrink::when_sparse(&mut self.rooms);
        } else {
            shrink::when_sparse(set);
        }
    }

    /// The sockets of the main namespace that `target` names, but `except`.
    fn targets(&self, target: &Target, except: Option<SocketId>) -> Vec<SocketId> {
        let listed = |ids: &mut dyn Iterator<Item = &SocketId>| -> Vec<SocketId> {
            ids.filter(|id| Some(**id) != except)
                .filter(|id| {
                    self.sockets
                        .get(id)
                        .is_some_and(|m| &*m.nsp == ROOT_NAMESPACE)
                })
                .copied()
                .collect()
        };
        match target {
            Target::All => listed(&mut self.sockets.keys()),
            Target::Room(room) => self
                .rooms
                .get(room.as_str())
                .map(|ids| listed(&mut ids.iter()))
                .unwrap_or_default(),
            Target::User(user) => self
                .users
                .get(user.as_str())
                .map(|ids| listed(&mut ids.iter()))
                .unwrap_or_default(),
            Target::Socket(id) => listed(&mut std::iter::once(id)),
        }
    }
}

/// Recipients per writing thread below which a fan-out is not split across threads.
const FAN_OUT_CHUNK_MIN: usize = 512;

fn parallelism() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
}

/// Writes `frames` to every link, split across the cores when there are many: the work of a
/// broadcast is the system calls, one per recipient. Returns the links that need their
/// session (a flush to start, an overflow to close).
fn fan_out(links: &[(SocketId, &Link)], frames: &[Frame]) -> Vec<(SocketId, Pushed)> {
    if links.is_empty() {
        return Vec::new();
    }
    // Encoded once: every recipient gets the same bytes (server frames are not masked).
    let encoded: Vec<Bytes> = frames.iter().map(websocket::encode).collect();
    let write = |chunk: &[(SocketId, &Link)]| -> Vec<(SocketId, Pushed)> {
        chunk
            .iter()
            .filter_map(|(id, link)| match link.push_encoded(&encoded) {
                Pushed::Sent | Pushed::Queued | Pushed::Closed => None,
                pushed @ (Pushed::StartFlush | Pushed::Overflow) => Some((*id, pushed)),
            })
            .collect()
    };
    let threads = parallelism().min(links.len() / FAN_OUT_CHUNK_MIN).max(1);
    if threads == 1 {
        return write(links);
    }
    let mut chunks = links.chunks(links.len().div_ceil(threads));
    std::thread::scope(|scope| {
        let first = chunks.next().unwrap_or_default();
        let others: Vec<_> = chunks
            .map(|chunk| scope.spawn(move || write(chunk)))
            .collect();
        let mut follow_ups = write(first);
        for other in others {
            // A panicking writer thread loses its follow-ups; the sessions still close on
            // their own (ping timeout) if their clients stalled.
            follow_ups.extend(other.join().unwrap_or_default());
        }
        follow_ups
    })
}

impl Handler<HubEmit> for Hub {
    type Result = ();

    fn handle(&mut self, msg: HubEmit, _: &mut Context<Self>) {
        let out = encode_event(&msg.event, ROOT_NAMESPACE);
        let mut links = Vec::new();
        let mut mailboxes = Vec::new();
        for id in self.targets(&msg.target, msg.except) {
            match self.sockets.get(&id) {
                Some(member) if member.overflowed => {}
                Some(Member {
                    link: Some(link), ..
                }) => links.push((id, &**link)),
                Some(_) => mailboxes.push(id),
                None => {}
            }
        }
        let follow_ups = fan_out(&links, out.frames());
        drop(links);
        for (id, pushed) in follow_ups {
            let Some(member) = self.sockets.get_mut(&id) else {
                continue;
            };
            if pushed == Pushed::Overflow {
                member.overflowed = true;
                member.session.do_send(Command::Overflowed);
            } else {
                member.session.do_send(Command::FlushLink);
            }
        }
        for id in mailboxes {
            if let Some(member) = self.sockets.get_mut(&id) {
                deliver(member, &out);
            }
        }
        if crate::metrics::enabled() {
            crate::metrics::EVENTS
                .with_label_values(&[msg.event.name()])
                .inc();
            crate::metrics::FANOUT.observe(msg.emitted.elapsed().as_secs_f64());
        }
    }
}

impl Handler<DisconnectUser> for Hub {
    type Result = ();

    fn handle(&mut self, msg: DisconnectUser, _: &mut Context<Self>) {
        let Some(ids) = self.users.get(msg.user_id.as_str()) else {
            return;
        };
        for id in ids {
            if let Some(member) = self.sockets.get(id) {
                if let Some(login) = &msg.login {
                    if member.login.as_deref() != Some(login.as_str()) {
                        continue;
                    }
                }
                member.session.do_send(Command::Disconnect {
                    socket: *id,
                    close_connection: true,
                });
            }
        }
    }
}

impl Handler<CountMembers> for Hub {
    type Result = usize;

    fn handle(&mut self, msg: CountMembers, _: &mut Context<Self>) -> usize {
        match msg.room {
            None => self.sockets.len(),
            Some(room) => self.rooms.get(room.as_str()).map_or(0, HashSet::len),
        }
    }
}
