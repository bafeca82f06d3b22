//! One batch of recipients: who they are, what they are sent, and the tally of a run.

use super::*;

/// Who an unsubscribe link is for: a follower (a user), an email-only subscriber, or a
/// follower of the post's series (a user).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recipient {
    Follower(ObjectId),
    Subscriber(ObjectId),
    SeriesFollower(ObjectId),
}

/// The `_id` of the notice of `post` to `reader`, the same whoever stores it: its first four
/// bytes are the post id's (the time the post was created), the other eight a hash of both ids,
/// so a batch gone through twice stores each notice once.
pub(super) fn notice_id(post: ObjectId, reader: ObjectId) -> ObjectId {
    use sha2::Digest;
    let hash = Sha256::new()
        .chain_update(b"new_post")
        .chain_update(post.bytes())
        .chain_update(reader.bytes())
        .finalize();
    let mut bytes = [0u8; 12];
    bytes[..4].copy_from_slice(&post.bytes()[..4]);
    bytes[4..].copy_from_slice(&hash[..8]);
    ObjectId::from_bytes(bytes)
}

/// One email to send: the address (lower-cased), who it is for, whether they get the full text.
pub(super) struct Candidate {
    pub(super) address: String,
    pub(super) who: Recipient,
    pub(super) full: bool,
    pub(super) user: Option<ObjectId>,
}

/// How one email went.
pub(super) struct Sent {
    pub(super) address: String,
    pub(super) success: bool,
    pub(super) permanent: bool,
    pub(super) error: Option<String>,
    /// Its email log entry, stored with the batch's.
    pub(super) log: crate::persistence::email_logs::EmailLog,
}

impl Candidate {
    /// What its claim keeps besides the address: who it is for and which worker claimed it, so
    /// the email can be composed again when that worker stops before settling it.
    pub(super) fn claim_fields(&self, owner: &str) -> mongodb::bson::Document {
        let (kind, id) = match self.who {
            Recipient::Follower(id) => ("follower", id),
            Recipient::Subscriber(id) => ("subscriber", id),
            Recipient::SeriesFollower(id) => ("series_follower", id),
        };
        doc! {
            "owner": owner,
            "recipient": kind,
            "recipientId": id,
            "full": self.full,
            "userId": self.user,
        }
    }

    /// The candidate a claim was taken for; `None` for a claim without its recipient.
    pub(super) fn of_claim(claim: &mongodb::bson::Document) -> Option<Self> {
        let id = claim.get_object_id("recipientId").ok()?;
        let who = match claim.get_str("recipient").ok()? {
            "follower" => Recipient::Follower(id),
            "subscriber" => Recipient::Subscriber(id),
            "series_follower" => Recipient::SeriesFollower(id),
            _ => return None,
        };
        Some(Candidate {
            address: claim.get_str("to").ok()?.to_string(),
            who,
            full: claim.get_bool("full").unwrap_or(false),
            user: claim.get_object_id("userId").ok(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_id_is_one_per_post_and_reader() {
        let (p, q) = (ObjectId::new(), ObjectId::new());
        let (a, b) = (ObjectId::new(), ObjectId::new());
        assert_eq!(notice_id(p, a), notice_id(p, a));
        assert_ne!(notice_id(p, a), notice_id(p, b));
        assert_ne!(notice_id(p, a), notice_id(q, a));
        assert_eq!(notice_id(p, a).timestamp(), p.timestamp());
    }
}
