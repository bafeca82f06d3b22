//! `GET /api/admin/settings` → `{settings: {requireAdminTwoFactor}}` and
//! `PATCH /api/admin/settings {requireAdminTwoFactor}` → `{message, settings}`: the site-wide
//! security settings of the admin dashboard. While `requireAdminTwoFactor` is on, an
//! administrator without two-factor sign-in is refused by every administrator route with 403
//! `two_factor_required` until they set it up ([`crate::auth::require_admin_two_factor`]).

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{Body, Sent};
use crate::persistence::{admin_settings, passkeys, two_factor};
use crate::state::AppState;

pub const MSG_OWN_FACTOR_FIRST: &str =
    "Turn on two-factor sign-in (an authenticator app) or add a passkey to your own account before requiring it of administrators.";

pub const MSG_FLAG: &str = "requireAdminTwoFactor must be true or false";

/// The settings to change.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SettingsBody {
    /// Require two-factor sign-in of every administrator.
    #[serde(default)]
    #[schema(value_type = bool, required = true)]
    pub require_admin_two_factor: Sent<RequireTwoFactor>,
}

crate::flag_field! {
    /// `requireAdminTwoFactor`: `true` or `false`.
    RequireTwoFactor = "requireAdminTwoFactor";
}

impl SettingsBody {
    /// Whether administrators must use two-factor sign-in.
    pub fn validate(&self) -> ApiResult<bool> {
        Ok(self.require_admin_two_factor.required(MSG_FLAG)?.0)
    }
}

/// The settings in force.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsView {
    pub require_admin_two_factor: bool,
}

/// `{settings}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SettingsAnswer {
    pub settings: SettingsView,
}

/// `{message, settings}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SettingsUpdatedAnswer {
    pub message: &'static str,
    pub settings: SettingsView,
}

fn view(s: &admin_settings::AdminSettings) -> SettingsView {
    SettingsView {
        require_admin_two_factor: s.require_admin_two_factor,
    }
}

#[tracing::instrument(skip_all, fields(admin = %_admin.0.user.id))]
pub async fn get(state: web::Data<AppState>, _admin: AdminUser) -> ApiResult<HttpResponse> {
    let settings = admin_settings::load(&state.db).await?;
    Ok(HttpResponse::Ok().json(SettingsAnswer {
        settings: view(&settings),
    }))
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn update(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: Body<SettingsBody>,
) -> ApiResult<HttpResponse> {
    let on = body.read()?.validate()?;
    // A passkey (user verification: two factors in one) meets the rule as the app does.
    if on
        && !two_factor::is_enabled(&state.db, admin.0.user.id).await?
        && passkeys::count_for_user(&state.db, admin.0.user.id).await? == 0
    {
        return Err(ApiError::conflict(MSG_OWN_FACTOR_FIRST));
    }
    let before = admin_settings::load(&state.db).await?;
    let saved =
        admin_settings::set_require_admin_two_factor(&state.db, on, admin.0.user.id).await?;
    if before.require_admin_two_factor != on {
        audit::record(
            &state,
            &admin.0,
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
    let message = if on {
        "Administrators must now use two-factor sign-in"
    } else {
        "Two-factor sign-in is no longer required of administrators"
    };
    Ok(HttpResponse::Ok().json(SettingsUpdatedAnswer {
        message,
        settings: view(&saved),
    }))
}
