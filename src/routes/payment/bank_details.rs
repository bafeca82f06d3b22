//! Bank details, for their owner or an administrator:
//! - `POST /api/payment/bank-details` → 201 `{message: 'Bank details created successfully',
//!   bankDetails}`;
//! - `PATCH /api/payment/bank-details/{paymentId}` → `{message: 'Bank details updated
//!   successfully', bankDetails}` (400 'Invalid payment ID for update');
//! - `GET /api/payment/bank-details?userId` → `{message: 'Bank details fetched successfully',
//!   bankDetails}` (`null` when none; 400 'Invalid user ID');
//! - `DELETE /api/payment/bank-details/{paymentId}` (400 'Invalid payment ID for deletion').
//!
//! Fields: `accountHolderName`, `accountNumber`, `bankCode` (an IFSC code or a US routing
//! number; `ifscCode` and `routingNumber` are accepted too), `bankName`, `contactData {name,
//! email, contact}`, and `userId` (an administrator acting for someone). The account number is
//! sealed with AES-256-GCM and only its last four digits are ever shown; the provider registers
//! the account as a payout destination whose id is `paymentId`.

use actix_web::{web, HttpResponse};
use mongodb::bson::oid::ObjectId;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::audit::record_for_other;
use crate::audit::{Action, Target};
use crate::auth::AuthUser;
use crate::domain::params::required_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::Body;
use crate::payments::DestinationRequest;
use crate::persistence::bank_details::{
    self, AccountChange, BankDetails, BankDetailsChanges, ContactData,
};
use crate::persistence::{now, users, DbError};
use crate::post_view::iso;
use crate::services::billing::{mode, provider_error};
use crate::state::AppState;

pub const MSG_CREATED: &str = "Bank details created successfully";
pub const MSG_UPDATED: &str = "Bank details updated successfully";
pub const MSG_FETCHED: &str = "Bank details fetched successfully";
pub const MSG_DELETED: &str = "Bank details deleted successfully";
pub const MSG_INVALID_FOR_UPDATE: &str = "Invalid payment ID for update";
pub const MSG_INVALID_FOR_DELETION: &str = "Invalid payment ID for deletion";
pub const MSG_INVALID_USER_ID: &str = "Invalid user ID";
pub const MSG_NOT_FOUND: &str = "Bank details not found";
pub const MSG_ACCOUNT_NUMBER_TYPE: &str = "accountNumber must be a string of digits";
pub const MSG_EXISTS: &str = "Bank details already exist for this user; update them instead";
pub const MSG_NOT_OWNER: &str = "Only the owner or an administrator can see or change bank details";

mod body;
pub use body::{
    bank_code, AccountNumberText, BankCodeText, BankDetailsBody, BankDetailsChange,
    BankDetailsChangeBody, BankNameText, ContactDataBody, ContactText, ContactValue, HolderText,
    IfscCodeText, NewBankDetails, RoutingNumberText, UserIdText,
};

/// Bank details as clients see them: never the account number, only its last four digits.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BankDetailsView {
    #[serde(rename = "_id")]
    pub id: String,
    pub user_id: String,
    /// The provider's id of the payout destination.
    pub payment_id: String,
    pub account_holder_name: String,
    pub account_last4: String,
    /// `****` and the last four digits.
    pub masked_account_number: String,
    pub bank_code: String,
    pub bank_name: String,
    pub country: String,
    pub contact_data: ContactData,
    /// When they last changed.
    pub timestamp: String,
    pub created_at: String,
    pub mode: String,
}

pub fn view(d: &BankDetails) -> BankDetailsView {
    BankDetailsView {
        id: d.id.to_hex(),
        user_id: d.user_id.to_hex(),
        payment_id: d.payment_id.clone(),
        account_holder_name: d.account_holder_name.clone(),
        account_last4: d.account_last4.clone(),
        masked_account_number: format!("****{}", d.account_last4),
        bank_code: d.bank_code.clone(),
        bank_name: d.bank_name.clone(),
        country: d.country.clone(),
        contact_data: d.contact_data.clone(),
        timestamp: iso(d.updated_at),
        created_at: iso(d.created_at),
        mode: d.mode.clone(),
    }
}

/// `{message, bankDetails, mode}`: bank details after a creation or a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BankDetailsAnswer {
    pub message: String,
    pub bank_details: BankDetailsView,
    pub mode: String,
}

/// `{message, bankDetails, mode}`: a user's bank details, null when they have none.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BankDetailsFetched {
    pub message: String,
    pub bank_details: Option<BankDetailsView>,
    pub mode: String,
}

/// `{message, paymentId, mode}`: the bank details removed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BankDetailsRemoved {
    pub message: String,
    pub payment_id: String,
    pub mode: String,
}

/// A payment id as a path segment: the provider's id, letters, digits and `_`.
fn payment_id(raw: &str, message: &str) -> ApiResult<String> {
    let id = raw.trim();
    let ok = (3..=255).contains(&id.len())
        && id != "null"
        && id != "undefined"
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !ok {
        return Err(ApiError::invalid("invalid_id", message));
    }
    Ok(id.to_string())
}

/// Whose bank details a request is about: the caller, or `userId` for an administrator.
async fn owner_of(state: &AppState, me: &AuthUser, raw: Option<String>) -> ApiResult<ObjectId> {
    let Some(raw) = raw else {
        return Ok(me.user.id);
    };
    let id = required_id(Some(&raw), MSG_INVALID_USER_ID)?;
    if id != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_OWNER));
    }
    if id != me.user.id && users::find_by_id(&state.db, id).await?.is_none() {
        return Err(ApiError::not_found("User not found"));
    }
    Ok(id)
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn create(
    state: web::Data<AppState>,
    me: AuthUser,
    body: Body<BankDetailsBody>,
) -> ApiResult<HttpResponse> {
    crate::services::reauth::require_recent(&state, &me).await?;
    let NewBankDetails {
        holder,
        number,
        code: (code, country, currency),
        bank,
        contact,
        user_id,
    } = body.read()?.validate()?;
    let owner = owner_of(&state, &me, user_id).await?;
    if bank_details::find_by_user(&state.db, owner)
        .await?
        .is_some()
    {
        return Err(ApiError::conflict(MSG_EXISTS));
    }
    let id = ObjectId::new();
    let destination = state
        .payments
        .create_destination(DestinationRequest {
            user_id: owner.to_hex(),
            email: contact.email.clone(),
            holder_name: holder.clone(),
            account_number: number.clone(),
            bank_code: code.clone(),
            country: country.into(),
            currency: currency.into(),
            idempotency_key: format!("destination:{id}"),
        })
        .await
        .map_err(provider_error)?;
    let at = now();
    let details = BankDetails {
        id,
        user_id: owner,
        payment_id: destination.id.clone(),
        account_holder_name: holder,
        account_number_encrypted: state.bank_cipher.seal(&number),
        account_last4: number[number.len() - 4..].to_string(),
        bank_code: code,
        bank_name: bank,
        country: country.into(),
        contact_data: contact,
        mode: mode(&state).into(),
        created_at: at,
        updated_at: at,
    };
    match bank_details::insert(&state.db, &details).await {
        Ok(()) => {}
        Err(DbError::Duplicate(_)) => {
            // A simultaneous request stored its details first: this destination is not needed.
            if let Err(e) = state.payments.delete_destination(destination.id).await {
                tracing::warn!(error = %e, "could not remove an unused payout destination");
            }
            return Err(ApiError::conflict(MSG_EXISTS));
        }
        Err(e) => return Err(e.into()),
    }
    let target = Target::id("user", owner);
    record_for_other(
        &state,
        &me,
        owner,
        Action::BankDetailsCreate,
        target,
        json!({ "paymentId": details.payment_id }),
    )
    .await;
    Ok(HttpResponse::Created().json(BankDetailsAnswer {
        message: MSG_CREATED.to_string(),
        bank_details: view(&details),
        mode: mode(&state).to_string(),
    }))
}

/// The record named by `raw`, if `me` may touch it.
async fn load_own(
    state: &AppState,
    me: &AuthUser,
    raw: &str,
    invalid: &str,
) -> ApiResult<BankDetails> {
    let id = payment_id(raw, invalid)?;
    let details = bank_details::find_by_payment_id(&state.db, &id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    if details.user_id != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_OWNER));
    }
    Ok(details)
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn update(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
    body: Body<BankDetailsChangeBody>,
) -> ApiResult<HttpResponse> {
    crate::services::reauth::require_recent(&state, &me).await?;
    let details = load_own(&state, &me, &path, MSG_INVALID_FOR_UPDATE).await?;
    let body = body.read()?;
    body.check_owner_kept()?;
    let BankDetailsChange {
        holder,
        number,
        code,
        bank,
        contact,
    } = body.validate()?;
    let mut changes = BankDetailsChanges {
        bank_name: bank,
        contact_data: contact,
        account: None,
    };
    let account_changes = holder.is_some() || number.is_some() || code.is_some();
    if changes == BankDetailsChanges::default() && !account_changes {
        return Err(ApiError::bad_request(
            "Nothing to change: send accountHolderName, accountNumber, bankCode, bankName or contactData",
        ));
    }
    if account_changes {
        let current_number = match &number {
            Some(n) => n.clone(),
            None => state
                .bank_cipher
                .open(&details.account_number_encrypted)
                .map_err(|e| ApiError::internal(anyhow::anyhow!("bank details unreadable: {e}")))?,
        };
        let (code, country, currency) = match code {
            Some(c) => c,
            None => bank_code(&details.bank_code)?,
        };
        let holder_now = holder
            .clone()
            .unwrap_or_else(|| details.account_holder_name.clone());
        state
            .payments
            .update_destination(
                details.payment_id.clone(),
                DestinationRequest {
                    user_id: details.user_id.to_hex(),
                    email: details.contact_data.email.clone(),
                    holder_name: holder_now.clone(),
                    account_number: current_number.clone(),
                    bank_code: code.clone(),
                    country: country.into(),
                    currency: currency.into(),
                    idempotency_key: format!(
                        "destination-update:{}:{}",
                        details.id,
                        uuid::Uuid::new_v4().simple()
                    ),
                },
            )
            .await
            .map_err(provider_error)?;
        changes.account = Some(AccountChange {
            holder_name: holder_now,
            bank_code: code,
            country: country.to_string(),
            number: number.is_some().then(|| {
                (
                    state.bank_cipher.seal(&current_number),
                    current_number[current_number.len() - 4..].to_string(),
                )
            }),
        });
    }
    let updated = bank_details::update(&state.db, details.id, &changes)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let target = Target::id("user", updated.user_id);
    record_for_other(
        &state,
        &me,
        updated.user_id,
        Action::BankDetailsUpdate,
        target,
        json!({ "paymentId": updated.payment_id }),
    )
    .await;
    Ok(HttpResponse::Ok().json(BankDetailsAnswer {
        message: MSG_UPDATED.to_string(),
        bank_details: view(&updated),
        mode: mode(&state).to_string(),
    }))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct UserQuery {
    #[serde(default)]
    pub user_id: Option<String>,
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn get(
    state: web::Data<AppState>,
    me: AuthUser,
    query: web::Query<UserQuery>,
) -> ApiResult<HttpResponse> {
    let user = required_id(query.user_id.as_deref(), MSG_INVALID_USER_ID)?;
    if user != me.user.id && !me.is_admin() {
        return Err(ApiError::forbidden(MSG_NOT_OWNER));
    }
    let details = bank_details::find_by_user(&state.db, user).await?;
    Ok(HttpResponse::Ok().json(BankDetailsFetched {
        message: MSG_FETCHED.to_string(),
        bank_details: details.as_ref().map(view),
        mode: mode(&state).to_string(),
    }))
}

#[tracing::instrument(skip_all, fields(user = %me.user.id))]
pub async fn delete(
    state: web::Data<AppState>,
    me: AuthUser,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    crate::services::reauth::require_recent(&state, &me).await?;
    let details = load_own(&state, &me, &path, MSG_INVALID_FOR_DELETION).await?;
    state
        .payments
        .delete_destination(details.payment_id.clone())
        .await
        .map_err(provider_error)?;
    bank_details::delete(&state.db, details.id).await?;
    let target = Target::id("user", details.user_id);
    record_for_other(
        &state,
        &me,
        details.user_id,
        Action::BankDetailsDelete,
        target,
        json!({ "paymentId": details.payment_id }),
    )
    .await;
    Ok(HttpResponse::Ok().json(BankDetailsRemoved {
        message: MSG_DELETED.to_string(),
        payment_id: details.payment_id,
        mode: mode(&state).to_string(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payment_ids_refuse_empty_and_null() {
        for bad in ["", "null", "undefined", "a/b", "x"] {
            assert!(payment_id(bad, MSG_INVALID_FOR_UPDATE).is_err(), "{bad}");
        }
        assert!(payment_id("local_ba_123", MSG_INVALID_FOR_UPDATE).is_ok());
    }
}
