//! The site's settings administrators change (`/api/admin/settings`): whether every
//! administrator must use two-factor sign-in.

use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::{admin_settings, passkeys, two_factor};
use crate::state::AppState;

pub const MSG_OWN_FACTOR_FIRST: &str =
    "Turn on two-factor sign-in (an authenticator app) or add a passkey to your own account before requiring it of administrators.";

/// Whether administrators must use two-factor sign-in now.
pub async fn require_admin_two_factor(state: &AppState) -> ApiResult<bool> {
    Ok(admin_settings::load(&state.db)
        .await?
        .require_admin_two_factor)
}

/// `admin` requires two-factor sign-in of every administrator (`on`), or stops requiring it;
/// they must have a second factor of their own first. Answers the rule as saved.
pub async fn set_require_admin_two_factor(
    state: &AppState,
    admin: &AuthUser,
    on: bool,
) -> ApiResult<bool> {
    // A passkey (user verification: two factors in one) meets the rule as the app does.
    if on
        && !two_factor::is_enabled(&state.db, admin.user.id).await?
        && passkeys::count_for_user(&state.db, admin.user.id).await? == 0
    {
        return Err(ApiError::conflict(MSG_OWN_FACTOR_FIRST));
    }
    let before = admin_settings::load(&state.db).await?;
    let saved = admin_settings::set_require_admin_two_factor(&state.db, on, admin.user.id).await?;
    if before.require_admin_two_factor != on {
        audit::record(
            state,
            admin,
            Action::AdminSettingsUpdate,
            Target::new(
                "settings",
                "requireAdminTwoFactor",
                "Require two-factor sign-in for administrators",
            ),
            json!({ "requireAdminTwoFactor": on }),
        )
        .await;
    }
    Ok(saved.require_admin_two_factor)
}
