//! Tips as clients see them: a tip for the reader who made it, the writer paid or an
//! administrator (the money rules are `tips`, the lists and moderation `tip_admin`).

use serde::Serialize;

use crate::persistence::tips::TipStatus;
use crate::post_view::iso;
use crate::services::billing::tip_admin::Listed;

/// A post a tip came for.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TipPost {
    pub id: String,
    pub title: String,
    pub slug: String,
}

/// A person on a tip.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TipPerson {
    pub id: String,
    pub name: String,
}

/// A tip as the reader who made it, the writer paid or an administrator sees it (amounts in the
/// currency's smallest unit).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TipView {
    pub id: String,
    pub post_id: String,
    /// The post, while it exists.
    pub post: Option<TipPost>,
    pub author_id: String,
    /// The writer, while their account exists.
    pub author: Option<TipPerson>,
    /// The reader, while their account exists.
    pub from: Option<TipPerson>,
    pub amount: i64,
    pub currency: String,
    /// The platform's share.
    pub fee: i64,
    /// What the writer receives.
    pub net: i64,
    pub message: Option<String>,
    /// Whether the reader is on the post's supporters list.
    pub public: bool,
    /// Whether the writer hid the message.
    pub hidden: bool,
    /// `pending`, `succeeded`, `failed` or `refunded` (a refund under way reads `succeeded`).
    pub status: TipStatus,
    pub refunded_at: Option<String>,
    pub created_at: String,
    pub mode: String,
}

impl TipView {
    pub fn of(listed: &Listed) -> Self {
        let tip = &listed.tip;
        TipView {
            id: tip.id.to_hex(),
            post_id: tip.post_id.to_hex(),
            post: listed.post.as_ref().map(|(title, slug)| TipPost {
                id: tip.post_id.to_hex(),
                title: title.clone(),
                slug: slug.clone(),
            }),
            author_id: tip.author_id.to_hex(),
            author: listed.author.as_ref().map(|name| TipPerson {
                id: tip.author_id.to_hex(),
                name: name.clone(),
            }),
            from: listed.sender.as_ref().map(|(name, _)| TipPerson {
                id: tip.sender_id.to_hex(),
                name: name.clone(),
            }),
            amount: tip.amount,
            currency: tip.currency.clone(),
            fee: tip.fee,
            net: tip.amount - tip.fee,
            message: tip.message.clone(),
            public: tip.public,
            hidden: tip.hidden,
            status: match tip.status {
                TipStatus::Refunding => TipStatus::Succeeded,
                s => s,
            },
            refunded_at: tip.refunded_at.map(iso),
            created_at: iso(tip.created_at),
            mode: tip.mode.clone(),
        }
    }

    /// Whether the payment waits for the reader to confirm it.
    pub fn is_pending(&self) -> bool {
        self.status == TipStatus::Pending
    }
}
