//! The bodies of bank details (creation and change): one documented type each, read by
//! [`Body`](crate::extract::Body), every field a [`Sent`] newtype; `validate` answers the
//! messages in their documented order (every field's type first, then each value in turn).

use serde::Deserialize;
use serde_json::Value;

use super::MSG_ACCOUNT_NUMBER_TYPE;
use crate::domain::Email;
use crate::error::{ApiError, ApiResult};
use crate::extract::{FieldValue, Refusal, Sent};
use crate::services::billing::accounts::ContactData;

/// New bank details: every field but `userId`, the bank code under one of its three names.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BankDetailsBody {
    /// 2 to 100 letters (spaces, dots, apostrophes and hyphens allowed).
    #[serde(default)]
    #[schema(value_type = String, min_length = 2, max_length = 100, required = true)]
    pub account_holder_name: Sent<HolderText>,
    /// 4 to 20 digits (spaces and hyphens are dropped).
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub account_number: Sent<AccountNumberText>,
    /// An IFSC code (for example HDFC0001234) or a 9-digit US routing number.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub bank_code: Sent<BankCodeText>,
    /// The bank code, as an IFSC code.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub ifsc_code: Sent<IfscCodeText>,
    /// The bank code, as a US routing number.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub routing_number: Sent<RoutingNumberText>,
    /// 2 to 100 characters.
    #[serde(default)]
    #[schema(value_type = String, min_length = 2, max_length = 100, required = true)]
    pub bank_name: Sent<BankNameText>,
    #[serde(default)]
    #[schema(value_type = ContactDataBody, required = true)]
    pub contact_data: Sent<ContactValue>,
    /// Whose bank details these are: an administrator acting for someone (creation only).
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub user_id: Sent<UserIdText>,
}

/// A change to bank details: at least one field of [`BankDetailsBody`] but `userId` (bank
/// details stay with their owner).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BankDetailsChangeBody {
    #[serde(default)]
    #[schema(value_type = Option<String>, min_length = 2, max_length = 100)]
    pub account_holder_name: Sent<HolderText>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub account_number: Sent<AccountNumberText>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub bank_code: Sent<BankCodeText>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub ifsc_code: Sent<IfscCodeText>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub routing_number: Sent<RoutingNumberText>,
    #[serde(default)]
    #[schema(value_type = Option<String>, min_length = 2, max_length = 100)]
    pub bank_name: Sent<BankNameText>,
    #[serde(default)]
    #[schema(value_type = Option<ContactDataBody>)]
    pub contact_data: Sent<ContactValue>,
    /// Not documented (and not in the allowed list): only read to refuse moving the details.
    #[serde(default)]
    #[schema(ignore)]
    pub user_id: Sent<UserIdText>,
}

/// `contactData` of bank details: every field required.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactDataBody {
    /// At most 100 characters.
    #[serde(default)]
    #[schema(value_type = String, max_length = 100, required = true)]
    pub name: Sent<ContactText>,
    /// An email address.
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub email: Sent<ContactText>,
    /// A phone number of 7 to 15 digits.
    #[serde(default)]
    #[schema(value_type = String, required = true)]
    pub contact: Sent<ContactText>,
}

crate::text_field! {
    /// `accountHolderName` as sent (checked by [`holder_name`] after every field's type).
    HolderText = "accountHolderName";
    /// `bankCode` as sent.
    BankCodeText = "bankCode";
    /// `ifscCode` as sent (a bank code).
    IfscCodeText = "ifscCode";
    /// `routingNumber` as sent (a bank code).
    RoutingNumberText = "routingNumber";
    /// `bankName` as sent (checked by [`bank_name`]).
    BankNameText = "bankName";
    /// `userId` as sent (checked by the handler: the caller or an administrator).
    UserIdText = "userId";
}

/// `accountNumber` as sent: a text (its digits are checked by [`account_number`] after every
/// field's type).
#[derive(Debug, Clone, PartialEq)]
pub struct AccountNumberText(pub String);

impl FieldValue for AccountNumberText {
    fn read(value: Value) -> Result<Self, Refusal> {
        match value {
            Value::String(s) => Ok(AccountNumberText(s)),
            _ => Err(Refusal::new(MSG_ACCOUNT_NUMBER_TYPE)),
        }
    }
}

/// One text of `contactData`: `None` when it is not a text.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactText(pub Option<String>);

impl FieldValue for ContactText {
    fn read(value: Value) -> Result<Self, Refusal> {
        Ok(ContactText(value.as_str().map(|s| s.trim().to_string())))
    }
}

/// `contactData`, checked: an object of exactly `name` (at most 100 characters), `email` (an
/// address) and `contact` (a phone number of 7 to 15 digits).
#[derive(Debug, Clone, PartialEq)]
pub struct ContactValue(pub ContactData);

impl FieldValue for ContactValue {
    fn read(value: Value) -> Result<Self, Refusal> {
        if !value.is_object() {
            return Err(Refusal::new(
                "contactData must be an object {name, email, contact}",
            ));
        }
        let fields = serde_json::from_value::<ContactDataBody>(value).map_err(|e| {
            let detail = e.to_string();
            match detail
                .strip_prefix("unknown field `")
                .and_then(|rest| rest.split('`').next())
            {
                Some(name) => Refusal::new(format!(
                    "Unknown field 'contactData.{name}' (allowed: name, email, contact)"
                )),
                None => Refusal::new(format!("contactData: {detail}")),
            }
        })?;
        contact_data(&fields).map(ContactValue)
    }
}

crate::field_value!(AccountNumberText, ContactText, ContactValue);

/// The type of every text field that is sent is checked before anything else, so a value of
/// the wrong type is named even when another field is missing.
fn check_types(
    texts: [Result<(), ApiError>; 6],
    account_number: &Sent<AccountNumberText>,
) -> ApiResult<()> {
    for text in texts {
        text?;
    }
    account_number.value()?;
    Ok(())
}

/// The three names of the bank code, in the order they are read.
type CodeFields<'a> = (
    &'a Sent<BankCodeText>,
    &'a Sent<IfscCodeText>,
    &'a Sent<RoutingNumberText>,
);

/// New bank details, checked.
pub struct NewBankDetails {
    pub holder: String,
    pub number: String,
    pub code: (String, &'static str, &'static str),
    pub bank: String,
    pub contact: ContactData,
    pub user_id: Option<String>,
}

impl BankDetailsBody {
    /// The fields in the order their messages are answered: every type, then each value.
    pub fn validate(&self) -> ApiResult<NewBankDetails> {
        check_types(
            [
                self.account_holder_name.value().map(drop),
                self.bank_code.value().map(drop),
                self.ifsc_code.value().map(drop),
                self.routing_number.value().map(drop),
                self.bank_name.value().map(drop),
                self.user_id.value().map(drop),
            ],
            &self.account_number,
        )?;
        let holder = holder_name(
            &self
                .account_holder_name
                .required("accountHolderName is required")?
                .0,
        )?;
        let number = account_number(&self.account_number.required("accountNumber is required")?.0)?;
        let code = code_field((&self.bank_code, &self.ifsc_code, &self.routing_number))?
            .ok_or_else(|| ApiError::bad_request("bankCode is required"))?;
        let code = bank_code(&code)?;
        let bank = bank_name(&self.bank_name.required("bankName is required")?.0)?;
        let contact = self
            .contact_data
            .required("contactData is required")?
            .0
            .clone();
        Ok(NewBankDetails {
            holder,
            number,
            code,
            bank,
            contact,
            user_id: self.user_id.value()?.map(|u| u.0.clone()),
        })
    }
}

/// A change to bank details, checked: `None` leaves a field as it is.
pub struct BankDetailsChange {
    pub holder: Option<String>,
    pub number: Option<String>,
    pub code: Option<(String, &'static str, &'static str)>,
    pub bank: Option<String>,
    pub contact: Option<ContactData>,
}

impl BankDetailsChangeBody {
    /// Refuses a body that names a user: bank details stay with their owner.
    pub fn check_owner_kept(&self) -> ApiResult<()> {
        if self.user_id.was_sent() {
            return Err(ApiError::bad_request(
                "Bank details cannot be moved to another user",
            ));
        }
        Ok(())
    }

    /// The fields in the order their messages are answered: every type, then each value (a
    /// field sent empty or `null` is required).
    pub fn validate(&self) -> ApiResult<BankDetailsChange> {
        check_types(
            [
                self.account_holder_name.value().map(drop),
                self.bank_code.value().map(drop),
                self.ifsc_code.value().map(drop),
                self.routing_number.value().map(drop),
                self.bank_name.value().map(drop),
                Ok(()),
            ],
            &self.account_number,
        )?;
        let holder = match self.account_holder_name.value()? {
            Some(raw) => Some(holder_name(&raw.0)?),
            None if self.account_holder_name.was_sent() => {
                return Err(ApiError::bad_request("accountHolderName is required"))
            }
            None => None,
        };
        let number = match self.account_number.value()? {
            Some(raw) => Some(account_number(&raw.0)?),
            None if self.account_number.was_sent() => {
                return Err(ApiError::bad_request("accountNumber is required"))
            }
            None => None,
        };
        let code = code_field((&self.bank_code, &self.ifsc_code, &self.routing_number))?
            .map(|c| bank_code(&c))
            .transpose()?;
        let bank = match self.bank_name.value()? {
            Some(raw) => Some(bank_name(&raw.0)?),
            None if self.bank_name.was_sent() => {
                return Err(ApiError::bad_request("bankName is required"))
            }
            None => None,
        };
        let contact = self.contact_data.given()?.map(|c| c.0);
        Ok(BankDetailsChange {
            holder,
            number,
            code,
            bank,
            contact,
        })
    }
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

fn account_number(text: &str) -> ApiResult<String> {
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

fn contact_data(fields: &ContactDataBody) -> Result<ContactData, Refusal> {
    let text = |key: &str, sent: &Sent<ContactText>| -> Result<String, Refusal> {
        let value = sent.value().ok().flatten().and_then(|t| t.0.clone());
        match value {
            Some(s) if !s.is_empty() && s != "null" => Ok(s),
            _ => Err(Refusal::new(format!("contactData.{key} is required"))),
        }
    };
    let name = text("name", &fields.name)?;
    if name.chars().count() > 100 {
        return Err(Refusal::new(
            "contactData.name must be at most 100 characters",
        ));
    }
    let email = Email::parse(&text("email", &fields.email)?)
        .map_err(|_| Refusal::new("contactData.email must be an email address"))?;
    let phone = text("contact", &fields.contact)?;
    let digits = phone.chars().filter(char::is_ascii_digit).count();
    let ok = (7..=15).contains(&digits)
        && phone.chars().enumerate().all(|(i, c)| {
            c.is_ascii_digit() || matches!(c, ' ' | '-' | '(' | ')') || (c == '+' && i == 0)
        });
    if !ok {
        return Err(Refusal::new(
            "contactData.contact must be a phone number of 7 to 15 digits",
        ));
    }
    Ok(ContactData {
        name,
        email: email.as_str().to_string(),
        contact: phone,
    })
}

/// The bank code of a body, under any of its names (one of them).
fn code_field((bank, ifsc, routing): CodeFields<'_>) -> ApiResult<Option<String>> {
    let mut found = None;
    let given = [
        bank.value()?.map(|c| c.0.clone()),
        ifsc.value()?.map(|c| c.0.clone()),
        routing.value()?.map(|c| c.0.clone()),
    ];
    for v in given.into_iter().flatten() {
        if found.is_some() {
            return Err(ApiError::bad_request(
                "Send one of bankCode, ifscCode or routingNumber",
            ));
        }
        found = Some(v);
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        assert_eq!(account_number("0001 2345-6789").unwrap(), "000123456789");
        for bad in ["12a4".to_string(), "123".to_string(), "1".repeat(21)] {
            assert!(account_number(&bad).is_err(), "{bad}");
        }
        assert_eq!(
            AccountNumberText::read(json!(123456789)).unwrap_err(),
            Refusal::new(MSG_ACCOUNT_NUMBER_TYPE)
        );
    }
}
