//! The hub actor: which sockets are connected, which rooms they joined and which user they
//! belong to; fans server events out to them. Sessions get events through bounded mailboxes:
//! a full mailbox means a slow client, which is closed rather than waited for.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use actix::{Actor, Addr, Context, Handler, Message};

use crate::{
    events::ServerEvent,
    socketio::{
        namespace::SocketId,
        session::{Deliver, DisconnectSocket, Outbound, Overflowed, Session},
        sio::ROOT_NAMESPACE,
    },
};

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

/// Sent by the [`crate::Realtime`] handle and the presence actor: emit `event` on the main
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
}

/// Sent by a session when a socket connected to a namespace.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Register {
    pub(crate) socket: SocketId,
    pub(crate) nsp: Arc<str>,
    pub(crate) user: Option<Arc<str>>,
    pub(crate) session: Addr<Session>,
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

/// Sent by the [`crate::Realtime`] handle when a user's token was revoked: every socket of
/// the user gets a DISCONNECT and its connection is closed.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct DisconnectUser {
    pub(crate) user_id: String,
}

/// Sent by tests and diagnostics: how many sockets are in `room` (all sockets if `None`).
#[derive(Message)]
#[rtype(result = "usize")]
pub(crate) struct CountMembers {
    pub(crate) room: Option<String>,
}

struct Member {
    session: Addr<Session>,
    nsp: Arc<str>,
    user: Option<Arc<str>>,
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

fn deliver(member: &mut Member, out: &Outbound) {
    if member.overflowed {
        return;
    }
    match member.session.try_send(Deliver(out.clone())) {
        Ok(()) => {}
        Err(actix::dev::SendError::Full(_)) => {
            member.overflowed = true;
            member.session.do_send(Overflowed);
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
                nsp: msg.nsp,
                user: msg.user,
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
        for room in member.rooms {
            if let Some(set) = self.rooms.get_mut(&room) {
                set.remove(&msg.socket);
                if set.is_empty() {
                    self.rooms.remove(&room);
                }
            }
        }
        if let Some(user) = member.user {
            if let Some(list) = self.users.get_mut(&user) {
                list.retain(|s| *s != msg.socket);
                if list.is_empty() {
                    self.users.remove(&user);
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
        if let Some(set) = self.rooms.get_mut(&msg.room) {
            set.remove(&msg.socket);
            if set.is_empty() {
                self.rooms.remove(&msg.room);
            }
        }
    }
}

impl Handler<HubEmit> for Hub {
    type Result = ();

    fn handle(&mut self, msg: HubEmit, _: &mut Context<Self>) {
        let out = msg.event.encode(ROOT_NAMESPACE);
        let except = msg.except;
        let send = |id: &SocketId, sockets: &mut HashMap<SocketId, Member>| {
            if Some(*id) == except {
                return;
            }
            if let Some(member) = sockets.get_mut(id) {
                if &*member.nsp == ROOT_NAMESPACE {
                    deliver(member, &out);
                }
            }
        };
        match &msg.target {
            Target::All => {
                for (id, member) in &mut self.sockets {
                    if Some(*id) != except && &*member.nsp == ROOT_NAMESPACE {
                        deliver(member, &out);
                    }
                }
            }
            Target::Room(room) => {
                if let Some(ids) = self.rooms.get(room.as_str()) {
                    for id in ids {
                        send(id, &mut self.sockets);
                    }
                }
            }
            Target::User(user) => {
                if let Some(ids) = self.users.get(user.as_str()) {
                    for id in ids {
                        send(id, &mut self.sockets);
                    }
                }
            }
            Target::Socket(id) => send(id, &mut self.sockets),
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
                member.session.do_send(DisconnectSocket {
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
