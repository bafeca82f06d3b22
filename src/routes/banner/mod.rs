//! `/api/bannerNotification/*`: the notices administrators show at the top of every page
//! (seed 000 §3 "Banner notification", seed 001 §7 "Banner notifications"). Reads come from the
//! banner actor; writes are stored first, then told to the actor and pushed to everyone.

pub mod create;
pub mod deactivate;
pub mod delete_all;
pub mod dismiss;
pub mod dismissed;
pub mod get_notifications;

use mongodb::bson::oid::ObjectId;
use serde::Serialize;

use crate::error::{ApiError, ApiResult};
use crate::geoip::IpPlace;
use crate::persistence::banners::Banner;
use crate::persistence::users::User;
use crate::post_view::iso;

pub const MSG_NOT_FOUND: &str = "Banner notification not found";
pub const MSG_INVALID_ID: &str = "Invalid banner notification ID";

/// Who is looking at a banner: administrators see every dismissal, a user only their own.
#[derive(Debug, Clone, Copy)]
pub enum Viewer {
    Admin,
    User(ObjectId),
    Guest,
}

/// A banner as clients see it (seed 000 §3). `dismissedBy` lists only the viewer (or everyone for
/// administrators): who dismissed what is nobody else's business.
pub fn view(b: &Banner, viewer: Viewer) -> BannerView {
    let dismissed: Vec<String> = b
        .dismissed_by
        .iter()
        .filter(|u| match viewer {
            Viewer::Admin => true,
            Viewer::User(me) => **u == me,
            Viewer::Guest => false,
        })
        .map(|u| u.to_hex())
        .collect();
    BannerView {
        id: b.id.to_hex(),
        title: b.title.clone(),
        message: b.message.clone(),
        link: b.link.clone(),
        region: b.region.clone(),
        is_active: b.is_active,
        expires_at: b.expires_at.map(iso),
        sticky: b.sticky,
        urgent: b.urgent,
        dismissed_by: dismissed,
        timestamp: iso(b.timestamp),
        created_at: iso(b.timestamp),
    }
}

/// A banner as clients see it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BannerView {
    #[serde(rename = "_id")]
    pub id: String,
    pub title: String,
    pub message: String,
    pub link: Option<String>,
    pub region: String,
    pub is_active: bool,
    pub expires_at: Option<String>,
    pub sticky: bool,
    /// Pushed to the devices of people with no tab open.
    pub urgent: bool,
    pub dismissed_by: Vec<String>,
    pub timestamp: String,
    pub created_at: String,
}

/// `{notifications}`: the banners the caller sees.
#[derive(Serialize, utoipa::ToSchema)]
pub struct BannersAnswer {
    pub notifications: Vec<BannerView>,
}

/// `{message, id}`: which banner the action touched.
#[derive(Serialize, utoipa::ToSchema)]
pub struct BannerIdAnswer {
    pub message: &'static str,
    pub id: String,
}

/// A banner id from the path.
pub fn banner_id(raw: &str) -> ApiResult<ObjectId> {
    ObjectId::parse_str(raw.trim()).map_err(|_| ApiError::invalid("invalid_id", MSG_INVALID_ID))
}

/// The regions a caller is in, lowercased: their profile's region and the country (code and
/// name) of their address.
pub fn caller_regions(user: Option<&User>, place: &IpPlace) -> Vec<String> {
    let mut regions: Vec<String> = Vec::new();
    if let Some(region) = user.and_then(|u| u.region.as_deref()) {
        regions.push(region.trim().to_lowercase());
    }
    if let Some(code) = &place.country_code {
        regions.push(code.to_lowercase());
    }
    if place.is_known() {
        regions.push(place.country.to_lowercase());
    }
    regions.retain(|r| !r.is_empty());
    regions.dedup();
    regions
}
