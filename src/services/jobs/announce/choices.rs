//! A reader's email choice per author, and the signed one-click unsubscribe tokens.

use super::*;

/// Purpose of the unsubscribe token's signature.
pub(super) const UNSUBSCRIBE_PURPOSE: &str = "post-email:unsubscribe:";
/// Reads the author's choice stored with a post (`emailOnPublish`, yes when unset).
pub async fn email_choice(state: &AppState, post: ObjectId) -> bool {
    post_mail::email_choice(&state.db, post).await
}

/// Stores the author's choice with the post, for when it publishes (a scheduled post).
pub async fn store_email_choice(state: &AppState, post: ObjectId, send: bool) {
    let r = state
        .db
        .database()
        .collection::<mongodb::bson::Document>(posts::COLLECTION)
        .update_one(
            doc! { "_id": post },
            doc! { "$set": { "emailOnPublish": send } },
        )
        .await;
    if let Err(e) = r {
        tracing::warn!(error = %e, "could not store the email choice of a post");
    }
}

pub(super) fn signature(secret: &[u8], payload: &str) -> Option<String> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).ok()?;
    mac.update(UNSUBSCRIBE_PURPOSE.as_bytes());
    mac.update(payload.as_bytes());
    Some(hex::encode(mac.finalize().into_bytes()))
}

/// The token of an unsubscribe link: who, from which author (for a series follower: which
/// series), signed with the server secret.
pub fn unsubscribe_token(secret: &[u8], author: ObjectId, who: Recipient) -> String {
    let payload = match who {
        Recipient::Follower(id) => format!("f.{}.{}", author.to_hex(), id.to_hex()),
        Recipient::Subscriber(id) => format!("s.{}.{}", author.to_hex(), id.to_hex()),
        Recipient::SeriesFollower(id) => format!("r.{}.{}", author.to_hex(), id.to_hex()),
    };
    let sig = signature(secret, &payload).unwrap_or_default();
    format!("{payload}.{sig}")
}

/// The author and recipient an unsubscribe token names, when its signature is right.
pub fn verify_unsubscribe_token(secret: &[u8], token: &str) -> Option<(ObjectId, Recipient)> {
    let token = token.trim();
    let (payload, given) = token.rsplit_once('.')?;
    let mut parts = payload.split('.');
    let kind = parts.next()?;
    let author = ObjectId::parse_str(parts.next()?).ok()?;
    let who = ObjectId::parse_str(parts.next()?).ok()?;
    if parts.next().is_some() {
        return None;
    }
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).ok()?;
    mac.update(UNSUBSCRIBE_PURPOSE.as_bytes());
    mac.update(payload.as_bytes());
    mac.verify_slice(&hex::decode(given).ok()?).ok()?;
    let who = match kind {
        "f" => Recipient::Follower(who),
        "s" => Recipient::Subscriber(who),
        "r" => Recipient::SeriesFollower(who),
        _ => return None,
    };
    Some((author, who))
}
