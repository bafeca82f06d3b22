//! One batch of recipients: who they are, what they are sent, and the tally of a run.

use super::*;

/// Who an unsubscribe link is for: a follower (a user) or an email-only subscriber.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recipient {
    Follower(ObjectId),
    Subscriber(ObjectId),
}

/// What one delivery did, to add up per batch.
#[derive(Default, Clone, Copy)]
pub(super) struct Tally {
    pub(super) notices: i64,
    pub(super) sent: i64,
    pub(super) failed: i64,
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
