//! The broker: carries emits and presence notices between the nodes of one deployment.
//!
//! - `local` (no [`Cluster`] given): every emit goes to this process's hub only, as on one node.
//! - `redis` (a [`Cluster`] given by the server crate, which owns the Redis connections): every
//!   emit goes to this node's hub and is published once for the other nodes, which apply it to
//!   their own hubs. The hub stays the only thing that writes to sockets.
//!
//! A message names the node it comes from; a node ignores its own (it applied them already).
//! A socket id is only unique within its process, so a message that names a socket (one
//! receiver, or one left out) names its node too.
//!
//! The message format is JSON with a fixed field order, so its bytes are stable:
//!
//! ```text
//! {"kind":"emit","from":"n1","to":{"type":"room","id":"adminRoom"},"except":null,"event":"newAppeal","args":["p1","Title"]}
//! {"kind":"disconnectUser","from":"n1","user":"u1"}
//! {"kind":"count","from":"n1","version":17,"count":3}
//! {"kind":"notice","from":"n1","topic":"banners","data":null}
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{events::ServerEvent, socketio::ids::SocketId, socketio::rooms::Target};

/// Publishes messages to the other nodes (Redis pub/sub in the server crate).
pub trait Transport: Send + Sync + 'static {
    /// Publishes one encoded message, in the order of the calls. Fire and forget: while the
    /// transport is down the message is dropped and the node serves its own sockets only.
    fn publish(&self, message: Vec<u8>);
}

/// A socket of some node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeSocket {
    /// The node.
    pub node: String,
    /// The socket id in that node.
    pub socket: u64,
}

/// Receivers of an emit, as sent between nodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "id", rename_all = "camelCase")]
pub enum WireTarget {
    /// Every socket of the main namespace.
    All,
    /// A room.
    Room(String),
    /// Every socket of a user.
    User(String),
    /// One socket.
    Socket(NodeSocket),
}

/// One message between nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Message {
    /// Emit `event` with `args` to `to`, but `except`.
    Emit {
        /// The node that emitted it.
        from: String,
        /// Receivers.
        to: WireTarget,
        /// A socket left out.
        except: Option<NodeSocket>,
        /// Event name.
        event: String,
        /// Event arguments.
        args: Vec<Value>,
    },
    /// Disconnect every socket of `user` (token revoked).
    #[serde(rename_all = "camelCase")]
    DisconnectUser {
        /// The node that asked.
        from: String,
        /// The user.
        user: String,
        /// Only this sign-in session's sockets, when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        session: Option<String>,
    },
    /// Live state of the server changed on another node (`topic` names what; `data` is the
    /// server's own): the server crate applies it.
    Notice {
        /// The node where it changed.
        from: String,
        /// What changed (`banners`, ...).
        topic: String,
        /// Details, as the server sent them.
        data: Value,
    },
    /// The cluster-wide online count changed.
    Count {
        /// The node that changed it.
        from: String,
        /// Version of the count (the highest wins).
        version: u64,
        /// Sockets connected across the cluster.
        count: usize,
    },
}

impl Message {
    /// An emit from `node`.
    pub fn emit(
        node: &str,
        target: &Target,
        except: Option<SocketId>,
        event: &ServerEvent,
    ) -> Self {
        let on_node = |socket: SocketId| NodeSocket {
            node: node.to_owned(),
            socket: socket.raw(),
        };
        Message::Emit {
            from: node.to_owned(),
            to: match target {
                Target::All => WireTarget::All,
                Target::Room(room) => WireTarget::Room(room.clone()),
                Target::User(user) => WireTarget::User(user.clone()),
                Target::Socket(socket) => WireTarget::Socket(on_node(*socket)),
            },
            except: except.map(on_node),
            event: event.name().to_owned(),
            args: event.args().to_vec(),
        }
    }

    /// The node the message comes from.
    pub fn from(&self) -> &str {
        match self {
            Message::Emit { from, .. }
            | Message::DisconnectUser { from, .. }
            | Message::Notice { from, .. }
            | Message::Count { from, .. } => from,
        }
    }

    /// The bytes sent.
    pub fn encode(&self) -> Vec<u8> {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Parses bytes received from another node.
    pub fn decode(bytes: &[u8]) -> Result<Self, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// For an emit received by `node`: its receivers and the socket left out there, or `None`
    /// when it names one socket of another node.
    pub(crate) fn local_target(
        node: &str,
        to: WireTarget,
        except: Option<NodeSocket>,
    ) -> Option<(Target, Option<SocketId>)> {
        let here = |s: NodeSocket| (s.node == node).then(|| SocketId::from_raw(s.socket));
        let target = match to {
            WireTarget::All => Target::All,
            WireTarget::Room(room) => Target::Room(room),
            WireTarget::User(user) => Target::User(user),
            WireTarget::Socket(socket) => Target::Socket(here(socket)?),
        };
        Some((target, except.and_then(here)))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::events::{NewAppeal, UserStatus};

    fn text(message: &Message) -> String {
        String::from_utf8(message.encode()).unwrap()
    }

    #[test]
    fn an_emit_to_a_room_is_encoded_with_fixed_bytes() {
        let event = ServerEvent::from(NewAppeal {
            post_id: "p1".into(),
            post_title: "Title".into(),
        });
        let message = Message::emit("n1", &Target::Room("adminRoom".into()), None, &event);
        assert_eq!(
            text(&message),
            r#"{"kind":"emit","from":"n1","to":{"type":"room","id":"adminRoom"},"except":null,"event":"newAppeal","args":["p1","Title"]}"#
        );
        assert_eq!(Message::decode(&message.encode()).unwrap(), message);
    }

    #[test]
    fn every_target_and_an_excepted_socket_name_their_node() {
        let event = ServerEvent::from(UserStatus {
            user_id: "u1".into(),
            is_online: true,
        });
        let cases = [
            (Target::All, r#"{"type":"all"}"#),
            (Target::User("u1".into()), r#"{"type":"user","id":"u1"}"#),
            (
                Target::Socket(SocketId::from_raw(7)),
                r#"{"type":"socket","id":{"node":"n1","socket":7}}"#,
            ),
        ];
        for (target, to) in cases {
            let message = Message::emit("n1", &target, Some(SocketId::from_raw(3)), &event);
            assert_eq!(
                text(&message),
                format!(
                    r#"{{"kind":"emit","from":"n1","to":{to},"except":{{"node":"n1","socket":3}},"event":"userStatus","args":["u1",true]}}"#
                )
            );
            assert_eq!(Message::decode(&message.encode()).unwrap(), message);
        }
    }

    #[test]
    fn revocations_and_counts_are_encoded_with_fixed_bytes() {
        let revoke = Message::DisconnectUser {
            from: "n2".into(),
            user: "u9".into(),
            session: None,
        };
        assert_eq!(
            text(&revoke),
            r#"{"kind":"disconnectUser","from":"n2","user":"u9"}"#
        );
        let count = Message::Count {
            from: "n2".into(),
            version: 17,
            count: 3,
        };
        assert_eq!(
            text(&count),
            r#"{"kind":"count","from":"n2","version":17,"count":3}"#
        );
        assert_eq!(
            Message::decode(br#"{"kind":"count","from":"n2","version":17,"count":3}"#).unwrap(),
            count
        );
    }

    #[test]
    fn a_socket_of_another_node_is_not_addressed_here() {
        let other = NodeSocket {
            node: "n2".into(),
            socket: 4,
        };
        let mine = NodeSocket {
            node: "n1".into(),
            socket: 4,
        };
        assert_eq!(
            Message::local_target("n1", WireTarget::Socket(other.clone()), None),
            None
        );
        assert_eq!(
            Message::local_target("n1", WireTarget::Socket(mine.clone()), None),
            Some((Target::Socket(SocketId::from_raw(4)), None))
        );
        // A socket left out on another node leaves nobody out here.
        assert_eq!(
            Message::local_target("n1", WireTarget::All, Some(other)),
            Some((Target::All, None))
        );
        assert_eq!(
            Message::local_target("n1", WireTarget::All, Some(mine)),
            Some((Target::All, Some(SocketId::from_raw(4))))
        );
    }

    #[test]
    fn malformed_messages_are_refused() {
        for bad in [
            &b""[..],
            b"{}",
            b"{\"kind\":\"emit\"}",
            b"\xff",
            br#"{"kind":"count","from":"n","version":-1,"count":0}"#,
        ] {
            assert!(Message::decode(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            Message::decode(br#"{"kind":"emit","from":"n","to":{"type":"all"},"except":null,"event":"x","args":[1]}"#)
                .unwrap(),
            Message::Emit {
                from: "n".into(),
                to: WireTarget::All,
                except: None,
                event: "x".into(),
                args: vec![json!(1)],
            }
        );
    }
}
