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
use mongodb::bson::{doc, Document};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::audit::{Action, Target};
use crate::auth::AuthUser;
use crate::billing::{mode, provider_error};
use crate::domain::Email;
use crate::error::{ApiError, ApiResult};
use crate::extract::{required_id, ApiJson, Fields};
use crate::payments::DestinationRequest;
use crate::persistence::bank_details::{self, BankDetails, ContactData};
use crate::persistence::{now, users, DbError};
use crate::routes::subscription::audit_for_other;
use crate::routes::user::iso;
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

/// New bank details: every field but `userId`, the bank code under one of its three names.
// (Each field is read with its own message: `Fields::of`.)
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BankDetailsBody {
    /// 2 to 100 letters (spaces, dots, apostrophes and hyphens allowed).
    #[schema(value_type = String, min_length = 2, max_length = 100)]
    pub account_holder_name: Option<Value>,
    /// 4 to 20 digits (spaces and hyphens are dropped).
    #[schema(value_type = String)]
    pub account_number: Option<Value>,
    /// An IFSC code (for example HDFC0001234) or a 9-digit US routing number.
    #[schema(value_type = Option<String>)]
    pub bank_code: Option<Value>,
    /// The bank code, as an IFSC code.
    #[schema(value_type = Option<String>)]
    pub ifsc_code: Option<Value>,
    /// The bank code, as a US routing number.
    #[schema(value_type = Option<String>)]
    pub routing_number: Option<Value>,
    /// 2 to 100 characters.
    #[schema(value_type = String, min_length = 2, max_length = 100)]
    pub bank_name: Option<Value>,
    #[schema(value_type = ContactDataBody)]
    pub contact_data: Option<Value>,
    /// Whose bank details these are: an administrator acting for someone (creation only).
    #[schema(value_type = Option<String>)]
    pub user_id: Option<Value>,
}

/// A change to bank details: at least one field of [`BankDetailsBody`] but `userId` (bank
/// details stay with their owner).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BankDetailsChangeBody {
    #[schema(value_type = Option<String>, min_length = 2, max_length = 100)]
    pub account_holder_name: Option<Value>,
    #[schema(value_type = Option<String>)]
    pub account_number: Option<Value>,
    #[schema(value_type = Option<String>)]
    pub bank_code: Option<Value>,
    #[schema(value_type = Option<String>)]
    pub ifsc_code: Option<Value>,
    #[schema(value_type = Option<String>)]
    pub routing_number: Option<Value>,
    #[schema(value_type = Option<String>, min_length = 2, max_length = 100)]
    pub bank_name: Option<Value>,
    #[schema(value_type = Option<ContactDataBody>)]
    pub contact_data: Option<Value>,
}

/// `contactData` of bank details: every field required.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactDataBody {
    /// At most 100 characters.
    #[schema(max_length = 100)]
    pub name: String,
    /// An email address.
    pub email: String,
    /// A phone number of 7 to 15 digits.
    pub contact: String,
}

/// The text fields of a body, checked for their type before anything else, so a value of the
/// wrong type is named even when another field is missing.
const TEXT_FIELDS: &[&str] = &[
    "accountHolderName",
    "bankCode",
    "ifscCode",
    "routingNumber",
    "bankName",
    "userId",
];

/// Reads a body of type `T` and checks the type of every text field that is sent.
fn read_body<T: serde::de::DeserializeOwned + utoipa::ToSchema>(body: Value) -> ApiResult<Fields> {
    let f = Fields::of::<T>(body)?;
    for key in TEXT_FIELDS {
        f.text(key)?;
    }
    if f.get("accountNumber").is_some_and(|raw| !raw.is_string()) {
        return Err(ApiError::bad_request(MSG_ACCOUNT_NUMBER_TYPE));
    }
    Ok(f)
}

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

fn holder_name(raw: &str) -> ApiResult<String> {
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let ok = (2..=100).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, ' ' | '.' | '\'' | '-'));
    if !ok {
        return Err(ApiError::bad_request(
            "accountHolderName must be 2 to 100 letters (spaces, dots, apostrophes and hyphens allowed)",
        ));
    }
    Ok(name)
}

fn account_number(raw: &Value) -> ApiResult<String> {
    let text = raw
        .as_str()
        .ok_or_else(|| ApiError::bad_request(MSG_ACCOUNT_NUMBER_TYPE))?;
    let digits: String = text.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    if !(4..=20).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_request(
            "accountNumber must be 4 to 20 digits",
        ));
    }
    Ok(digits)
}

/// A valid ABA routing number (its checksum holds).
fn is_routing_number(code: &str) -> bool {
    let digits: Vec<u32> = code.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() != 9 || code.len() != 9 {
        return false;
    }
    let weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
    digits.iter().zip(weights).map(|(d, w)| d * w).sum::<u32>() % 10 == 0
}

/// An IFSC code (India: 4 letters, 0, 6 letters or digits) or a US routing number; returns the
/// normalised code, its country and currency.
pub fn bank_code(raw: &str) -> ApiResult<(String, &'static str, &'static str)> {
    let code = raw.trim().to_uppercase();
    let b = code.as_bytes();
    let ifsc = b.len() == 11
        && b[..4].iter().all(u8::is_ascii_uppercase)
        && b[4] == b'0'
        && b[5..].iter().all(u8::is_ascii_alphanumeric);
    if ifsc {
        return Ok((code, "IN", "inr"));
    }
    if is_routing_number(&code) {
        return Ok((code, "US", "usd"));
    }
    Err(ApiError::bad_request(
        "bankCode must be an IFSC code (for example HDFC0001234) or a 9-digit US routing number",
    ))
}

fn bank_name(raw: &str) -> ApiResult<String> {
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if !(2..=100).contains(&name.chars().count()) {
        return Err(ApiError::bad_request(
            "bankName must be 2 to 100 characters",
        ));
    }
    Ok(name)
}

fn contact_data(raw: &Value) -> ApiResult<ContactData> {
    let obj = raw.as_object().ok_or_else(|| {
        ApiError::bad_request("contactData must be an object {name, email, contact}")
    })?;
    if let Some(unknown) = obj
        .keys()
        .find(|k| !["name", "email", "contact"].contains(&k.as_str()))
    {
        return Err(ApiError::bad_request(format!(
            "Unknown field 'contactData.{unknown}' (allowed: name, email, contact)"
        )));
    }
    let text = |key: &str| -> ApiResult<String> {
        match obj.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() && s.trim() != "null" => {
                Ok(s.trim().to_string())
            }
            _ => Err(ApiError::bad_request(format!(
                "contactData.{key} is required"
            ))),
        }
    };
    let name = text("name")?;
    if name.chars().count() > 100 {
        return Err(ApiError::bad_request(
            "contactData.name must be at most 100 characters",
        ));
    }
    let email = Email::parse(&text("email")?)
        .map_err(|_| ApiError::bad_request("contactData.email must be an email address"))?;
    let phone = text("contact")?;
    let digits = phone.chars().filter(char::is_ascii_digit).count();
    let ok = (7..=15).contains(&digits)
        && phone.chars().enumerate().all(|(i, c)| {
            c.is_ascii_digit() || matches!(c, ' ' | '-' | '(' | ')') || (c == '+' && i == 0)
        });
    if !ok {
        return Err(ApiError::bad_request(
            "contactData.contact must be a phone number of 7 to 15 digits",
        ));
    }
    Ok(ContactData {
        name,
        email: email.as_str().to_string(),
        contact: phone,
    })
}

/// The bank code of a body, under any of its names.
fn code_field(f: &Fields) -> ApiResult<Option<String>> {
    let mut found = None;
    for key in ["bankCode", "ifscCode", "routingNumber"] {
        if let Some(v) = f.text(key)? {
            if found.is_some() {
                return Err(ApiError::bad_request(
                    "Send one of bankCode, ifscCode or routingNumber",
                ));
            }
            found = Some(v);
        }
    }
    Ok(found)
}

fn required(f: &Fields, key: &str) -> ApiResult<String> {
    f.text(key)?
        .ok_or_else(|| ApiError::bad_request(format!("{key} is required")))
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
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    crate::routes::auth::reauth::require_recent(&state, &me).await?;
    let f = read_body::<BankDetailsBody>(body.into_inner())?;
    let holder = holder_name(&required(&f, "accountHolderName")?)?;
    let number = account_number(
        f.get("accountNumber")
            .ok_or_else(|| ApiError::bad_request("accountNumber is required"))?,
    )?;
    let (code, country, currency) =
        bank_code(&code_field(&f)?.ok_or_else(|| ApiError::bad_request("bankCode is required"))?)?;
    let bank = bank_name(&required(&f, "bankName")?)?;
    let contact = contact_data(
        f.get("contactData")
            .ok_or_else(|| ApiError::bad_request("contactData is required"))?,
    )?;
    let owner = owner_of(&state, &me, f.text("userId")?).await?;
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
    audit_for_other(
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
    body: ApiJson<Value>,
) -> ApiResult<HttpResponse> {
    crate::routes::auth::reauth::require_recent(&state, &me).await?;
    let details = load_own(&state, &me, &path, MSG_INVALID_FOR_UPDATE).await?;
    let body = body.into_inner();
    if body.get("userId").is_some() {
        return Err(ApiError::bad_request(
            "Bank details cannot be moved to another user",
        ));
    }
    let f = read_body::<BankDetailsChangeBody>(body)?;
    let mut set = Document::new();
    let holder = match f.text("accountHolderName")? {
        Some(raw) => Some(holder_name(&raw)?),
        None if f.0.contains_key("accountHolderName") => {
            return Err(ApiError::bad_request("accountHolderName is required"))
        }
        None => None,
    };
    let number = match f.get("accountNumber") {
        Some(raw) => Some(account_number(raw)?),
        None if f.0.contains_key("accountNumber") => {
            return Err(ApiError::bad_request("accountNumber is required"))
        }
        None => None,
    };
    let code = code_field(&f)?.map(|c| bank_code(&c)).transpose()?;
    if let Some(raw) = f.text("bankName")? {
        set.insert("bankName", bank_name(&raw)?);
    } else if f.0.contains_key("bankName") {
        return Err(ApiError::bad_request("bankName is required"));
    }
    if let Some(raw) = f.0.get("contactData") {
        let contact = contact_data(raw)?;
        set.insert(
            "contactData",
            doc! { "name": contact.name, "email": contact.email, "contact": contact.contact },
        );
    }
    let account_changes = holder.is_some() || number.is_some() || code.is_some();
    if set.is_empty() && !account_changes {
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
        set.insert("accountHolderName", holder_now);
        set.insert("bankCode", code);
        set.insert("country", country);
        if number.is_some() {
            set.insert(
                "accountNumberEncrypted",
                state.bank_cipher.seal(&current_number),
            );
            set.insert("accountLast4", &current_number[current_number.len() - 4..]);
        }
    }
    let updated = bank_details::update(&state.db, details.id, set)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_NOT_FOUND))?;
    let target = Target::id("user", updated.user_id);
    audit_for_other(
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
    crate::routes::auth::reauth::require_recent(&state, &me).await?;
    let details = load_own(&state, &me, &path, MSG_INVALID_FOR_DELETION).await?;
    state
        .payments
        .delete_destination(details.payment_id.clone())
        .await
        .map_err(provider_error)?;
    bank_details::delete(&state.db, details.id).await?;
    let target = Target::id("user", details.user_id);
    audit_for_other(
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
    fn bank_codes_are_ifsc_codes_or_routing_numbers() {
        assert_eq!(
            bank_code(" hdfc0001234 ").unwrap(),
            ("HDFC0001234".into(), "IN", "inr")
        );
        assert_eq!(
            bank_code("110000000").unwrap(),
            ("110000000".into(), "US", "usd")
        );
        assert_eq!(bank_code("021000021").unwrap().1, "US");
        for bad in [
            "HDFC1001234",
            "HDF00001234",
            "123456789",
            "11000000",
            "null",
            "",
        ] {
            assert!(bank_code(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn account_numbers_are_digits() {
        assert_eq!(
            account_number(&json!("0001 2345-6789")).unwrap(),
            "000123456789"
        );
        for bad in [
            json!("12a4"),
            json!("123"),
            json!(123456789),
            json!("1".repeat(21)),
        ] {
            assert!(account_number(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn payment_ids_refuse_empty_and_null() {
        for bad in ["", "null", "undefined", "a/b", "x"] {
            assert!(payment_id(bad, MSG_INVALID_FOR_UPDATE).is_err(), "{bad}");
        }
        assert!(payment_id("local_ba_123", MSG_INVALID_FOR_UPDATE).is_ok());
    }
}
