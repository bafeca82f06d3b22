//! Banners (`/api/bannerNotification/*`): the notices administrators show at the top of every
//! page. Reads come from the banner actor (`live::banners`); writes are stored first, then told
//! to the actor and pushed to everyone.

use actix_web::web;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::DateTime;
use serde::Serialize;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::geoip::IpPlace;
use crate::live;
use crate::live::banners::{self as actor, Created, Deactivated, DeletedAll, Dismissed, Visible};
use crate::persistence::banners::{self, Banner};
use crate::persistence::now;
use crate::persistence::users::User;
use crate::post_view::iso;
use crate::state::AppState;

pub const MSG_NOT_FOUND: &str = "Banner notification not found";
/// The region of a banner everyone sees.
pub const GLOBAL_REGION: &str = banners::GLOBAL_REGION;

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

/// A new banner, checked: its region is `GLOBAL_REGION` or a place, `at` its time.
pub struct BannerInput {
    pub title: String,
    pub message: String,
    pub link: Option<String>,
    pub region: String,
    pub expires_at: Option<DateTime>,
    pub sticky: bool,
    pub urgent: bool,
    pub at: DateTime,
}

/// Stores a banner made by `me`, tells the actor, pushes it to everyone (an urgent one to the
/// devices of people with no tab open too) and records it; answers it as administrators see it.
pub async fn create(
    state: &web::Data<AppState>,
    me: &AuthUser,
    input: BannerInput,
) -> ApiResult<BannerView> {
    let banner = Banner {
        id: ObjectId::new(),
        title: input.title,
        message: input.message,
        link: input.link,
        region: input.region,
        is_active: true,
        expires_at: input.expires_at,
        sticky: input.sticky,
        urgent: input.urgent,
        dismissed_by: Vec::new(),
        created_by: Some(me.user.id),
        timestamp: input.at,
    };
    banners::insert(&state.db, &banner).await?;
    state.live.banners.do_send(Created(banner.clone()));
    if banner.urgent {
        crate::services::push::offer_banner(state.clone(), &banner);
    }
    live::banner_created(
        &state.realtime,
        serde_json::to_value(view(&banner, Viewer::Guest)).unwrap_or_default(),
    );
    audit::record(
        state,
        me,
        Action::BannerCreate,
        Target::new("banner", banner.id.to_hex(), banner.title.clone()),
        json!({ "region": banner.region, "urgent": banner.urgent }),
    )
    .await;
    Ok(view(&banner, Viewer::Admin))
}

/// Switches banner `id` off for everyone, as `admin`; answers it as administrators see it.
pub async fn deactivate(state: &AppState, admin: &AuthUser, id: ObjectId) -> ApiResult<BannerView> {
    let banner = banners::deactivate(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    state.live.banners.do_send(Deactivated(id));
    live::banner_deactivated(&state.realtime, &id.to_hex());
    let target = Target::new("banner", id.to_hex(), banner.title.clone());
    audit::record(state, admin, Action::BannerDeactivate, target, json!({})).await;
    Ok(view(&banner, Viewer::Admin))
}

/// Removes every banner, as `admin`; returns how many there were.
pub async fn delete_all(state: &AppState, admin: &AuthUser) -> ApiResult<u64> {
    let deleted = banners::delete_all(&state.db).await?;
    state.live.banners.do_send(DeletedAll);
    live::banners_deleted(&state.realtime);
    let details = json!({ "deletedCount": deleted });
    audit::record(
        state,
        admin,
        Action::BannerDeleteAll,
        Target::site(),
        details,
    )
    .await;
    Ok(deleted)
}

/// `me` stops seeing banner `id`; their other tabs hide it too.
pub async fn dismiss(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<()> {
    banners::dismiss(&state.db, id, me.user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    state.live.banners.do_send(Dismissed {
        id,
        user: me.user.id,
    });
    live::banner_dismissed(&state.realtime, &me.id_hex(), &id.to_hex());
    Ok(())
}

/// Whether `me` dismissed banner `id`.
pub async fn dismissed_by(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<bool> {
    let banner = banners::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    Ok(banner.dismissed_by.contains(&me.user.id))
}

/// Every stored banner, active or not, newest first, as administrators see them.
pub async fn all(state: &AppState) -> ApiResult<BannersAnswer> {
    let all = banners::list_all(&state.db).await?;
    let notifications = all.iter().map(|b| view(b, Viewer::Admin)).collect();
    Ok(BannersAnswer { notifications })
}

/// The banners `user` (`None`: a guest) at `place` sees now, from the banner actor (or the
/// database while the actor has not loaded them).
pub async fn visible(
    state: &AppState,
    user: Option<&AuthUser>,
    place: &IpPlace,
) -> ApiResult<BannersAnswer> {
    let me = user.map(|u| &u.user);
    let regions = caller_regions(me, place);
    let viewer = match user {
        Some(u) if u.is_admin() => Viewer::Admin,
        Some(u) => Viewer::User(u.user.id),
        None => Viewer::Guest,
    };
    let asked = state
        .live
        .banners
        .send(Visible {
            user: me.map(|u| u.id),
            regions: regions.clone(),
        })
        .await
        .map_err(|e| ApiError::internal(anyhow::anyhow!("banner actor: {e}")))?;
    let seen = match asked {
        Some(seen) => seen,
        // Not loaded yet: read the database this once.
        None => {
            let all = banners::list_active(&state.db).await?;
            actor::visible(&all, me.map(|u| u.id), &regions, now())
        }
    };
    let notifications = seen.iter().map(|b| view(b, viewer)).collect();
    Ok(BannersAnswer { notifications })
}
