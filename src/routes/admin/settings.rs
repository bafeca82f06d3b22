//! `GET /api/admin/settings` → `{settings: {requireAdminTwoFactor}}` and
//! `PATCH /api/admin/settings {requireAdminTwoFactor}` → `{message, settings}`: the site-wide
//! security settings of the admin dashboard. While `requireAdminTwoFactor` is on, an
//! administrator without two-factor sign-in is refused by every administrator route with 403
//! `two_factor_required` until they set it up ([`crate::auth::require_admin_two_factor`]).

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::extract::{Body, Sent};
use crate::services::admin_settings;
use crate::state::AppState;

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

#[tracing::instrument(skip_all, fields(admin = %_admin.0.user.id))]
pub async fn get(state: web::Data<AppState>, _admin: AdminUser) -> ApiResult<HttpResponse> {
    let require_admin_two_factor = admin_settings::require_admin_two_factor(&state).await?;
    Ok(HttpResponse::Ok().json(SettingsAnswer {
        settings: SettingsView {
            require_admin_two_factor,
        },
    }))
}

#[tracing::instrument(skip_all, fields(admin = %admin.0.user.id))]
pub async fn update(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: Body<SettingsBody>,
) -> ApiResult<HttpResponse> {
    let on = body.read()?.validate()?;
    let saved = admin_settings::set_require_admin_two_factor(&state, &admin.0, on).await?;
    let message = if on {
        "Administrators must now use two-factor sign-in"
    } else {
        "Two-factor sign-in is no longer required of administrators"
    };
    Ok(HttpResponse::Ok().json(SettingsUpdatedAnswer {
        message,
        settings: SettingsView {
            require_admin_two_factor: saved,
        },
    }))
}
