//! A user's own profile (`PATCH /api/user/update-user`): its checked fields saved, with a new
//! avatar stored in the media store (or an address already stored adopted) and the previous
//! avatar's file released when nothing else uses it.

use crate::auth::AuthUser;
use crate::domain::image::{DecodedImage, MEDIA_URL_PREFIX};
use crate::error::{ApiError, ApiResult};
use crate::persistence::media::{self, MediaUse};
use crate::persistence::users;
use crate::services::people::{OwnUser, MSG_USER_NOT_FOUND};
use crate::state::AppState;

pub use crate::persistence::users::ProfileChanges;

/// A new avatar as it arrived: a picture to store, or an address (or nothing) to keep as is.
pub enum AvatarChange {
    Picture(DecodedImage),
    Address(Option<String>),
}

/// Saves `changes` (checked; their `avatar` is set from `avatar`) to `me`'s profile and answers
/// the account as `me` sees it.
pub async fn update(
    state: &AppState,
    me: &AuthUser,
    mut changes: ProfileChanges,
    avatar: Option<AvatarChange>,
) -> ApiResult<OwnUser> {
    let dir = &state.settings.server.media_dir;
    let owner = MediaUse::Avatar(me.user.id);
    changes.avatar = match avatar {
        None => None,
        Some(AvatarChange::Picture(image)) => Some(Some(
            media::store_for(&state.db, dir, &image, owner, me.user.id).await?,
        )),
        Some(AvatarChange::Address(Some(address))) if address.starts_with(MEDIA_URL_PREFIX) => {
            if !media::adopt_for(&state.db, dir, &address, owner, me.user.id).await? {
                return Err(ApiError::bad_request(format!(
                    "Image {address} does not exist; upload it again"
                )));
            }
            Some(Some(address))
        }
        Some(AvatarChange::Address(address)) => Some(address),
    };
    let new_avatar = changes.avatar.clone();
    let user = users::update_profile(&state.db, me.user.id, changes)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_USER_NOT_FOUND))?;
    if let Some(kept) = new_avatar {
        // The previous avatar's file goes when nothing else uses it.
        let keep: Vec<String> = kept.into_iter().collect();
        if let Err(e) = media::release_unused_by(&state.db, dir, owner, &keep).await {
            tracing::warn!(error = %e, "could not release a previous avatar");
        }
    }
    Ok(OwnUser::from(&user))
}
